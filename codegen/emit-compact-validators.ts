import type { CompactNode, PackedNode } from "../src/validation/compact/index.js";
import type { Catalog } from "./catalog.js";
import { CompactProgramCompiler } from "./compact-program.js";
import { namedValidatorDoc, type NamedEntry } from "./emit-validators.js";
import { banner, sourceImport } from "./output.js";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rules } from "../src/validation/rules/index.js";
import type { SchemaRegistry } from "./schema-registry.js";

/** A value as a JavaScript literal: JSON, with plain keys unquoted and `undefined` array items as holes. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "" : literal(item))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}:${literal(item)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A node as written: properties with their nodes in one list (one string when the names have no spaces), an enum of plain words as one string (compact() unpacks them). */
function packed(node: CompactNode): PackedNode {
  const { p, s, e, ...rest } = node;
  return {
    ...rest,
    ...(p === undefined
      ? {}
      : {
          p: p.some((name) => /\s/.test(name) || name === "")
            ? p.flatMap((name, i) => [name, s![i]!])
            : p.map((name, i) => `${name} ${s![i]!}`).join(" "),
        }),
    ...(e === undefined
      ? {}
      : { e: e.length > 0 && e.every((value) => typeof value === "string" && !value.includes(" ")) ? e.join(" ") : e }),
  };
}

/** The rules of src/validation/rules/index.ts, in its order (nodes name a rule by its place). */
const RULE_NAMES = Object.keys(rules);

/**
 * The module of src/validation/rules/ that defines each rule. A program imports its rules from
 * their own modules, not through the index, so that a bundle splitting the programs apart splits
 * the rules too.
 */
const RULES_DIR = fileURLToPath(new URL("../src/validation/rules/", import.meta.url));
const RULE_MODULES = new Map<string, string>();
for (const file of readdirSync(RULES_DIR)) {
  if (file === "index.ts" || !file.endsWith(".ts")) continue;
  const text = readFileSync(`${RULES_DIR}${file}`, "utf8");
  for (const [, name] of text.matchAll(/^export function (\w+)/gm))
    RULE_MODULES.set(name!, `src/validation/rules/${file.replace(/\.ts$/, "")}`);
}
for (const name of Object.keys(rules))
  if (!RULE_MODULES.has(name)) throw new Error(`codegen: no module of src/validation/rules/ exports the rule ${name}`);

/**
 * The start of a module holding one compact program: its imports (the interpreter, and the rules
 * its nodes name, passed at their places) and `const validator = compact([...])`, one node a line.
 */
export function programLines(module: string, nodes: CompactNode[], what: string): string[] {
  const used = new Set(nodes.flatMap((node) => node.w ?? []));
  const ruleList = RULE_NAMES.map((name, i) => (used.has(i) ? name : "")).join(",");
  return [
    `import type { GeneratedValidator } from "${sourceImport(module, "src/validation/generated-support")}";`,
    `import { compact } from "${sourceImport(module, "src/validation/compact/index")}";`,
    ...[...new Set(RULE_NAMES.filter((_, i) => used.has(i)).map((name) => RULE_MODULES.get(name)!))].map(
      (from) =>
        `import { ${RULE_NAMES.filter((name, i) => used.has(i) && RULE_MODULES.get(name) === from).join(", ")} } from "${sourceImport(module, from)}";`,
    ),
    "",
    `/** ${what}, as a program for src/validation/compact/ (one node a line, numbered from 1). */`,
    "const validator = /* @__PURE__ */ compact(",
    "  [",
    "    ,",
    ...nodes.slice(1).map((node, i) => `    /* ${i + 1} */ ${literal(packed(node))},`),
    "  ],",
    ...(used.size > 0 ? [`  [${ruleList.replace(/,+$/, "")}],`] : []),
    ");",
    "",
  ];
}

/**
 * Emits `generated/validators-compact/index.ts`: the same exports as `generated/validators/index.ts`
 * (every named validator, `payloadValidators`, `resultValidators`), backed by one compact program run
 * by src/validation/compact/ instead of compiled code. The browser builds use it (tsup.config.ts).
 */
export function emitCompactValidators(
  registry: SchemaRegistry,
  catalog: Catalog,
  entries: NamedEntry[],
): Map<string, string> {
  const compiler = new CompactProgramCompiler(registry);
  const named = entries.map((entry) => ({ ...entry, node: compiler.entry(entry.location) }));
  const payloads = catalog.operations.map((op) => compiler.entry(op.payload));
  const results = catalog.operations.map((op) => (op.result === undefined ? undefined : compiler.entry(op.result)));
  const { nodes, map } = compiler.program();

  const index = "validators-compact/index";
  const lines = programLines(index, nodes, "Every schema the validators below check");
  lines.splice(
    1,
    1,
    `import { compact, validatorTable } from "${sourceImport(index, "src/validation/compact/index")}";`,
    ...(catalog.operations.length > 0
      ? [`import { operations } from "${sourceImport(index, "src/operations/catalog")}";`]
      : []),
  );
  for (const entry of named) {
    lines.push(namedValidatorDoc(entry));
    lines.push(
      `export const ${entry.name}: GeneratedValidator = /* @__PURE__ */ validator(${map(entry.node)}${entry.mode === "strict" ? ", true" : ""});`,
    );
  }
  // The operation names, in catalog order: the keys of the catalog's table (already in
  // the bundle), so they are not written twice.
  const names = catalog.operations.length > 0 ? "operations" : "{}";
  lines.push("", "/** The payload validator of every catalog operation, by operation name. */");
  lines.push(
    `export const payloadValidators: Readonly<Record<string, GeneratedValidator>> = /* @__PURE__ */ validatorTable(validator, ${names}, ${literal(payloads.map(map))});`,
  );
  lines.push(
    "",
    "/** The result validator of every catalog operation whose result the protocol describes (0: none). */",
  );
  lines.push(
    `export const resultValidators: Readonly<Record<string, GeneratedValidator>> = /* @__PURE__ */ validatorTable(validator, ${names}, ${literal(results.map((node) => (node === undefined ? 0 : map(node))))});`,
  );
  return new Map([[`${index}.ts`, `${banner("schema/")}${lines.join("\n")}\n`]]);
}
