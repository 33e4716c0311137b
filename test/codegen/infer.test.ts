import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../codegen/catalog.js";
import { emitCompactValidators } from "../../codegen/emit-compact-validators.js";
import { emitTypes } from "../../codegen/emit-types.js";
import { emitValidators, type NamedEntry } from "../../codegen/emit-validators.js";
import { inferSchema } from "../../codegen/infer.js";
import { SUPPORTED_KEYWORDS } from "../../codegen/schema-keywords.js";
import { SchemaRegistry } from "../../codegen/schema-registry.js";
import type { GeneratedValidator } from "../../src/validation/generated-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Recorded results of browser.navigate, as a recorder would save them. */
const samples = [
  { executionId: "exec-1", url: "https://shop.example/cart", revision: 4, redirected: false },
  { executionId: "exec-2", url: "https://shop.example/checkout", revision: 5, redirected: true, title: "Checkout" },
];

/** Recorded screenshot results (lifted: metadata plus the image), with values quicktype likes to guess formats for. */
const screenshots = [
  {
    format: "png",
    width: 1280,
    height: 720,
    full_page: false,
    target_id: "tab-1",
    taken: "2026-12-03T08:00:00Z",
    image: { data: "iVBORw0KGgo=", mimeType: "image/png" },
  },
  {
    format: "jpeg",
    width: 800,
    height: 600,
    full_page: true,
    target_id: "9b2c5c1e-2222-4e2b-9c3d-0a1b2c3d4e5f",
    taken: "2026-12-04T09:30:00Z",
    clip: { x: 0, y: 0, width: 800, height: 600 },
    image: { data: "/9j/4AAQ", mimeType: "image/jpeg" },
  },
];

/** Every key of every object in a JSON value. */
function keysOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(keysOf);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => [key, ...keysOf(value)]);
}

/** Every `$ref` in a JSON value. */
function refsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsOf);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => (key === "$ref" ? [value as string] : refsOf(value)));
}

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("codegen infer (quicktype-core)", () => {
  it("infers a draft JSON Schema from recorded result samples", async () => {
    const draft = await inferSchema(samples, "BrowserNavigateResult");
    const definitions = draft.$defs as Record<
      string,
      { properties: Record<string, { type: string }>; required: string[] }
    >;
    const result = definitions.BrowserNavigateResult!;
    expect(draft.$ref).toBe("#/$defs/BrowserNavigateResult");
    expect(result.properties.executionId!.type).toBe("string");
    expect(result.properties.revision!.type).toBe("integer");
    expect(result.properties.redirected!.type).toBe("boolean");
    expect(result.required).toEqual(expect.arrayContaining(["executionId", "url", "revision", "redirected"]));
    expect(result.required).not.toContain("title");
  });

  it("writes our schema dialect: $defs, #/$defs refs, no $schema, format or qt-* keywords, open objects", async () => {
    const draft = await inferSchema(screenshots, "BrowserScreenshotResult");
    const keys = keysOf(draft);
    expect(keys).not.toContain("definitions");
    expect(keys).not.toContain("$schema");
    expect(keys.filter((key) => key.startsWith("qt-"))).toEqual([]);
    expect(JSON.stringify(draft)).not.toMatch(/"additionalProperties":false/);
    for (const ref of refsOf(draft)) expect(ref).toMatch(/^#\/\$defs\/\w+$/);
    // Keywords of every schema node (property maps hold names, not keywords).
    const keywords = (node: unknown): string[] => {
      if (Array.isArray(node)) return node.flatMap(keywords);
      if (node === null || typeof node !== "object") return [];
      return Object.entries(node).flatMap(([key, value]) =>
        key === "properties" || key === "$defs"
          ? [key, ...Object.values(value as object).flatMap(keywords)]
          : key === "required" || key === "enum"
            ? [key]
            : [key, ...keywords(value)],
      );
    };
    const unsupported = keywords(draft).filter((keyword) => !SUPPORTED_KEYWORDS.has(keyword));
    expect(unsupported).toEqual([]);
    const screenshot = (draft.$defs as Record<string, { properties: Record<string, unknown> }>)
      .BrowserScreenshotResult!;
    expect(screenshot.properties.format).toEqual({ type: "string" });
    expect(screenshot.properties.taken).toEqual({ type: "string" });
    expect(screenshot.properties.target_id).toEqual({ type: "string" });
  });

  it("drafts a schema the generator compiles: types, validators (both back ends) that accept the samples and unknown fields", async () => {
    const draft = await inferSchema(screenshots, "BrowserScreenshotResult");
    const dir = mkdtempSync(join(tmpdir(), "glass-infer-"));
    scratch.push(dir);
    const FILE = "inferred.schema.json";
    mkdirSync(join(dir, "schema"));
    writeFileSync(join(dir, "schema", FILE), JSON.stringify(draft));
    const registry = new SchemaRegistry(join(dir, "schema"));
    const noOperations: Catalog = { groups: [], operations: [], leaseExemptTools: [] };
    const entries: NamedEntry[] = [{ name: "validateInferred", location: { file: FILE, pointer: "" } }];

    const types = await emitTypes(registry, noOperations, [FILE]);
    const typeText = types.get("types/inferred.ts")!;
    expect(typeText).toMatch(/export interface BrowserScreenshotResult \{/);
    expect(typeText).toMatch(/export interface Image \{/);
    expect(typeText).toMatch(/\[k: string\]: unknown;/); // open objects

    const files = [
      ...emitValidators(registry, noOperations, entries),
      ...emitCompactValidators(registry, noOperations, entries),
    ];
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, "generated", path)), { recursive: true });
      writeFileSync(join(dir, "generated", path), text.replace(/from "(?:\.\.\/)+src\//g, `from "${ROOT}src/`));
    }
    for (const module of ["generated/validators/index.ts", "generated/validators-compact/index.ts"]) {
      const { validateInferred } = (await import(join(dir, module))) as Record<string, GeneratedValidator>;
      for (const value of screenshots) {
        expect(validateInferred!(value, "", null), module).toBe(true);
        expect(
          validateInferred!({ ...value, futureField: 1, image: { ...value.image, alt: "page" } }, "", null),
          module,
        ).toBe(true);
      }
      const issues: { path: string; reason: string }[] = [];
      expect(validateInferred!({ ...screenshots[0], width: "wide" }, "", issues)).toBe(false);
      expect(issues.map((issue) => issue.path)).toEqual(["width"]);
    }
  });

  it("runs as `npm run codegen -- infer <samples.json>`", () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-infer-"));
    scratch.push(dir);
    const file = join(dir, "samples.json");
    writeFileSync(file, JSON.stringify({ samples }));
    const run = spawnSync(join(ROOT, "node_modules/.bin/tsx"), ["codegen/main.ts", "infer", file, "NavigateResult"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    const draft = JSON.parse(run.stdout) as { $defs: Record<string, { properties: Record<string, { type: string }> }> };
    expect(draft.$defs.NavigateResult!.properties.url!.type).toBe("string");
  });

  it("refuses an empty sample list with a clear error", async () => {
    await expect(inferSchema([])).rejects.toThrow(/at least one sample/);
  });
});
