/**
 * npm run bench:validate — validations per second of our generated validators next to ajv
 * compiled from the same schemas, in one process run, rounds interleaved so both see the same
 * machine. Prints a table and the ratios (ours ÷ ajv; above 1 means ours is faster).
 */
import { performance } from "node:perf_hooks";
import { ajvFromSchemas, ajvPayloadValidator } from "../test/support/ajv-from-schema.js";
import { webIrDiffSample } from "../test/support/web-ir-sample.js";

// Measure what users run: the built bundle (npm run build), typed by the source it is built from.
const { createRequest, validatePayload, validateRequest } = (await import(
  new URL("../dist/index.js", import.meta.url).href
)) as typeof import("glass-sdk");

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 100);

function opsPerSecond(run: () => unknown): number {
  let iterations = 0;
  let batch = 1;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    for (let i = 0; i < batch; i++) run();
    iterations += batch;
    elapsed = performance.now() - start;
    if (elapsed < ROUND_MS / 10) batch *= 2;
  }
  return (iterations / elapsed) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Throughput of both, in alternating rounds; the median round of each, and the ratio of medians. */
function compare(
  name: string,
  ours: () => boolean,
  theirs: () => boolean,
): { name: string; ours: number; ajv: number; ratio: number } {
  if (!ours() || !theirs()) throw new Error(`${name}: the sample must be valid for both validators`);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      a.push(opsPerSecond(ours));
      b.push(opsPerSecond(theirs));
    } else {
      b.push(opsPerSecond(theirs));
      a.push(opsPerSecond(ours));
    }
  }
  return { name, ours: median(a), ajv: median(b), ratio: median(a) / median(b) };
}

const request = createRequest(
  "browser.click",
  { target: "ref=r7:b42", expectedRevision: 7 },
  {
    requestId: "click-1",
    correlationId: "run-1",
    sessionId: "session-1",
    mutationLease: { sessionId: "session-1", token: "lease-1" },
    deadlineMs: 5000,
  },
);
// Documents arrive from the daemon as parsed JSON, so validate parsed JSON.
const diff = JSON.parse(JSON.stringify(webIrDiffSample(200_000))) as ReturnType<typeof webIrDiffSample>;
const diffBytes = Buffer.byteLength(JSON.stringify(diff));

const { compile } = ajvFromSchemas();
const ajvRequest = compile("glass-protocol-v1.schema.json", "/$defs/request");
const ajvDiff = ajvPayloadValidator("webIr.diff");

const rows = [
  compare(
    "validateRequest, small leased click",
    () => validateRequest(request).ok,
    () => ajvRequest(request),
  ),
  compare(
    `validatePayload webIr.diff, ${(diffBytes / 1024).toFixed(0)} KiB`,
    () => validatePayload("webIr.diff", diff).ok,
    () => ajvDiff(diff),
  ),
];

console.log(`Node ${process.version}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms, medians\n`);
console.log(`${"benchmark".padEnd(44)} ${"glass-sdk/s".padStart(12)} ${"ajv/s".padStart(12)} ${"ratio".padStart(7)}`);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(44)} ${row.ours.toFixed(0).padStart(12)} ${row.ajv.toFixed(0).padStart(12)} ${row.ratio.toFixed(2).padStart(7)}`,
  );
}
const slower = rows.filter((row) => row.ratio < 1);
console.log(
  slower.length === 0
    ? "\nglass-sdk is not slower than ajv on any benchmark."
    : `\nslower than ajv: ${slower.map((r) => r.name).join(", ")}`,
);
