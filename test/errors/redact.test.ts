/**
 * Quoting untrusted text (`quoteUntrusted`) and the scrubber behind it (`createRedactor`), as
 * classes rather than instances: a known secret anywhere in a quoted text, wherever the cut falls,
 * leaves no beginning or end of itself of MIN_CUT_SECRET characters or more; the encodings a page
 * uses for a secret are scrubbed; and a quote's byte bound holds after control characters are
 * written out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor, MIN_CUT_SECRET, quoteUntrusted } from "../../src/errors/redact.js";
import { truncateUtf8 } from "../../src/mcp/utf8-truncate.js";
import { utf8Length } from "../../src/validation/byte-length.js";

/** A bearer-token-like secret: 43 characters of base64url, as the bridge generates. */
const tokenArbitrary = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
  minLength: 43,
  maxLength: 43,
});
const filler = fc.string({ unit: fc.constantFrom(..."abc XYZ:/.,\"'"), maxLength: 400 });

/** Every piece of `secret` of at least `min` characters that is a beginning or an end of it. */
function ends(secret: string, min: number): string[] {
  const out: string[] = [];
  for (let length = min; length <= secret.length; length++)
    out.push(secret.slice(0, length), secret.slice(secret.length - length));
  return out;
}

function expectNoEndOf(text: string, secret: string): void {
  for (const piece of ends(secret, MIN_CUT_SECRET))
    expect(text, `${JSON.stringify(piece)} of the secret survived`).not.toContain(piece);
}

describe("quoteUntrusted: a secret cut in half does not survive", () => {
  it("no beginning or end of a known secret survives, at every cut position of every quoted text, in the middle of a message", () => {
    fc.assert(
      fc.property(
        tokenArbitrary,
        filler,
        filler,
        fc.integer({ min: 16, max: 600 }),
        fc.constantFrom("", "Bearer ", "glass-bearer.", "?token="),
        (secret, before, after, maxBytes, how) => {
          const redact = createRedactor([secret]);
          const quoted = quoteUntrusted(`${before}${how}${secret}${after}`, maxBytes, {
            redact,
            collapseWhitespace: true,
          });
          expect(utf8Length(quoted)).toBeLessThanOrEqual(maxBytes);
          const message = `the daemon answered HTTP 401: ${quoted}: pass the token from the bridge's startup line`;
          expectNoEndOf(message, secret);
          expectNoEndOf(redact(message), secret);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("each cut position of a secret at the end of a body leaves none of it (42 of 43 characters included)", () => {
    const secret = "Kq7Wz3Xv9Pm2Lr8Tn4Bc6_Hd1-Yf5aQ0wE9rT8yU7i";
    const redact = createRedactor([secret]);
    for (let cut = 0; cut <= secret.length + 20; cut++) {
      const body = `${"x".repeat(150)} ${secret}`;
      const quoted = quoteUntrusted(body, 151 + cut, { redact });
      expectNoEndOf(`HTTP 401: ${quoted}; fix it`, secret);
    }
  });

  it("after the fact, the scrubber hides the beginning of a secret before a cut mark anywhere in the text, not only at its end", () => {
    const secret = "lt-lease-token-Zq8Rx3Wv7Lm2Kc9";
    const redact = createRedactor([secret]);
    fc.assert(
      fc.property(fc.integer({ min: MIN_CUT_SECRET, max: secret.length - 1 }), filler, (length, after) => {
        const text = `answered: "${truncateUtf8(`abc ${secret}`, 4 + length + 3)}"; ${after}`;
        expectNoEndOf(redact(text), secret);
      }),
    );
  });
});

describe("createRedactor: the encodings a page uses", () => {
  /** A secret with characters every encoding treats specially. */
  const secretArbitrary = fc
    .string({ unit: fc.constantFrom(..."aZ9 &<>\"'!()~*+%/=?#é\\"), minLength: 6, maxLength: 24 })
    .filter((s) => /[a-zA-Z9é]{2}/.test(s));

  const htmlEscape = (text: string, numeric: boolean): string =>
    text.replace(/[&<>"']/g, (c) =>
      numeric
        ? `&#${c.codePointAt(0)};`
        : ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" } as Record<string, string>)[c]!,
    );
  const hexEscape = (text: string): string =>
    text.replace(/[&<>"']/g, (c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`);

  it("replaces a secret form-urlencoded, HTML-escaped (named, decimal and hex references) and those inside JSON text", () => {
    fc.assert(
      fc.property(secretArbitrary, (secret) => {
        const redact = createRedactor([secret]);
        const forms = [
          new URLSearchParams({ q: secret }).toString().slice(2),
          new URLSearchParams({ q: secret })
            .toString()
            .slice(2)
            .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
          encodeURIComponent(secret),
          htmlEscape(secret, false),
          htmlEscape(secret, true),
          hexEscape(secret),
        ];
        for (const form of forms) {
          for (const text of [
            `<p>${form}</p>`,
            JSON.stringify(`<p>${form}</p>`),
            JSON.stringify(JSON.stringify(`<p>${form}</p>`)),
          ]) {
            const out = redact(text);
            expect(out, `${JSON.stringify(form)} in ${text}`).toContain("[redacted]");
            expect(out).not.toContain(form);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("quoteUntrusted: byte bounds hold after control characters are written out", () => {
  it("a quote of any text with any control characters is at most maxBytes UTF-8 bytes and has no control character left", () => {
    const control = fc
      .integer({ min: 0, max: 0x9f })
      .filter((c) => c < 0x20 || c >= 0x7f)
      .map((c) => String.fromCharCode(c));
    const unit = fc.oneof(control, fc.constantFrom("\u2028", "\u202e", "\u2066", "a", "é", "😀", "\ud800"));
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 2000 }),
        fc.integer({ min: 8, max: 1024 }),
        fc.boolean(),
        (text, maxBytes, keepLineBreaks) => {
          const quoted = quoteUntrusted(text, maxBytes, { keepLineBreaks });
          expect(utf8Length(quoted)).toBeLessThanOrEqual(maxBytes);
          expect(quoted).not.toMatch(
            keepLineBreaks
              ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
              : /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a 5 MiB text of terminal escapes is quoted in at most 512 bytes, ending in the cut mark", () => {
    const quoted = quoteUntrusted("\u001b[31mred\u001b[0m\r".repeat(400_000), 512, { keepLineBreaks: true });
    expect(utf8Length(quoted)).toBeLessThanOrEqual(512);
    expect(quoted.endsWith("…")).toBe(true);
  });
});
