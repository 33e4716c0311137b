import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassRequest, type GlassResponse } from "../../src/index.js";
import { readGoldenFixture } from "../support/golden-fixture.js";
import { mockDaemonOnSocket, mockDaemonOverStdio, type SocketMock } from "../support/mock-daemon-transports.js";

const fixture = readGoldenFixture();
const requests = fixture.requests as unknown as GlassRequest[];
const recorded = new Map(fixture.responses.map((response) => [response.requestId as string, response as unknown as GlassResponse]));

/** Calls a fixture request through the typed namespace method of its operation. */
async function callTyped(glass: Glass, request: GlassRequest, validate: boolean): Promise<{ ok: true; result: unknown } | { ok: false; error: GlassError }> {
  const [namespace, method] = request.operation.split(".") as [string, string];
  const api = (glass as unknown as Record<string, Record<string, (payload: unknown, options: object) => Promise<unknown>>>)[namespace]!;
  try {
    return { ok: true, result: await api[method]!(request.payload, { validate, ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }) }) };
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    return { ok: false, error };
  }
}

/** The wire fields of a GlassError, to compare with the fixture's error object. */
function wireFields(error: GlassError, expected: Record<string, unknown>): Record<string, unknown> {
  const json = error.toJSON();
  return Object.fromEntries(Object.keys(expected).map((key) => [key, json[key]]));
}

function expectMatchesFixture(outcome: Awaited<ReturnType<typeof callTyped>>, request: GlassRequest): void {
  const response = recorded.get(request.requestId)!;
  if (response.ok) {
    expect(outcome).toEqual({ ok: true, result: response.result });
    return;
  }
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  expect(wireFields(outcome.error, response.error)).toEqual(response.error);
  expect(outcome.error.operation).toBe(request.operation);
}

describe("the whole golden fixture over stdio (mock daemon child process)", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(mockDaemonOverStdio());
  });
  afterAll(async () => {
    await glass.close();
  });

  it.each(requests.map((r) => [r.requestId, r] as const))("send(%s) returns exactly the recorded response envelope", async (_id, request) => {
    expect(await glass.send(request, { validate: false })).toEqual(recorded.get(request.requestId));
  });

  it.each(requests.map((r) => [r.requestId, r] as const))("typed call %s: result or GlassError equals the fixture (preflight on)", async (_id, request) => {
    expectMatchesFixture(await callTyped(glass, request, true), request);
  });

  it.each(requests.map((r) => [r.requestId, r] as const))("typed call %s: the daemon's own answer equals the fixture (preflight off)", async (_id, request) => {
    expectMatchesFixture(await callTyped(glass, request, false), request);
  });
});

describe("the whole golden fixture over the Unix socket (under a mutation lease)", () => {
  let mock: SocketMock;
  let glass: Glass;
  beforeAll(async () => {
    mock = await mockDaemonOnSocket();
    glass = await Glass.connect(mock.transport());
  });
  afterAll(async () => {
    await glass.close();
    await mock.stop();
  });

  it.each(requests.map((r) => [r.requestId, r] as const))("typed call %s equals the fixture", async (_id, request) => {
    const outcome = await glass.withLease(() => callTyped(glass, request, false), { ttlMs: 10_000 });
    expectMatchesFixture(outcome, request);
  });

  it("sent the lease token with the mutating calls only", () => {
    const withToken = mock.daemon.calls.filter((call) => "mutationLease" in call.arguments).map((call) => call.tool);
    expect(withToken.sort()).toEqual(["click", "workflow"]);
    expect(mock.daemon.activeLeases()).toEqual([]);
  });
});
