// Runs one frame-reader property (frame-reader-cases.ts) in a worker thread for
// frame-reader.test.ts: the test can then give up on a reader that hangs inside a
// synchronous push, and report the case it hung on. Plain JavaScript: it registers tsx (a dev
// dependency) before loading the TypeScript sources.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runReaderProperty } = await import("./frame-reader-cases.ts");
const { property, seed, numRuns } = workerData;
const outcome = runReaderProperty(property, { seed, numRuns }, (index) =>
  parentPort.postMessage({ type: "case", index }),
);
parentPort.postMessage({ type: "done", ...outcome });
