import { expect } from "vitest";
import { validateResponse, type GlassRequest, type GlassResponse } from "glass-sdk";
import { createReplayEngine, parseFixture, type GoldenFixture, type ReplayEngineOptions } from "glass-sdk/testing";
import { readGoldenFixture } from "../../support/golden-fixture.js";

export const golden = parseFixture(readGoldenFixture());

/** A fixture of recordings of one operation, each answered with `{ ok: true, result: { id } }`. */
export function fixtureOf(operation: string, payloads: Record<string, unknown>): GoldenFixture {
  const fixture: GoldenFixture = { schemaVersion: 1, requests: [], responses: [] };
  for (const [requestId, payload] of Object.entries(payloads)) {
    fixture.requests.push({ protocolVersion: 1, requestId, operation, payload } as GlassRequest);
    fixture.responses.push({ protocolVersion: 1, requestId, ok: true, result: { id: requestId } } as GlassResponse);
  }
  return parseFixture(fixture);
}

export function send(
  fixture: GoldenFixture,
  operation: string,
  payload: unknown,
  options?: ReplayEngineOptions,
): GlassResponse {
  return createReplayEngine(fixture, options).answer({
    protocolVersion: 1,
    requestId: "live",
    operation,
    payload,
  } as GlassRequest);
}

export function missOf(response: GlassResponse): { message: string; details: Record<string, unknown> } {
  expect(response.ok).toBe(false);
  if (response.ok) throw new Error("expected a miss");
  expect(response.error.code).toBe("mock.unmatched");
  expect(validateResponse(response, { strict: true }).ok).toBe(true);
  return { message: response.error.message, details: response.error.details as Record<string, unknown> };
}
