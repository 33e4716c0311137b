import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPackedPackage, newProject } from "../support/packed-package.js";

/**
 * The package's declarations in a user's TypeScript project that has no Node type declarations
 * (no `@types/node` in its program: `types: []`, as `tsc --init` writes it), every entry point
 * imported from the packed package installed there (dist/ must be built, as `npm test` does first),
 * ESM (.d.ts) and CJS (.d.cts) alike.
 *
 * The project's `lib` is ES2022 with the DOM: the public types use the web platform's globals
 * (`AbortSignal`, `URL`, `fetch`, and ky's `Request` and `Response`), which Node has too but which
 * TypeScript declares only in the DOM lib and in `@types/node` — a project with neither has none of
 * them to give the SDK either. Node's own modules (`node:stream`, `node:net`, `Buffer`, `NodeJS.*`)
 * are declared only in `@types/node`: no entry point's declarations may name them. `glass-sdk/node`,
 * whose surface is the Node transports, framing and bridge, needs neither: it compiles with ES2022
 * alone. (`glass-sdk/testing/node` takes the handlers of `glass-sdk/testing`, whose call context
 * carries the platform's `AbortSignal`, so it needs the DOM lib like that entry.)
 */

const ROOT = new URL("../..", import.meta.url);
const ENTRIES = [
  "glass-sdk",
  "glass-sdk/protocol",
  "glass-sdk/node",
  "glass-sdk/testing",
  "glass-sdk/testing/msw",
  "glass-sdk/testing/node",
];
/** The optional peer dependency `glass-sdk/testing/msw` imports, at the version the package is tested with. */
const MSW = `msw@${(JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { devDependencies: Record<string, string> }).devDependencies.msw}`;

/** The compiler options of the user's project, as its tsconfig.json says them. */
const USER_TSCONFIG = {
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  strict: true,
  noEmit: true,
  types: [] as string[],
  lib: ["es2022", "dom"],
  skipLibCheck: false,
};

/** Every entry point, imported as ESM (its .d.ts), and uses of the mock daemon's stdio options that must not compile. */
const ESM_CONSUMER = `${ENTRIES.map((entry, i) => `import * as entry${i} from "${entry}";`).join("\n")}
import type { MockDaemonOptions } from "glass-sdk/testing/node";

export const entries = [${ENTRIES.map((_, i) => `entry${i}`).join(", ")}];

// The stdio streams stay typed without Node's type declarations: not anything fits.
// @ts-expect-error — a number is not a stream to read requests from
export const notAnInput: MockDaemonOptions = { stdin: 42 };
// @ts-expect-error — a string is not a stream to write answers to
export const notAnOutput: MockDaemonOptions = { stdout: "answers" };
`;

/** Every entry point, required from CommonJS (its .d.cts). */
const CJS_CONSUMER = `${ENTRIES.map((entry, i) => `import entry${i} = require("${entry}");`).join("\n")}

export = [${ENTRIES.map((_, i) => `entry${i}`).join(", ")}];
`;

let project: string;

beforeAll(() => {
  project = newProject("glass-no-node-types-");
  installPackedPackage(project, [MSW]);
  writeFileSync(join(project, "consumer.ts"), ESM_CONSUMER);
  writeFileSync(join(project, "consumer.cts"), CJS_CONSUMER);
  writeFileSync(
    join(project, "node-entry.ts"),
    `import * as node from "glass-sdk/node";\n\nexport const entry = node;\n`,
  );
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** What the compiler says of `files` in the user's project with its tsconfig changed by `changes`, and which files of @types/node it read. */
function compile(
  files: readonly string[],
  changes: Partial<typeof USER_TSCONFIG>,
): { errors: string[]; nodeTypeFiles: string[] } {
  const converted = ts.convertCompilerOptionsFromJson({ ...USER_TSCONFIG, ...changes }, project);
  expect(converted.errors).toEqual([]);
  const program = ts.createProgram(
    files.map((file) => join(project, file)),
    converted.options,
  );
  const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${relative(project, diagnostic.file.fileName)}:${line + 1}: ${message}`;
  });
  const nodeTypeFiles = program
    .getSourceFiles()
    .map((file) => file.fileName)
    .filter((name) => name.includes("/node_modules/@types/node/"));
  return { errors, nodeTypeFiles };
}

describe("the package's declarations in a project without Node's type declarations (no @types/node)", () => {
  it("compile for every entry point, ESM and CJS, with skipLibCheck off: no Node type is named", () => {
    const { errors, nodeTypeFiles } = compile(["consumer.ts", "consumer.cts"], {});
    expect(nodeTypeFiles).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);

  it("keep the user's code typed with skipLibCheck on, where a declaration naming Node's types would silently turn into any", () => {
    const { errors, nodeTypeFiles } = compile(["consumer.ts", "consumer.cts"], { skipLibCheck: true });
    expect(nodeTypeFiles).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);

  it("compile for glass-sdk/node with the ES2022 lib alone: it needs neither Node's nor the DOM's types", () => {
    const { errors, nodeTypeFiles } = compile(["node-entry.ts"], { lib: ["es2022"] });
    expect(nodeTypeFiles).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);
});
