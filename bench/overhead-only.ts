/**
 * `npx tsx bench/overhead-only.ts` (after `npm run build`): only the SDK's per-call overhead without
 * I/O (section 2 of `npm run bench`), for quick iterations on the client's hot path.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBenchFixture } from "./lib/fixture.js";
import { ROOT } from "./lib/paths.js";
import { readSettings } from "./lib/settings.js";
import { measureOverhead } from "./sections/overhead.js";

const dir = mkdtempSync(join(tmpdir(), "glass-overhead-"));
try {
  const results = await measureOverhead(writeBenchFixture(dir), readSettings(process.argv.slice(2)), ROOT);
  for (const r of results) {
    console.log(
      `${r.payload}: overhead ${r.overheadMicros.toFixed(1)} µs CPU (glass ${r.glassMicros.toFixed(1)} − trivial ${r.trivialMicros.toFixed(1)})`,
    );
    console.log(`   ${r.stages.map((s) => `${s.stage} ${s.micros.toFixed(2)}`).join(" | ")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
