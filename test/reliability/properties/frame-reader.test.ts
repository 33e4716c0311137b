/**
 * Property tests of the frame reader (protocol page §5), seeded:
 *
 * (a) any sequence of valid messages — newline and Content-Length framed, chosen by `auto` or
 *     forced, with multibyte text, lone surrogates and messages above 8 KiB, blank lines between —
 *     decodes to the same messages, framings and sizes in order however the stream is chunked;
 * (b) random bytes, header/JSON token soup and corrupted valid streams, pushed in random chunks (with
 *     `discardPartial` called now and then, as a transport does on a stall), never make `push` or
 *     `end()` throw anything but a BadFrameError, never take over a second per push and never throw
 *     forever; and after such junk plus a line feed the next valid frame is decoded exactly as the
 *     reader's resynchronisation rule says (see frame-reader-cases.ts for the rule, precisely);
 * (c) end() after a complete stream, with or without a blank tail, does not throw.
 *
 * Each property runs in a worker thread (frame-reader-worker.mjs): a reader stuck in a synchronous
 * loop would otherwise freeze the whole suite. A case that runs over 15 s fails the test with the
 * seed and the index of the case it hung on (and each push over 1 s fails the property itself); replay it with `fc.check(property, { seed, path: String(index) })`.
 * `GLASS_PROPERTY_SEED=<n>` runs another seed.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { ReaderPropertyName, ReaderPropertyOutcome } from "./frame-reader-cases.js";
import { baseSeed, recordGeneratedCases, type TaskWithMeta } from "../support/generated-cases.js";

const SEED = baseSeed(20261202) + 100;

/** How long one case may run (no new case started) before the reader is declared hung. */
const CASE_DEADLINE_MS = 15_000;

const WORKER = new URL("./frame-reader-worker.mjs", import.meta.url);

/** Runs a property of frame-reader-cases.ts in a worker; fails on a hang, a crash or a counterexample. */
async function checkInWorker(
  context: TaskWithMeta,
  property: ReaderPropertyName,
  seed: number,
  numRuns: number,
): Promise<ReaderPropertyOutcome> {
  const worker = new Worker(WORKER, { workerData: { property, seed, numRuns } });
  let lastCase = -1;
  try {
    const outcome = await new Promise<ReaderPropertyOutcome>((resolve, reject) => {
      const hung = (): void =>
        reject(
          new Error(
            `the frame reader hung: property ${property} (seed ${seed}) spent over ${CASE_DEADLINE_MS} ms ` +
              `on case #${lastCase} (replay: fc.check(property, { seed: ${seed}, path: "${lastCase}" }))`,
          ),
        );
      let timer = setTimeout(hung, CASE_DEADLINE_MS);
      worker.on("message", (message: { type: "case"; index: number } | ({ type: "done" } & ReaderPropertyOutcome)) => {
        if (message.type === "case") {
          lastCase = message.index;
          clearTimeout(timer);
          timer = setTimeout(hung, CASE_DEADLINE_MS);
          return;
        }
        clearTimeout(timer);
        resolve(message);
      });
      worker.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the property worker exited with code ${code} during case #${lastCase}`));
      });
    });
    recordGeneratedCases(context, outcome.numRuns);
    if (outcome.failed) throw new Error(outcome.report ?? `property ${property} failed (seed ${seed})`);
    return outcome;
  } finally {
    await worker.terminate();
  }
}

const RUNS = { roundTrip: 600, junkNeverBreaks: 1_500, resync: 2_000, endAfterComplete: 500 } as const;
const TIMEOUT = 120_000; // the whole property; a single stuck case fails after CASE_DEADLINE_MS

describe("frame reader properties", () => {
  it(
    `(a) decodes ${RUNS.roundTrip} random valid streams identically however they are chunked`,
    async (context: TaskWithMeta) => {
      const { stats } = await checkInWorker(context, "roundTrip", SEED, RUNS.roundTrip);
      expect(stats["streams with a message above 8 KiB"] ?? 0).toBeGreaterThan(20);
      expect(stats["mixed framings"] ?? 0).toBeGreaterThan(50);
    },
    TIMEOUT,
  );

  it(
    `(b) never throws anything but BadFrameError, hangs or loops on ${RUNS.junkNeverBreaks} junk streams`,
    async (context: TaskWithMeta) => {
      const { stats } = await checkInWorker(context, "junkNeverBreaks", SEED + 1, RUNS.junkNeverBreaks);
      expect(stats["streams with bad frames"] ?? 0).toBeGreaterThan(RUNS.junkNeverBreaks / 2);
      expect(stats["streams with good frames"] ?? 0).toBeGreaterThan(20);
    },
    TIMEOUT,
  );

  it(
    `(b) decodes the next valid frame after ${RUNS.resync} junk streams plus a line feed, as the resync rule says`,
    async (context: TaskWithMeta) => {
      const { stats } = await checkInWorker(context, "resync", SEED + 2, RUNS.resync);
      // Every state the rule distinguishes is reached, not only "between frames".
      expect(stats["between frames"] ?? 0).toBeGreaterThan(RUNS.resync / 2);
      expect(stats["expecting the blank line after a header"] ?? 0).toBeGreaterThan(10);
      expect(stats["inside a Content-Length body"] ?? 0).toBeGreaterThan(20);
      expect(stats["inside a huge Content-Length body"] ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    `(c) end() after ${RUNS.endAfterComplete} complete streams (after junk, before a blank tail) does not throw`,
    async (context: TaskWithMeta) => {
      const { stats } = await checkInWorker(context, "endAfterComplete", SEED + 3, RUNS.endAfterComplete);
      expect(stats["unterminated blank tail"] ?? 0).toBeGreaterThan(10);
    },
    TIMEOUT,
  );
});
