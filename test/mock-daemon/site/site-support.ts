import { expect } from "vitest";
import { validateResult } from "glass-sdk";
import type { OperationName, PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { MockCallContext, MockHandler } from "../../../src/mock-daemon/handlers.js";
import { MockError } from "../../../src/mock-daemon/handlers.js";
import type { SimulatedSite } from "../../../src/mock-daemon/site/index.js";

let calls = 0;

/** A call context as the mock daemon would build it: a fresh request id, leased, never aborted. */
export function context(operation: OperationName): MockCallContext {
  calls += 1;
  return { operation, requestId: `req-${calls}`, leased: true, signal: new AbortController().signal };
}

/** Calls the site's handler for `operation` directly, and checks that its result is plain JSON that passes the result schema. */
export async function call<Op extends OperationName>(
  site: SimulatedSite,
  operation: Op,
  payload: PayloadOf<Op>,
): Promise<ResultOf<Op>> {
  const handler = site.handlers[operation] as MockHandler<Op> | undefined;
  if (handler === undefined) throw new Error(`the site has no handler for ${operation}`);
  const result = await handler(payload, context(operation));
  const checked = validateResult(operation, result);
  expect(checked.ok ? [] : checked.issues, `${operation} result`).toEqual([]);
  expect(JSON.parse(JSON.stringify(result)), `${operation} result is plain JSON`).toStrictEqual(result);
  return result;
}

/** The MockError a handler call throws (fails the test when it does not throw one). */
export async function failure<Op extends OperationName>(
  site: SimulatedSite,
  operation: Op,
  payload: PayloadOf<Op>,
): Promise<MockError> {
  try {
    await call(site, operation, payload);
  } catch (error) {
    expect(error).toBeInstanceOf(MockError);
    return error as MockError;
  }
  throw new Error(`${operation} did not fail`);
}

/** The findTarget request for an intent and action. */
export function intent(text: string, action: string, expectedRevision?: number): PayloadOf<"browser.findTarget"> {
  // An action the daemon does not know (`teleport`) is sent as it is: the handler is called directly.
  return {
    schemaVersion: 1,
    intent: text,
    action: action as PayloadOf<"browser.findTarget">["action"],
    resolutionPolicy: "reportOnly",
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
  };
}
