import { describe, expect, it } from "vitest";
import { validatePayload, validateResult } from "glass-sdk";
import { writeBenchFixture } from "../../bench/lib/fixture.js";
import { ladderRungs } from "../../bench/lib/ladder-fixture.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The benchmarks (`npm run bench`, `npm run bench:ladder`) call the daemon with these recorded
// calls; the SDK checks each payload before sending it, so one the schemas have outgrown would stop
// the benchmark with payload.invalid. They do not run in CI: this keeps them in step with the schemas.
describe("the benchmarks' recorded calls", () => {
  it("are payloads and results the catalog's schemas accept (npm run bench)", () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-bench-fixture-"));
    try {
      for (const call of Object.values(writeBenchFixture(dir).operations)) {
        expect(validatePayload(call.operation, call.payload).ok, call.key).toBe(true);
        expect(validateResult(call.operation, call.result).ok, call.key).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are payloads and results the catalog's schemas accept, on every rung of the ladder (npm run bench:ladder)", () => {
    for (const rung of ladderRungs()) {
      const { operation, payload, result } = rung.operation;
      const checked = validatePayload(operation, payload);
      expect(checked.ok ? [] : checked.issues.slice(0, 3), rung.key).toEqual([]);
      expect(validateResult(operation, result).ok, rung.key).toBe(true);
    }
  });
});
