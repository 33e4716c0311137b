/**
 * Property tests of how the HTTP transport reads `Retry-After` (RFC 9110 section 10.2.3): only
 * delay-seconds (digits, nothing else) and an HTTP-date in its three forms give a wait of their own;
 * any other value is ignored, so the backoff applies — no header string makes the wait shorter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryWaitMs } from "../../src/transport/http-retry.js";

const NOW = Date.parse("2026-12-03T12:00:00Z");
const backoff = (retryCount: number): number => 300 * 2 ** (retryCount - 1);
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number): string => String(n).padStart(2, "0");
const clock = (date: Date): string =>
  `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;

/** A date with whole seconds, as an HTTP-date can say it. */
const wholeSeconds = (from: string, to: string) =>
  fc.integer({ min: Date.parse(from) / 1000, max: Date.parse(to) / 1000 }).map((seconds) => new Date(seconds * 1000));

/** Strings that are neither delay-seconds nor shaped like an HTTP-date. */
const notAWait = fc
  .oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.double({ noNaN: true }).map(String),
    fc.tuple(fc.nat(), fc.nat()).map(([whole, part]) => `${whole}.${part}`),
    fc.nat().map((n) => `-${n}`),
    fc.nat().map((n) => `+${n}`),
    fc.tuple(fc.nat(99), fc.nat(9)).map(([n, e]) => `${n}e${e}`),
    fc.nat().map((n) => `0x${n.toString(16)}`),
    fc.nat().map((n) => `${n} s`),
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.date({ noInvalidDate: true }).map((date) => date.toString()),
    fc.date({ noInvalidDate: true }).map((date) => date.toUTCString().replace("GMT", "UTC")),
    fc.date({ noInvalidDate: true }).map((date) => date.toUTCString().toLowerCase()),
  )
  .filter(
    (text) =>
      !/^[ \t]*[0-9]+[ \t]*$/.test(text) &&
      !/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text),
  );

describe("Retry-After, read as RFC 9110 has it", () => {
  it("a value that is no delay-seconds or HTTP-date never shortens the wait: the backoff applies", () => {
    fc.assert(
      fc.property(notAWait, fc.integer({ min: 1, max: 10 }), (text, retryCount) => {
        expect(parseRetryAfter(text, NOW)).toBeUndefined();
        expect(retryWaitMs(text, retryCount, NOW)).toBe(backoff(retryCount));
      }),
      { numRuns: 2_000 },
    );
  });

  it("delay-seconds (with the field's optional spaces and tabs) is that many seconds", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000_000_000 }),
        fc.stringMatching(/^[ \t]{0,2}$/),
        fc.stringMatching(/^[ \t]{0,2}$/),
        (seconds, before, after) => {
          expect(retryWaitMs(`${before}${seconds}${after}`, 1, NOW)).toBe(seconds * 1000);
        },
      ),
    );
  });

  it("an IMF-fixdate, an RFC 850 date and an asctime date are each waited for until that time (0 once past)", () => {
    fc.assert(
      fc.property(wholeSeconds("1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"), (date) => {
        expect(parseRetryAfter(date.toUTCString(), NOW)).toBe(Math.max(0, date.getTime() - NOW));
        const asctime = `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, " ")} ${clock(date)} ${date.getUTCFullYear()}`;
        expect(parseRetryAfter(asctime, NOW)).toBe(Math.max(0, date.getTime() - NOW));
      }),
    );
    // RFC 850's two-digit year: within 50 years ahead of now, else the century before.
    fc.assert(
      fc.property(wholeSeconds("1977-01-01T00:00:00Z", "2076-12-31T23:59:59Z"), (date) => {
        const rfc850 = `${LONG_DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-${two(date.getUTCFullYear() % 100)} ${clock(date)} GMT`;
        expect(parseRetryAfter(rfc850, NOW)).toBe(Math.max(0, date.getTime() - NOW));
      }),
    );
  });

  it("a date-shaped value naming no real time (31 Nov, 29 Feb of a common year, hour 24) is ignored", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 9999 }),
        fc.constantFrom("31 Nov", "31 Apr", "32 Jan", "00 Mar"),
        (year, day) => {
          expect(parseRetryAfter(`Mon, ${day} ${year} 12:00:00 GMT`, NOW)).toBeUndefined();
        },
      ),
    );
    expect(parseRetryAfter("Mon, 29 Feb 2027 12:00:00 GMT", NOW)).toBeUndefined();
    expect(parseRetryAfter("Tue, 29 Feb 2028 12:00:00 GMT", NOW)).toBe(Date.parse("2028-02-29T12:00:00Z") - NOW);
    expect(parseRetryAfter("Thu, 03 Dec 2026 24:00:00 GMT", NOW)).toBeUndefined();
  });
});
