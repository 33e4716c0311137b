/**
 * The API report of each entry point: api/<entry>.api.md, the public surface (every exported name
 * and its signature) as API Extractor reads it from the built .d.ts of the entry in dist/.
 *
 *   npm run api:check   fails, naming the entry points, when a surface differs from its report
 *   npm run api:update  writes the reports anew (review and commit the change)
 *
 * Both build first (`npm run build`), since the reports are made from what the package ships.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from "@microsoft/api-extractor";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Each entry point of package.json `exports`: its built declarations and its report. */
const ENTRIES = [
  { name: "glass-sdk", types: "dist/index.d.ts", report: "glass-sdk.api.md" },
  { name: "glass-sdk/protocol", types: "dist/protocol.d.ts", report: "glass-sdk-protocol.api.md" },
  { name: "glass-sdk/node", types: "dist/node.d.ts", report: "glass-sdk-node.api.md" },
  { name: "glass-sdk/testing", types: "dist/testing.d.ts", report: "glass-sdk-testing.api.md" },
  { name: "glass-sdk/testing/msw", types: "dist/testing/msw.d.ts", report: "glass-sdk-testing-msw.api.md" },
  { name: "glass-sdk/testing/node", types: "dist/testing/node.d.ts", report: "glass-sdk-testing-node.api.md" },
] as const;

/** Only the surface is checked: documentation and release tags are not API Extractor's job here. */
const QUIET = { logLevel: ExtractorLogLevel.None } as const;

function configFor(entry: (typeof ENTRIES)[number], tempFolder: string): IConfigFile {
  return {
    projectFolder: ROOT,
    mainEntryPointFilePath: join(ROOT, entry.types),
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          skipLibCheck: true,
          types: ["node"],
          lib: ["ES2022", "DOM"],
        },
        files: [join(ROOT, entry.types)],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: join(ROOT, "api"),
      reportTempFolder: tempFolder,
      includeForgottenExports: false,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning },
        // A type the entry uses without exporting it (a JSON-RPC type of glass-sdk/protocol in a
        // transport's signature) is noted in the report, not an error.
        "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
        "ae-missing-release-tag": QUIET,
        "ae-unresolved-link": QUIET,
        "ae-internal-missing-underscore": QUIET,
        "ae-undocumented": QUIET,
      },
      tsdocMessageReporting: { default: QUIET },
    },
  };
}

/** The lines the new report adds (+) and drops (-), in the order they appear. */
function printChange(report: string, newReport: string): void {
  const read = (path: string): string[] => {
    try {
      return readFileSync(path, "utf8").split("\n");
    } catch {
      return [];
    }
  };
  const before = read(join(ROOT, "api", report));
  const after = read(newReport);
  const [old, now] = [new Set(before), new Set(after)];
  console.error(`api/${report}:`);
  for (const line of before) if (!now.has(line)) console.error(`- ${line}`);
  for (const line of after) if (!old.has(line)) console.error(`+ ${line}`);
}

const update = process.argv.includes("--update");
const tempFolder = mkdtempSync(join(tmpdir(), "glass-sdk-api-"));
const changed: string[] = [];
let failed = false;
try {
  for (const entry of ENTRIES) {
    const config = ExtractorConfig.prepare({
      configObject: configFor(entry, tempFolder),
      configObjectFullPath: join(ROOT, "api", "api-extractor.json"),
      packageJsonFullPath: join(ROOT, "package.json"),
    });
    const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
    if (result.apiReportChanged) {
      changed.push(entry.name);
      if (!update) printChange(entry.report, join(tempFolder, entry.report));
    }
    if (result.errorCount > 0 || result.warningCount > 0) failed = true;
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}
if (update) {
  console.log(
    changed.length === 0 ? "api/: every report is up to date" : `api/: updated the report of ${changed.join(", ")}`,
  );
} else if (changed.length > 0) {
  console.error(
    `the public API of ${changed.join(", ")} differs from its report in api/: if the change is meant, run \`npm run api:update\` and commit the report`,
  );
  failed = true;
} else {
  console.log(`api/: the reports match the public API of ${ENTRIES.length} entry points`);
}
if (failed) process.exitCode = 1;
