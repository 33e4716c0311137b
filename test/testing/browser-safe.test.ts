import { build, type Metafile } from "esbuild";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The only modules of the kit that may load `node:` modules, and only through `import()`. */
const NODE_ONLY = new Set([
  "src/testing/load-fixture.ts",
  "src/testing/golden-fixture-file.ts",
  "src/testing/save-fixture.ts",
]);

describe("glass-sdk/testing is browser-safe (bundled from src/testing/index.ts for the browser)", () => {
  let metafile: Metafile;
  beforeAll(async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ["src/testing/index.ts"],
      bundle: true,
      write: false,
      metafile: true,
      platform: "browser",
      format: "esm",
      external: ["node:*"],
      logLevel: "silent",
    });
    metafile = result.metafile;
  });

  it("no module of the kit imports a node: module statically", () => {
    const offenders = Object.entries(metafile.inputs).flatMap(([file, input]) =>
      input.imports
        .filter((entry) => entry.path.startsWith("node:") && entry.kind !== "dynamic-import")
        .map((entry) => `${file} → ${entry.path}`),
    );
    expect(offenders).toEqual([]);
  });

  it("only loadFixture, goldenFixture and saveFixture load node: modules, dynamically", () => {
    const loaders = Object.entries(metafile.inputs)
      .filter(([, input]) => input.imports.some((entry) => entry.path.startsWith("node:")))
      .map(([file]) => file);
    expect(new Set(loaders)).toEqual(NODE_ONLY);
  });

  it("imports nothing of msw (the MSW handlers are glass-sdk/testing/msw)", () => {
    const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((entry) => entry.path));
    expect(imports.filter((path) => path === "msw" || path.startsWith("msw/"))).toEqual([]);
  });

  it("nothing under src/node/ is bundled", () => {
    expect(Object.keys(metafile.inputs).filter((file) => file.startsWith("src/node/"))).toEqual([]);
  });
});
