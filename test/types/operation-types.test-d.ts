import { describe, expectTypeOf, it } from "vitest";
import type {
  BrowserClickPayload,
  BrowserClickResult,
  CallOptions,
  Glass,
  OperationMap,
  OperationName,
  PayloadOf,
  ResponseMode,
  ResultInMode,
  ResultOf,
  TaskCompileResult,
  TaskValidateResult,
  WebIrDiffPayload,
  WebIrDiffResult,
  WebIrDocument,
} from "glass-sdk";

/** True for `unknown` and `any`, the only types `unknown` is assignable to. */
type IsUntyped<T> = unknown extends T ? true : false;

/** Exact type equality (`any` equals only `any`). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The catalog operations whose result type is `unknown` or `any`: `never` when every result is typed. */
type UntypedResults = { [Op in OperationName]: IsUntyped<ResultOf<Op>> extends true ? Op : never }[OperationName];

/** The catalog operations whose payload type is `unknown` or `any`. */
type UntypedPayloads = { [Op in OperationName]: IsUntyped<PayloadOf<Op>> extends true ? Op : never }[OperationName];

/** The client method of an operation: `Glass["browser"]["click"]` for `browser.click`. */
type MethodOf<Op extends OperationName> = Op extends `${infer Ns extends keyof Glass}.${infer Method}`
  ? Method extends keyof Glass[Ns]
    ? Glass[Ns][Method]
    : never
  : never;

/**
 * The operations whose method's general signature (the last overload) does not take
 * `PayloadOf<Op>` and resolve to `ResultOf<Op>` — or, for a method whose result follows the
 * response mode, to `ResultOf<Op>` in some mode: `never` when every method is typed from the catalog.
 */
type MistypedMethods = {
  [Op in OperationName]: MethodOf<Op> extends (payload: infer Payload, options?: CallOptions) => Promise<infer Result>
    ? Same<NonNullable<Payload>, PayloadOf<Op>> extends true
      ? Same<Result, ResultOf<Op>> | Same<Result, ResultInMode<ResultOf<Op>, ResponseMode>> extends false
        ? Op
        : never
      : Op
    : Op;
}[OperationName];

/**
 * Compiles only when `Names` is `never`; otherwise tsc's error ("Type '…' does not satisfy the
 * constraint 'never'") lists the offending operation names. Pass `Alias & string`: the
 * intersection makes tsc print the union itself rather than the alias's name, and
 * `noErrorTruncation` (tsconfig.json) makes it print all of it.
 */
declare function expectNoOperations<Names extends never>(): void;

declare const glass: Glass;
declare const before: WebIrDocument;
declare const after: WebIrDocument;

describe("operation types", () => {
  it("types the result of every catalog operation (no result is unknown or any)", () => {
    expectNoOperations<UntypedResults & string>();
  });

  it("types the payload of every catalog operation (no payload is unknown or any)", () => {
    expectNoOperations<UntypedPayloads & string>();
  });

  it("gives every operation a method taking PayloadOf<Op> and resolving to ResultOf<Op>", () => {
    expectNoOperations<MistypedMethods & string>();
  });

  it("types methods with the named payload and result types of glass-sdk", () => {
    expectTypeOf(glass.webIr.diff).parameter(0).toEqualTypeOf<WebIrDiffPayload>();
    expectTypeOf(glass.webIr.diff({ before, after })).resolves.toEqualTypeOf<WebIrDiffResult>();
    expectTypeOf(glass.browser.click).parameter(0).toEqualTypeOf<BrowserClickPayload>();
    expectTypeOf(
      glass.browser.click({ target: "ref=r7:b42", expectedRevision: 7 }),
    ).resolves.toEqualTypeOf<BrowserClickResult>();
    expectTypeOf<ResultOf<"task.validate">>().toEqualTypeOf<TaskValidateResult>();
    expectTypeOf<ResultOf<"task.compile">>().toEqualTypeOf<TaskCompileResult>();
    expectTypeOf<OperationMap["webIr.diff"]>().toEqualTypeOf<{ payload: WebIrDiffPayload; result: WebIrDiffResult }>();
  });

  it("tells untyped results apart from typed ones (the checks above can fail)", () => {
    expectTypeOf<IsUntyped<unknown>>().toEqualTypeOf<true>();
    // the check must catch any
    expectTypeOf<IsUntyped<any>>().toEqualTypeOf<true>();
    expectTypeOf<IsUntyped<WebIrDiffResult>>().toEqualTypeOf<false>();
    expectTypeOf<IsUntyped<{ [key: string]: unknown }>>().toEqualTypeOf<false>();
    expectTypeOf<Same<WebIrDiffResult, unknown>>().toEqualTypeOf<false>();
  });
});
