import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LeaseManager } from "../../../src/mock-daemon/leases.js";
import { parseFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { GOLDEN_FIXTURE_PATH, readGoldenFixture } from "../../support/golden-fixture.js";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { toolCall, type RawPeer } from "../../support/raw-mcp-peer.js";

const fixture = parseFixture(readGoldenFixture());
const click = fixture.requests.find((r) => r.requestId === "click-renew")!;
const clickAnswer = fixture.responses.find((r) => r.requestId === "click-renew")!;

interface Lease {
  sessionId: string;
  ownerId: string;
  token: string;
  expiresAtMs: number;
}

let harness: SocketHarness;
let shortLeases: SocketHarness;

beforeAll(async () => {
  harness = await startSocketHarness();
  shortLeases = await startSocketHarness({ faults: { leaseExpiresAfterMs: 60 } });
});
afterEach(async () => {
  await Promise.all([harness.disconnectAll(), shortLeases.disconnectAll()]);
});
afterAll(async () => {
  await Promise.all([harness.stop(), shortLeases.stop()]);
});

/** The `error.data` of a -32003 lease error carrying this lease code. */
function leaseData(code: string, retryable: boolean): Record<string, unknown> {
  return { code: "policy.mutationLease", phase: "preflight", mutationPossible: false, details: { code, retryable } };
}

async function acquire(peer: RawPeer, ttlMs = 30_000): Promise<Lease> {
  const response = await peer.request(`acquire-${Math.random()}`, "glass/lease/acquire", { ttlMs });
  if (response.result === undefined) throw new Error(JSON.stringify(response.error));
  return response.result as unknown as Lease;
}

describe("mock daemon mutation leases (socket)", () => {
  it("acquires, renews and releases a lease", async () => {
    const peer = await harness.connectReady();
    const before = Date.now();
    const lease = await acquire(peer, 5000);
    expect(lease).toEqual({
      sessionId: expect.any(String),
      ownerId: expect.any(String),
      token: expect.any(String),
      expiresAtMs: expect.any(Number),
    });
    expect(lease.expiresAtMs).toBeGreaterThanOrEqual(before + 5000);
    expect(harness.daemon.activeLeases()).toEqual([lease]);

    const renewed = (await peer.request(2, "glass/lease/renew", { token: lease.token, ttlMs: 60_000 }))
      .result as unknown as Lease;
    expect(renewed).toMatchObject({ sessionId: lease.sessionId, ownerId: lease.ownerId, token: lease.token });
    expect(renewed.expiresAtMs).toBeGreaterThan(lease.expiresAtMs);

    expect((await peer.request(3, "glass/lease/release", { token: lease.token })).result).toEqual({
      sessionId: lease.sessionId,
      released: true,
    });
    expect(harness.daemon.activeLeases()).toEqual([]);
    const again = await peer.request(4, "glass/lease/renew", { token: lease.token, ttlMs: 5000 });
    expect(again.error).toMatchObject({ code: -32003, data: leaseData("leaseNotFound", true) });
  });

  it.each([[1.5], ["60000"], [undefined], [-5], [null]])(
    "rejects ttlMs %s (not a non-negative integer) with -32602",
    async (ttlMs) => {
      const peer = await harness.connectReady();
      expect((await peer.request(1, "glass/lease/acquire", ttlMs === undefined ? {} : { ttlMs })).error?.code).toBe(
        -32602,
      );
    },
  );

  it.each([[0], [99], [900_001]])("refuses ttlMs %s (outside 100..900000) with -32003 invalidLease", async (ttlMs) => {
    const peer = await harness.connectReady();
    expect((await peer.request(1, "glass/lease/acquire", { ttlMs })).error).toMatchObject({
      code: -32003,
      data: leaseData("invalidLease", false),
    });
  });

  it("grants the shortest and the longest lease (100 and 900000 ms)", async () => {
    const peer = await harness.connectReady();
    const short = await acquire(peer, 100);
    expect((await peer.request(2, "glass/lease/renew", { token: short.token, ttlMs: 900_000 })).result).toMatchObject({
      token: short.token,
    });
  });

  it("refuses a second client's acquire with leaseHeld (retryable) while the lease is held", async () => {
    const owner = await harness.connectReady();
    await acquire(owner);
    const other = await harness.connectReady();
    const refused = await other.request(1, "glass/lease/acquire", { ttlMs: 5000 });
    expect(refused.error).toMatchObject({ code: -32003, data: leaseData("leaseHeld", true) });
  });

  it("releases the lease when its owner disconnects", async () => {
    const owner = await harness.connectReady();
    await acquire(owner);
    owner.close();
    await owner.closed;
    await harness.daemon.waitFor((d) => d.clientCount() === 0);
    const next = await harness.connectReady();
    await expect(acquire(next)).resolves.toMatchObject({ token: expect.any(String) });
  });

  it("refuses a mutating call without a lease: -32003 'mutation lease required', details null", async () => {
    const peer = await harness.connectReady();
    const { name, arguments: args } = fixtureToolCall(click);
    const { mutationLease: _m, sessionId: _s, ...bare } = args;
    const answer = await peer.request(1, "tools/call", { name, arguments: bare });
    expect(answer.error).toEqual({
      code: -32003,
      message: "mutation lease required; call glass/lease/acquire first",
      data: {
        code: "policy.mutationLease",
        phase: "preflight",
        message: "mutation lease required; call glass/lease/acquire first",
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        details: null,
      },
    });
  });

  it("runs a mutating call under the client's lease, by mutationLease or by leaseToken", async () => {
    const peer = await harness.connectReady();
    const lease = await acquire(peer);
    const withLease = await peer.request(1, "tools/call", fixtureToolCall(click, lease));
    expect(withLease.result).toEqual(expectedToolResult(clickAnswer));
    const { name, arguments: args } = fixtureToolCall(click);
    const { mutationLease: _m, ...rest } = args;
    const withToken = await peer.request(2, "tools/call", {
      name,
      arguments: { ...rest, sessionId: lease.sessionId, leaseToken: lease.token },
    });
    expect(withToken.result).toEqual(expectedToolResult(clickAnswer));
  });

  it("refuses a token nobody holds with leaseNotFound (the fixture's recorded token)", async () => {
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", fixtureToolCall(click));
    expect(answer.error).toMatchObject({ code: -32003, data: leaseData("leaseNotFound", true) });
    expect(answer.error!.message).not.toContain("lt-5c81e0");
  });

  it("refuses another client's token with leaseNotOwner (not retryable)", async () => {
    const owner = await harness.connectReady();
    const lease = await acquire(owner);
    const thief = await harness.connectReady();
    const answer = await thief.request(1, "tools/call", fixtureToolCall(click, lease));
    expect(answer.error).toMatchObject({ code: -32003, data: leaseData("leaseNotOwner", false) });
    expect(answer.error!.message).not.toContain(lease.token);
  });

  it("refuses the owner's call with a wrong token with leaseNotOwner (not retryable)", async () => {
    const peer = await harness.connectReady();
    await acquire(peer);
    const answer = await peer.request(
      1,
      "tools/call",
      fixtureToolCall(click, { sessionId: "s", token: "lt-not-the-token" }),
    );
    expect(answer.error).toMatchObject({ code: -32003, data: leaseData("leaseNotOwner", false) });
  });

  it("never compares a session id with the lease's; a sessionId that differs from mutationLease.sessionId is -32602; a token that is not a string is no token", async () => {
    const peer = await harness.connectReady();
    const lease = await acquire(peer);
    const otherSession = await peer.request(
      1,
      "tools/call",
      fixtureToolCall(click, { sessionId: "sess-elsewhere", token: lease.token }),
    );
    expect(otherSession.result).toEqual(expectedToolResult(clickAnswer));
    const { name, arguments: args } = fixtureToolCall(click, lease);
    const mismatch = await peer.request(2, "tools/call", { name, arguments: { ...args, sessionId: "sess-other" } });
    expect(mismatch.error).toMatchObject({ code: -32602, data: { code: "protocol.invalidParams" } });
    const malformed = await peer.request(3, "tools/call", {
      name,
      arguments: { ...args, mutationLease: { sessionId: lease.sessionId, token: 42 } },
    });
    expect(malformed.error).toMatchObject({
      code: -32003,
      message: "mutation lease required; call glass/lease/acquire first",
    });
  });

  it("refuses a token after the lease expired with leaseExpired (retryable)", async () => {
    const peer = await shortLeases.connectReady();
    const lease = await acquire(peer, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const answer = await peer.request(1, "tools/call", fixtureToolCall(click, lease));
    expect(answer.error).toMatchObject({ code: -32003, data: leaseData("leaseExpired", true) });
    expect(shortLeases.daemon.activeLeases()).toEqual([]);
  });

  it("accepts a read-only tool that carries a stray lease, without checking it", async () => {
    const peer = await harness.connectReady();
    const answer = await peer.request(
      1,
      "tools/call",
      toolCall("observe", {
        level: "summary",
        sessionId: "sess-x",
        mutationLease: { sessionId: "sess-x", token: "lt-nobody" },
      }),
    );
    expect(answer.error).toBeUndefined();
    expect(answer.result!.isError).toBeUndefined();
  });

  it("applies conditional lease rules and treats unknown tools as mutating unless they are read-only", async () => {
    const peer = await harness.connectReady();
    const need = async (id: number, name: string, args: Record<string, unknown>) =>
      (await peer.request(id, "tools/call", toolCall(name, args))).error?.message;
    expect(await need(1, "sessionSnapshot", { operation: "create" })).toBe(
      "mutation lease required; call glass/lease/acquire first",
    );
    expect(await need(2, "sessionSnapshot", { operation: "list" })).toBeUndefined();
    expect(await need(3, "executeTask", { task: { task: "form.submit" }, expectedRevision: 1 })).toBe(
      "mutation lease required; call glass/lease/acquire first",
    );
    expect(await need(4, "executeTask", { task: { task: "table.extract" }, expectedRevision: 1 })).toBeUndefined();
    expect(await need(5, "agent.prompt", { text: "hi" })).toBe(
      "mutation lease required; call glass/lease/acquire first",
    );
    expect(await need(6, "project.inspect", {})).toBeUndefined();
  });
});

describe("LeaseManager", () => {
  it("expires a lease by the clock, keeps it on record for its owner, and lets a new acquire replace it", () => {
    let now = 1_000_000;
    const leases = new LeaseManager({ now: () => now });
    const grant = leases.acquire("client-1", 1000);
    if ("code" in grant) throw new Error(grant.message);
    expect(grant.expiresAtMs).toBe(1_001_000);
    expect(leases.authorize("client-1", grant.token)).toBeUndefined();
    expect(leases.acquire("client-1", 1000)).toMatchObject({ code: "leaseHeld", retryable: true });
    now += 999;
    expect(leases.authorize("client-1", grant.token)).toBeUndefined();
    now += 1;
    expect(leases.authorize("client-1", grant.token)).toMatchObject({ code: "leaseExpired", retryable: true });
    expect(leases.renew("client-1", grant.token, 1000)).toMatchObject({ code: "leaseExpired", retryable: true });
    expect(leases.authorize("client-1", "lt-never-issued")).toMatchObject({ code: "leaseNotOwner", retryable: false });
    expect(leases.authorize("client-2", grant.token)).toMatchObject({ code: "leaseNotOwner", retryable: false });
    expect(leases.active()).toBeUndefined();
    expect("token" in leases.acquire("client-2", 1000)).toBe(true);
  });

  it("releases an expired lease for its owner, after which nothing is found", () => {
    let now = 0;
    const leases = new LeaseManager({ now: () => now });
    const grant = leases.acquire("c", 100) as { token: string };
    now = 500;
    expect(leases.release("c", grant.token)).toEqual({ sessionId: leases.sessionId, released: true });
    expect(leases.authorize("c", grant.token)).toMatchObject({ code: "leaseNotFound", retryable: true });
  });

  it("renews to a new expiry and forgets everything on reset", () => {
    let now = 0;
    const leases = new LeaseManager({ now: () => now });
    const grant = leases.acquire("c", 1000) as { token: string };
    now = 900;
    expect(leases.renew("c", grant.token, 1000)).toMatchObject({ expiresAtMs: 1900 });
    now = 1500;
    expect(leases.authorize("c", grant.token)).toBeUndefined();
    leases.reset();
    expect(leases.active()).toBeUndefined();
  });
});

describe("mock daemon over stdio has no leases", () => {
  it("runs mutating tools without a lease and answers lease methods with -32601", async () => {
    const { PassThrough } = await import("node:stream");
    const { startMockDaemon } = await import("../../../src/testing/node/start-mock-daemon.js");
    const { RawPeer, handshake } = await import("../../support/raw-mcp-peer.js");
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const daemon = await startMockDaemon({ stdin, stdout, fixture: GOLDEN_FIXTURE_PATH });
    const peer = new RawPeer(stdout, stdin);
    await handshake(peer);
    const { name, arguments: args } = fixtureToolCall(click);
    const { mutationLease: _m, sessionId: _s, ...bare } = args;
    expect((await peer.request(1, "tools/call", { name, arguments: bare })).result).toEqual(
      expectedToolResult(clickAnswer),
    );
    expect((await peer.request(2, "glass/lease/acquire", { ttlMs: 5000 })).error?.code).toBe(-32601);
    expect(daemon.activeLeases()).toEqual([]);
    stdin.end();
    await daemon.stopped;
  });
});
