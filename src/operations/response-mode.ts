// The per-call options a few daemon tools take besides their payload (`responseMode`,
// `includeTrace`), and how the response mode shapes a result.

import { responseModeOperations, traceOperations } from "../../generated/operations.js";

/**
 * How much of a result the daemon answers with: `minimal` (the daemon's default) leaves out the
 * heavy members, `normal` only the full `details`, `diagnostic` nothing. The daemon keeps the whole
 * result either way and says where in `detailAvailability`.
 */
export type ResponseMode = "minimal" | "normal" | "diagnostic";

/** The per-call option of operations whose tool takes a response mode. */
export interface ResponseModeOption<Mode extends ResponseMode = ResponseMode> {
  /** How much of the result to answer with (default `minimal`, the daemon's). */
  readonly responseMode?: Mode;
}

/** The per-call option of operations whose tool can return a failure trace. */
export interface TraceOption {
  /**
   * Ask the daemon for the reason when the tool fails (default false): the failure's message then
   * gives it, and `details.trace` holds it, instead of the daemon's bare `browser tool failed`.
   */
  readonly includeTrace?: boolean;
}

/**
 * A result as the daemon answers it in `Mode`: the full result type in `diagnostic` mode, without
 * `details` in `normal` mode, and without `details`, `trace`, `diagnostics`, `screenshot`, `dom`
 * and `formValues` in `minimal` mode.
 */
export type ResultInMode<Result, Mode extends ResponseMode> = Mode extends "diagnostic"
  ? Result
  : Mode extends "normal"
    ? Result & { readonly details?: never }
    : Result & {
        readonly details?: never;
        readonly trace?: never;
        readonly diagnostics?: never;
        readonly screenshot?: never;
        readonly dom?: never;
        readonly formValues?: never;
      };

/** The response modes, for checking a value a caller gave. */
export const RESPONSE_MODES: readonly ResponseMode[] = ["minimal", "normal", "diagnostic"];

/**
 * The tool arguments that carry a call's `responseMode` and `includeTrace` options, or the reason
 * the operation cannot take them. A catalog operation takes each only where its tool does (the
 * daemon fails the others opaquely, or refuses the unknown argument); an operation outside the
 * catalog is sent what the caller asked for.
 */
export function callOptionArguments(
  operation: string,
  inCatalog: boolean,
  options: ResponseModeOption & TraceOption,
): { readonly arguments: { responseMode?: ResponseMode; includeTrace?: true } } | { readonly problem: string } {
  const { responseMode, includeTrace } = options;
  const args: { responseMode?: ResponseMode; includeTrace?: true } = {};
  if (responseMode !== undefined) {
    if (!RESPONSE_MODES.includes(responseMode)) {
      return {
        problem: `responseMode must be "minimal", "normal" or "diagnostic", not ${describeValue(responseMode)}`,
      };
    }
    if (inCatalog && !responseModeOperations.has(operation)) {
      return {
        problem: `${operation} does not take responseMode (the daemon's tool would fail); only ${[...responseModeOperations].join(", ")} do`,
      };
    }
    args.responseMode = responseMode;
  }
  if (includeTrace !== undefined) {
    if (typeof includeTrace !== "boolean")
      return { problem: `includeTrace must be true or false, not ${describeValue(includeTrace)}` };
    if (includeTrace && inCatalog && !traceOperations.has(operation)) {
      return {
        problem: `${operation} does not take includeTrace (the daemon's tool would fail or ignore it); only ${[...traceOperations].join(", ")} do`,
      };
    }
    if (includeTrace) args.includeTrace = true;
  }
  return { arguments: args };
}

/** A short description of a value a caller gave, for a message. */
function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.slice(0, 32)) : typeof value;
}
