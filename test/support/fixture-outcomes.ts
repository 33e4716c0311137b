import { expect, it } from "vitest";
import { type Glass, GlassError, type GlassRequest, type GlassResponse } from "glass-sdk";
import { parseFixture, type GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { readGoldenFixture } from "./golden-fixture.js";

/** Our golden fixture, checked. */
export const goldenFixture: GoldenFixture = parseFixture(readGoldenFixture());

/** What a typed call gave: its result, or the GlassError it threw. */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: GlassError };

/** `[requestId, request]` for each fixture request, for `it.each`. */
export function fixtureCases(fixture: GoldenFixture = goldenFixture): (readonly [string, GlassRequest])[] {
  return fixture.requests.map((request) => [request.requestId, request] as const);
}

/** The recorded response of each request, by request id. */
export function recordedResponses(fixture: GoldenFixture = goldenFixture): Map<string, GlassResponse> {
  return new Map(fixture.responses.map((response) => [response.requestId, response]));
}

/** Calls a fixture request through the typed namespace method of its operation (`glass.browser.click(...)`). */
export async function callTyped(glass: Glass, request: GlassRequest, validate: boolean): Promise<CallOutcome> {
  const [namespace, method] = request.operation.split(".") as [string, string];
  const api = (
    glass as unknown as Record<string, Record<string, (payload: unknown, options: object) => Promise<unknown>>>
  )[namespace]!;
  try {
    return {
      ok: true,
      result: await api[method]!(request.payload, {
        validate,
        ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }),
      }),
    };
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    return { ok: false, error };
  }
}

/**
 * Checks a typed call's outcome against the recorded response (as the integration tests do): the
 * same result, or a GlassError whose wire fields equal the recorded error object and that names
 * the operation.
 */
export function expectMatchesFixture(
  outcome: CallOutcome,
  request: GlassRequest,
  responses: Map<string, GlassResponse> = recordedResponses(),
): void {
  const response = responses.get(request.requestId);
  expect(response, `the fixture has an answer for ${request.requestId}`).toBeDefined();
  if (response === undefined) return;
  if (response.ok) {
    expect(outcome).toEqual({ ok: true, result: response.result });
    return;
  }
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  const json = outcome.error.toJSON();
  expect(Object.fromEntries(Object.keys(response.error).map((key) => [key, json[key]]))).toEqual(response.error);
  expect(outcome.error.operation).toBe(request.operation);
}

/**
 * Registers, where it is called (inside the describe that connects the client), the three checks of
 * the whole golden fixture against a client: for each request, `send()` returns exactly the recorded
 * response envelope, and the typed call's result or GlassError equals the fixture with preflight on
 * and with it off (the daemon's own answer). `glass` is called when the tests run, so it can return
 * the client the describe's beforeAll connected.
 */
export function itMatchesTheWholeFixture(glass: () => Glass): void {
  const recorded = recordedResponses();

  it.each(fixtureCases())("send(%s) returns exactly the recorded response envelope", async (_id, request) => {
    expect(await glass().send(request, { validate: false })).toEqual(recorded.get(request.requestId));
  });

  it.each(fixtureCases())(
    "typed call %s: result or GlassError equals the fixture (preflight on)",
    async (_id, request) => {
      expectMatchesFixture(await callTyped(glass(), request, true), request);
    },
  );

  it.each(fixtureCases())(
    "typed call %s: the daemon's own answer equals the fixture (preflight off)",
    async (_id, request) => {
      expectMatchesFixture(await callTyped(glass(), request, false), request);
    },
  );
}
