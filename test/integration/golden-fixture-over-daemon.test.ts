import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "../../src/index.js";
import { callTyped, expectMatchesFixture, fixtureCases, recordedResponses } from "../support/fixture-outcomes.js";
import { mockDaemonOnSocket, mockDaemonOverStdio, type SocketMock } from "../support/mock-daemon-transports.js";

const cases = fixtureCases();
const recorded = recordedResponses();

describe("the whole golden fixture over stdio (mock daemon child process)", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(mockDaemonOverStdio());
  });
  afterAll(async () => {
    await glass.close();
  });

  it.each(cases)("send(%s) returns exactly the recorded response envelope", async (_id, request) => {
    expect(await glass.send(request, { validate: false })).toEqual(recorded.get(request.requestId));
  });

  it.each(cases)("typed call %s: result or GlassError equals the fixture (preflight on)", async (_id, request) => {
    expectMatchesFixture(await callTyped(glass, request, true), request);
  });

  it.each(cases)("typed call %s: the daemon's own answer equals the fixture (preflight off)", async (_id, request) => {
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

  it.each(cases)("typed call %s equals the fixture", async (_id, request) => {
    expectMatchesFixture(await glass.withLease(() => callTyped(glass, request, false), { ttlMs: 10_000 }), request);
  });

  it("sent the lease token with the mutating calls only", () => {
    const withToken = mock.daemon.calls.filter((call) => "mutationLease" in call.arguments).map((call) => call.tool);
    expect(withToken.sort()).toEqual(["click", "workflow"]);
    expect(mock.daemon.activeLeases()).toEqual([]);
  });
});
