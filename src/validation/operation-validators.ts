import type { GeneratedValidator } from "./generated-support.js";
import { ownProperty } from "./json-value.js";

/**
 * The validators of one catalog operation: its payload, its result (absent where the protocol gives
 * no shape), and the documents its payload carries whole, by payload field (`task.compile`'s `task`
 * and `ir`), for the preflight to say which document a failure is in.
 */
export interface OperationValidators {
  readonly payload: GeneratedValidator;
  readonly result: GeneratedValidator | undefined;
  readonly documents?: Readonly<Record<string, GeneratedValidator>>;
}

/**
 * Where the client finds an operation's validators: at once (the compiled validators, the prebuilt
 * browser file), or, in the browser build bundlers take, from the operation's own chunk, loaded on
 * its first call (`undefined`: not a catalog operation).
 */
export type OperationValidatorsLookup = (
  operation: string,
) => OperationValidators | Promise<OperationValidators> | undefined;

/** The validators of every catalog operation at once, from the tables of a validator back end. */
export function operationValidatorTable(
  payloads: Readonly<Record<string, GeneratedValidator>>,
  results: Readonly<Record<string, GeneratedValidator>>,
  documents: Readonly<Record<string, Readonly<Record<string, GeneratedValidator>>>>,
): (operation: string) => OperationValidators | undefined {
  const table = new Map<string, OperationValidators>();
  for (const operation of Object.keys(payloads)) {
    const parts = ownProperty(documents, operation);
    table.set(operation, {
      payload: payloads[operation]!,
      result: ownProperty(results, operation),
      ...(parts === undefined ? {} : { documents: parts }),
    });
  }
  return (operation) => table.get(operation);
}

/**
 * The validators of each catalog operation loaded on its first use, once: `loaders[i]` imports the
 * module of the catalog's `i`-th operation (a chunk of its own in a bundle). A load that fails is
 * not remembered, so the next call tries again.
 */
export function lazyOperationValidators(
  catalog: Readonly<Record<string, unknown>>,
  loaders: readonly (() => Promise<OperationValidators>)[],
): OperationValidatorsLookup {
  const loaderOf = new Map(Object.keys(catalog).map((operation, i) => [operation, loaders[i]!]));
  const loaded = new Map<string, OperationValidators>();
  return (operation) => {
    const known = loaded.get(operation);
    if (known !== undefined) return known;
    return loaderOf
      .get(operation)?.()
      .then((validators) => {
        loaded.set(operation, validators);
        return validators;
      });
  };
}
