import { availableParallelism } from "node:os";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CodeBlock, typeScriptExamples } from "../support/doc-examples.js";
import { PRELUDES } from "../support/doc-example-preludes.js";
import {
  createExampleProject,
  type ExampleProject,
  type ExampleRunResult,
  type ExampleRunUnit,
  runExamples,
} from "../support/doc-example-sandbox.js";

/**
 * Every example of the documentation runs, not only compiles (examples.test.ts compiles them): each
 * ```ts block of README.md and docs/ and each code block in the TSDoc of src/ runs as written, in a
 * process of its own, against a mock daemon of its own, with `glass-sdk*` imported from the built
 * dist/ as an installed package. It fails when it throws, its process exits non-zero, or it does not
 * end within RUN_TIMEOUT_MS.
 *
 * An example that connects to "a real daemon" runs unchanged (doc-example-sandbox.ts): `glass --mcp`
 * on PATH is the mock daemon over stdio; the daemon's default socket path (`socketTransport()`,
 * `defaultSocketPath()`) has the example's mock daemon listening; an example that names
 * http://127.0.0.1:8787/mcp gets the bridge there (`glass-sdk bridge`, its default port) with
 * GLASS_BRIDGE_TOKEN set; an example with MSW's WebSocket handlers gets Node 20's
 * `--experimental-websocket`, as docs/testing.md says to; a vitest test file runs with `vitest run`.
 *
 * The one thing added is a prelude: a name an example declares without a value (`declare const
 * glass: Glass; // connected as above`) is given one before it runs, as a global (PRELUDES in
 * doc-example-preludes.ts says what each is: `glass`, `before`, `after`, `task`, `token`, `line`,
 * `answer`, `json`, `chunks`, `handle`).
 *
 * An example that cannot run as it is says so where it is written: in README.md and docs/ with a
 * comment on the line before its fence, for TSDoc in TSDOC_MARKERS below (by file and a snippet):
 *
 * - `<!-- example: compile-only (why) -->`: compiled only; shown as a skipped test with its reason;
 * - `<!-- example: continues (why) -->`: runs after the example before it on the page (for TSDoc,
 *   the example of `after`), in the same process and directory — e.g. reading the file that one saved.
 */

interface TsdocMarker {
  file: string;
  /** Text of the example that picks it out among its file's examples. */
  snippet: string;
  marker: string;
  /** For `continues`: the file whose example runs first. */
  after?: string;
}

const TSDOC_MARKERS: readonly TsdocMarker[] = [
  {
    file: "src/testing/load-fixture.ts",
    snippet: 'loadFixture(new URL("./fixtures/checkout.json"',
    marker: "continues (it reads the fixture the example of saveFixture saved)",
    after: "src/testing/save-fixture.ts",
  },
];

/** How long one run may take. */
const RUN_TIMEOUT_MS = 30_000;
/** Runs at once; each is a Node process or two (npx, a stdio mock daemon), and waits on them a good part of its time. */
const CONCURRENCY = Math.min(4, availableParallelism() + 1);

const examples = typeScriptExamples();

/** The marker of an example: its comment in markdown, its TSDOC_MARKERS entry in src/. */
function markerOf(block: CodeBlock): { marker: string; after?: string } | undefined {
  if (block.marker !== undefined) return { marker: block.marker };
  return TSDOC_MARKERS.find((entry) => entry.file === block.file && block.code.includes(entry.snippet));
}

function parseMarker(marker: string): { kind: "compile-only" | "continues"; reason: string } {
  const match = /^(compile-only|continues) \((.+)\)$/.exec(marker);
  if (match === null)
    throw new Error(`unknown example marker "${marker}": write "compile-only (why)" or "continues (why)"`);
  return { kind: match[1] as "compile-only" | "continues", reason: match[2]! };
}

/** The examples a run of `block` runs: those it continues, then itself. */
function chainOf(block: CodeBlock): CodeBlock[] {
  const marked = markerOf(block);
  if (marked === undefined || parseMarker(marked.marker).kind !== "continues") return [block];
  const before =
    marked.after === undefined
      ? examples.filter((other) => other.file === block.file && other.firstLine < block.firstLine).at(-1)
      : examples.find((other) => other.file === marked.after);
  if (before === undefined) throw new Error(`${block.name} continues no example`);
  return [...chainOf(before), block];
}

/** The names an example declares without a value (`declare const glass: Glass;`, `declare function handle(…)`). */
function declaredNames(code: string): string[] {
  const source = ts.createSourceFile("example.ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (
      !ts.canHaveModifiers(statement) ||
      !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)
    )
      continue;
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) names.push(declaration.name.getText(source));
    else if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) names.push(statement.name.text);
  }
  return names;
}

/** How the harness runs an example, with the examples it continues. */
function runUnit(block: CodeBlock): ExampleRunUnit {
  const blocks = chainOf(block);
  const code = blocks.map((b) => b.code).join("\n");
  const names = [...new Set(blocks.flatMap((b) => declaredNames(b.code)))];
  const missing = names.filter((name) => PRELUDES[name] === undefined);
  if (missing.length > 0)
    throw new Error(
      `${block.name} declares ${missing.join(", ")} without a value and no prelude gives one: add a prelude, or mark it compile-only`,
    );
  // A vitest test file: it imports `it` or `test` from vitest.
  const vitest = /import\s*\{[^}]*\b(?:it|test)\b[^}]*\}\s*from\s*"vitest"/.test(code);
  if (vitest && (blocks.length > 1 || names.length > 0))
    throw new Error(`${block.name}: a vitest example runs alone, without preludes`);
  const leases = /\b(?:withLease|acquireLease)\(/.test(code);
  return {
    id: `r${examples.indexOf(block) + 1}`,
    blocks,
    preludes: names.map((name) => (name === "glass" && leases ? "glass:leases" : name)),
    bridge: code.includes("127.0.0.1:8787"),
    vitest,
    webSocketFlag: code.includes("createGlassWsHandlers"),
    timeoutMs: RUN_TIMEOUT_MS,
  };
}

/** Runs at most `limit` tasks at once. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/** The run's outcome as one comparable value, and everything it printed as the failure message. */
function outcomeOf(unit: ExampleRunUnit, result: ExampleRunResult): { outcome: string; message: string } {
  const outcome = result.timedOut
    ? `did not end within ${unit.timeoutMs} ms`
    : `exited with ${result.code ?? result.signal}`;
  const ran = unit.blocks.map((b) => b.name).join(" then ");
  return {
    outcome,
    message: `${ran} ${outcome}\n--- stdout ---\n${result.stdout.slice(-4000)}\n--- stderr ---\n${result.stderr.slice(-4000)}`,
  };
}

const compileOnly = examples.flatMap((block) => {
  const marked = markerOf(block);
  const parsed = marked === undefined ? undefined : parseMarker(marked.marker);
  return parsed?.kind === "compile-only" ? [{ block, reason: parsed.reason }] : [];
});
const runnable = examples.filter((block) => !compileOnly.some((entry) => entry.block === block));

/** A made-up example, for the tests of the harness itself. */
function madeUp(code: string): CodeBlock {
  return {
    name: "test/docs/examples-run.test.ts:0",
    file: "test/docs/examples-run.test.ts",
    language: "ts",
    firstLine: 1,
    code,
  };
}

describe("documentation examples run against the mock daemon", () => {
  let project: ExampleProject;
  const slot = limiter(CONCURRENCY);

  beforeAll(() => {
    project = createExampleProject();
  });
  afterAll(() => project?.close());

  it("finds every example, each marker a known one with a reason, each TSDoc marker naming one example", () => {
    expect(examples.length).toBeGreaterThanOrEqual(50);
    for (const block of examples) if (block.marker !== undefined) parseMarker(block.marker);
    for (const entry of TSDOC_MARKERS) {
      parseMarker(entry.marker);
      expect(examples.filter((block) => block.file === entry.file && block.code.includes(entry.snippet))).toHaveLength(
        1,
      );
      if (entry.after !== undefined) expect(examples.filter((block) => block.file === entry.after)).toHaveLength(1);
    }
  });

  it("fails an example that throws, and stops one that does not end in time", async () => {
    const base = { preludes: [], bridge: false, vitest: false, webSocketFlag: false };
    const thrown = await slot(() =>
      runExamples(project, {
        ...base,
        id: "t1",
        blocks: [madeUp('throw new Error("the example broke");')],
        timeoutMs: RUN_TIMEOUT_MS,
      }),
    );
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toContain("the example broke");
    const endless = await slot(() =>
      runExamples(project, {
        ...base,
        id: "t2",
        blocks: [madeUp("await new Promise((resolve) => setInterval(() => {}, 1_000));")],
        timeoutMs: 1_500,
      }),
    );
    expect(endless.timedOut).toBe(true);
  });

  // Shown, not run, each with the reason its marker gives.
  it.skip.each(compileOnly.map(({ block, reason }) => [block.name, reason]))("%s is compile-only: %s", () => {});

  it.concurrent.each(runnable.map((block) => [block.name, block] as const))(
    "%s runs against the mock daemon and exits 0",
    async (_name, block) => {
      const unit = runUnit(block);
      const { outcome, message } = outcomeOf(unit, await slot(() => runExamples(project, unit)));
      expect(outcome, message).toBe("exited with 0");
    },
    // Waiting for a slot counts too.
    180_000,
  );
});
