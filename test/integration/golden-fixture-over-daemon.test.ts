import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import {
  callTyped,
  expectMatchesFixture,
  fixtureCases,
  itMatchesTheWholeFixture,
} from "../support/fixture-outcomes.js";
import { GOLDEN_CLI_ARGS } from "../support/golden-fixture.js";
import { mockDaemonOnSocket, mockDaemonOverStdio, type SocketMock } from "../support/mock-daemon-transports.js";

const cases = fixtureCases();

describe("the whole golden fixture over stdio (mock daemon child process)", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(mockDaemonOverStdio([...GOLDEN_CLI_ARGS]));
  });
  afterAll(async () => {
    await glass.close();
  });

  itMatchesTheWholeFixture(() => glass);
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
    const withToken = mock.daemon.calls.filter((call) => "leaseToken" in call.arguments).map((call) => call.tool);
    expect(
      mock.daemon.calls.filter((call) => "mutationLease" in call.arguments || "sessionId" in call.arguments),
    ).toEqual([]);
    expect(withToken.sort()).toEqual(["click", "workflow"]);
    expect(mock.daemon.activeLeases()).toEqual([]);
  });
});
