import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { inferSchema } from "../codegen/infer.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Recorded results of browser.navigate, as a recorder would save them. */
const samples = [
  { executionId: "exec-1", url: "https://shop.example/cart", revision: 4, redirected: false },
  { executionId: "exec-2", url: "https://shop.example/checkout", revision: 5, redirected: true, title: "Checkout" },
];

describe("codegen infer (quicktype-core)", () => {
  it("infers a draft JSON Schema from recorded result samples", async () => {
    const draft = await inferSchema(samples, "BrowserNavigateResult");
    const definitions = draft.definitions as Record<string, { properties: Record<string, { type: string }>; required: string[] }>;
    const result = definitions.BrowserNavigateResult!;
    expect(result.properties.executionId!.type).toBe("string");
    expect(result.properties.revision!.type).toBe("integer");
    expect(result.properties.redirected!.type).toBe("boolean");
    expect(result.required).toEqual(expect.arrayContaining(["executionId", "url", "revision", "redirected"]));
    expect(result.required).not.toContain("title");
  });

  it("runs as `npm run codegen -- infer <samples.json>`", () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-infer-"));
    try {
      const file = join(dir, "samples.json");
      writeFileSync(file, JSON.stringify({ samples }));
      const run = spawnSync(join(ROOT, "node_modules/.bin/tsx"), ["codegen/main.ts", "infer", file, "NavigateResult"], { cwd: ROOT, encoding: "utf8" });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).definitions.NavigateResult.properties.url.type).toBe("string");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an empty sample list with a clear error", async () => {
    await expect(inferSchema([])).rejects.toThrow(/at least one sample/);
  });
});
