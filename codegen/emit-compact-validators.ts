import type { CompactNode, PackedNode } from "../src/validation/compact/index.js";
import type { Catalog } from "./catalog.js";
import { CompactProgramCompiler } from "./compact-program.js";
import { namedValidatorDoc, type NamedEntry } from "./emit-validators.js";
import { banner, sourceImport } from "./output.js";
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

/**
 * Emits `generated/validators-compact/index.ts`: the same exports as `generated/validators/index.ts`
 * (every named validator, `payloadValidators`, `resultValidators`), backed by one compact program run
 * by src/validation/compact/ instead of compiled code. The browser bundle uses it (tsup.config.ts).
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
  const lines = [
    `import type { GeneratedValidator } from "${sourceImport(index, "src/validation/generated-support")}";`,
    `import { compact, validatorTable } from "${sourceImport(index, "src/validation/compact/index")}";`,
    ...(catalog.operations.length > 0
      ? [`import { operations } from "${sourceImport(index, "src/operations/catalog")}";`]
      : []),
    "",
    "/** Every schema the validators below check, as a program for src/validation/compact/ (one node a line, numbered from 1). */",
    "const validator = compact([",
    "  ,",
    ...nodes.slice(1).map((node, i) => `  /* ${i + 1} */ ${literal(packed(node))},`),
    "]);",
    "",
  ];
  for (const entry of named) {
    lines.push(namedValidatorDoc(entry));
    lines.push(
      `export const ${entry.name}: GeneratedValidator = validator(${map(entry.node)}${entry.mode === "strict" ? ", true" : ""});`,
    );
  }
  // The operation names, in catalog order: the keys of the catalog's table (already in
  // the bundle), so they are not written twice.
  const names = catalog.operations.length > 0 ? "Object.keys(operations)" : "[]";
  lines.push("", "/** The payload validator of every catalog operation, by operation name. */");
  lines.push(
    `export const payloadValidators: Readonly<Record<string, GeneratedValidator>> = validatorTable(validator, ${names}, ${literal(payloads.map(map))});`,
  );
  lines.push(
    "",
    "/** The result validator of every catalog operation whose result the protocol describes (0: none). */",
  );
  lines.push(
    `export const resultValidators: Readonly<Record<string, GeneratedValidator>> = validatorTable(validator, ${names}, ${literal(results.map((node) => (node === undefined ? 0 : map(node))))});`,
  );
  return new Map([[`${index}.ts`, `${banner("schema/")}${lines.join("\n")}\n`]]);
}
