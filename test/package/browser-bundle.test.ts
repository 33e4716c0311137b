import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bundlePath = fileURLToPath(new URL("../../dist/browser/glass-sdk.browser.min.js", import.meta.url));

describe.skipIf(!existsSync(bundlePath))(
  "the browser bundle (dist/browser/glass-sdk.browser.min.js; run `npm run build` first)",
  () => {
    const text = existsSync(bundlePath) ? readFileSync(bundlePath, "utf8") : "";

    it("imports nothing from Node.js", () => {
      expect(text).not.toMatch(/["']node:/);
      expect(text).not.toMatch(/\brequire\(/);
      expect(text).not.toContain("child_process");
      // Module specifiers only: "path" is also a field name of the results the validators know.
      const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(specifiers).toContain("ws"); // the one (lazy) import, so the specifiers are found
      for (const builtin of ["fs", "net", "os", "path"]) expect(specifiers).not.toContain(builtin);
    });

    it("loads the ws package only lazily (for Node without a global WebSocket), never at import time", () => {
      const staticImports = [...text.matchAll(/(?:^|[;}\n])\s*import\s*[^("'`]*?from\s*["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(staticImports).toEqual([]);
    });

    it("is a minified ES module exporting the client", () => {
      expect(text.split("\n").length).toBeLessThan(10);
      expect(text).toMatch(/export\s*\{[^}]*\bGlass\b/);
    });
  },
);
