import { banner, relativeImport } from "./output.js";

/** The module of the flat index of named types, `generated/types/index.ts`. */
const INDEX_MODULE = "types/index";

/** The named types one generated type module declares, by module (`types/operations/web-ir`). */
export type DeclaredTypes = ReadonlyMap<string, readonly string[]>;

/** The names of the types a generated module declares (`export interface X`, `export type X = …`). */
export function declaredTypeNames(text: string): string[] {
  return [...text.matchAll(/^export (?:interface|type|enum|const enum) ([A-Za-z_$][\w$]*)/gm)].map(
    (match) => match[1]!,
  );
}

/**
 * Reads the declared names of the generated type modules (`types/….ts` → text) and checks that the
 * flat scheme holds: no name is declared by two modules, and json-schema-to-typescript renamed no
 * type for a clash inside one module (a second `Foo` becomes `Foo1`). Fails loudly naming both.
 */
export function collectDeclaredTypes(typeModules: ReadonlyMap<string, string>): DeclaredTypes {
  const declared = new Map<string, string[]>();
  const owner = new Map<string, string>();
  for (const [path, text] of typeModules) {
    const module = path.replace(/\.ts$/, "");
    const names = declaredTypeNames(text);
    for (const name of names) {
      const first = owner.get(name);
      if (first !== undefined) {
        throw new Error(
          `type name collision: ${name} is declared by both generated/${first}.ts and generated/${module}.ts; give one of the schemas another title`,
        );
      }
      owner.set(name, module);
      const base = /^(.*\D)\d+$/.exec(name)?.[1];
      if (base !== undefined && names.includes(base)) {
        throw new Error(
          `type name collision in generated/${module}.ts: two schemas are titled (or named) ${base}, so one became ${name}; give one of them another title`,
        );
      }
    }
    declared.set(module, names);
  }
  return declared;
}

/** The module that declares a type, or undefined. */
export function moduleDeclaring(declared: DeclaredTypes, name: string): string | undefined {
  for (const [module, names] of declared) if (names.includes(name)) return module;
  return undefined;
}

/**
 * `generated/types/index.ts`: every named type of the schemas, re-exported under its own name, so
 * the root entry point exports them flat (`BrowserObservePayload`, `WebIrDiffResult`, …). Names in
 * `internal` (the per-group operation maps behind `OperationMap`) are left out.
 */
export function emitTypeIndex(declared: DeclaredTypes, internal: ReadonlySet<string>): [string, string] {
  const blocks = [...declared]
    .map(([module, names]) => [module, names.filter((name) => !internal.has(name)).sort()] as const)
    .filter(([, names]) => names.length > 0)
    .map(
      ([module, names]) =>
        `export type {\n${names.map((name) => `  ${name},`).join("\n")}\n} from "${relativeImport(INDEX_MODULE, module)}";`,
    );
  return [
    `${INDEX_MODULE}.ts`,
    `${banner("schema/")}// Every named type of the schemas, flat: the generator checks that no two share a name.\n\n${blocks.join("\n\n")}\n`,
  ];
}
