/**
 * Conformance of the mock daemon to protocol §4 (mutation leases, daemon socket only) and the lease
 * context of §2, rule by rule. Leases exist on the socket; over stdio the lease methods are -32601.
 */
import { describe, expect } from "vitest";
import { parseFixture } from "../../src/mock-daemon/golden-fixture.js";
import { errorData, isAccepted, rule, sleep } from "../support/conformance-target.js";
import { readGoldenFixture } from "../support/golden-fixture.js";
import { toolCall, type RawPeer } from "../support/raw-mcp-peer.js";

const fixture = parseFixture(readGoldenFixture());
const clickRequest = fixture.requests.find((r) => r.requestId === "click-renew")!;
/** The recorded click's arguments without any lease context. */
const clickArgs = clickRequest.payload as Record<string, unknown>;
const click = (extra: Record<string, unknown> = {}) => toolCall("click", { ...clickArgs, ...extra });

/**
 * A mutating call both the mock and the real daemon answer without a page of ours: a click on a CSS
 * selector that matches nothing. Once the lease gate lets it through it fails as an ordinary tool
 * failure (no recording on the mock, `target_not_found` on the daemon), the same way every time.
 */
const clickNothing = (extra: Record<string, unknown> = {}) =>
  toolCall("click", { target: "css=#glass-rules-nothing", ...extra });

interface Lease {
  sessionId: string;
  ownerId: string;
  token: string;
  expiresAtMs: number;
}

let ids = 0;
async function acquire(peer: RawPeer, ttlMs = 60_000): Promise<Lease> {
  const response = await peer.request(`acquire-${++ids}`, "glass/lease/acquire", { ttlMs });
  if (response.result === undefined) throw new Error(JSON.stringify(response.error));
  return response.result as unknown as Lease;
}

/** The -32003 error of a lease outcome (§2): `data.code` policy.mutationLease, the lease code in `data.details`. */
const leaseError = (code: string, retryable: boolean) => ({
  code: -32003,
  data: errorData("policy.mutationLease", { code, retryable }),
});

const SOCKET = { transports: ["socket"] } as const;

describe("§4 lease methods", () => {
  rule(
    "§4 on stdio the glass/lease/* methods get -32601",
    async (target) => {
      const peer = await target.connectReady();
      for (const [i, method] of ["glass/lease/acquire", "glass/lease/renew", "glass/lease/release"].entries()) {
        expect((await peer.request(i, method, { ttlMs: 1000, token: "lt-x" })).error, method).toMatchObject({
          code: -32601,
          data: errorData("protocol.methodNotFound"),
        });
      }
      const served = await peer.request(9, "tools/call", clickNothing()); // no lease needed over stdio
      expect(isAccepted(served), JSON.stringify(served)).toBe(true);
    },
    { transports: ["stdio"] },
  );

  rule(
    "§4 acquire answers {sessionId, ownerId, token, expiresAtMs}, renew a new expiresAtMs, release {sessionId, released: true}",
    async (target) => {
      const peer = await target.connectReady();
      const before = Date.now();
      const lease = await acquire(peer, 5000);
      expect(lease).toEqual({
        sessionId: expect.any(String),
        ownerId: expect.any(String),
        token: expect.any(String),
        expiresAtMs: expect.any(Number),
      });
      expect(lease.expiresAtMs).toBeGreaterThanOrEqual(before + 5000);
      const renewed = (await peer.request(1, "glass/lease/renew", { token: lease.token, ttlMs: 60_000 }))
        .result as unknown as Lease;
      expect(renewed).toEqual({ ...lease, expiresAtMs: expect.any(Number) });
      expect(renewed.expiresAtMs).toBeGreaterThan(lease.expiresAtMs);
      expect(await peer.request(2, "glass/lease/release", { token: lease.token })).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: { sessionId: lease.sessionId, released: true },
      });
    },
    SOCKET,
  );

  rule(
    "§4 extra params of the lease methods are ignored",
    async (target) => {
      const peer = await target.connectReady();
      const lease = (
        await peer.request(1, "glass/lease/acquire", {
          ttlMs: 5000,
          sessionId: "sess-mine",
          owner: "me",
          token: "lt-mine",
        })
      ).result as unknown as Lease;
      expect(lease.token).not.toBe("lt-mine");
      expect(
        (await peer.request(2, "glass/lease/renew", { token: lease.token, ttlMs: 5000, reason: "still working" }))
          .result,
      ).toMatchObject({ token: lease.token });
      expect((await peer.request(3, "glass/lease/release", { token: lease.token, ttlMs: "not read" })).result).toEqual({
        sessionId: lease.sessionId,
        released: true,
      });
    },
    SOCKET,
  );

  rule(
    "§4 ttlMs missing or not a non-negative integer gets -32602",
    async (target) => {
      const peer = await target.connectReady();
      for (const [i, params] of [
        {},
        { ttlMs: 1.5 },
        { ttlMs: "60000" },
        { ttlMs: -1 },
        { ttlMs: null },
        undefined,
      ].entries()) {
        expect((await peer.request(i, "glass/lease/acquire", params)).error, JSON.stringify(params)).toMatchObject({
          code: -32602,
          data: errorData("protocol.invalidParams"),
        });
      }
      const lease = await acquire(peer);
      expect((await peer.request(10, "glass/lease/renew", { token: lease.token })).error).toMatchObject({
        code: -32602,
      });
    },
    SOCKET,
  );

  rule(
    "§4 ttlMs outside 100..900000 gets -32003 invalidLease (not retryable); 100 and 900000 are granted",
    async (target) => {
      const peer = await target.connectReady();
      for (const [i, ttlMs] of [0, 99, 900_001].entries()) {
        expect((await peer.request(i, "glass/lease/acquire", { ttlMs })).error, String(ttlMs)).toMatchObject(
          leaseError("invalidLease", false),
        );
      }
      const shortest = await acquire(peer, 100);
      expect(
        (await peer.request(10, "glass/lease/renew", { token: shortest.token, ttlMs: 900_000 })).result,
      ).toMatchObject({ token: shortest.token });
      expect(
        (await peer.request(11, "glass/lease/renew", { token: shortest.token, ttlMs: 900_001 })).error,
      ).toMatchObject(leaseError("invalidLease", false));
    },
    SOCKET,
  );

  rule(
    "§4 acquire while any unexpired lease exists, even the caller's own, gets leaseHeld; an expired lease is simply replaced",
    async (target) => {
      const owner = await target.connectReady();
      await acquire(owner, 150);
      expect((await owner.request(1, "glass/lease/acquire", { ttlMs: 5000 })).error).toMatchObject(
        leaseError("leaseHeld", true),
      );
      const other = await target.connectReady();
      expect((await other.request(1, "glass/lease/acquire", { ttlMs: 5000 })).error).toMatchObject(
        leaseError("leaseHeld", true),
      );
      await sleep(200);
      const replacement = await acquire(other, 5000);
      expect(target.daemon.activeLeases()).toEqual([replacement]);
    },
    SOCKET,
  );

  rule(
    "§4 renew or release without a lease gets leaseNotFound (retryable)",
    async (target) => {
      const peer = await target.connectReady();
      expect((await peer.request(1, "glass/lease/renew", { token: "lt-none", ttlMs: 1000 })).error).toMatchObject(
        leaseError("leaseNotFound", true),
      );
      expect((await peer.request(2, "glass/lease/release", { token: "lt-none" })).error).toMatchObject(
        leaseError("leaseNotFound", true),
      );
      const lease = await acquire(peer);
      await peer.request(3, "glass/lease/release", { token: lease.token });
      expect((await peer.request(4, "tools/call", click({ leaseToken: lease.token }))).error).toMatchObject(
        leaseError("leaseNotFound", true),
      );
    },
    SOCKET,
  );

  rule(
    "§4 a wrong token or another owner gets leaseNotOwner (not retryable)",
    async (target) => {
      const owner = await target.connectReady();
      const lease = await acquire(owner);
      expect((await owner.request(1, "glass/lease/renew", { token: "lt-wrong", ttlMs: 1000 })).error).toMatchObject(
        leaseError("leaseNotOwner", false),
      );
      expect((await owner.request(2, "tools/call", click({ leaseToken: "lt-wrong" }))).error).toMatchObject(
        leaseError("leaseNotOwner", false),
      );
      const other = await target.connectReady();
      expect((await other.request(1, "glass/lease/renew", { token: lease.token, ttlMs: 1000 })).error).toMatchObject(
        leaseError("leaseNotOwner", false),
      );
      expect((await other.request(2, "glass/lease/release", { token: lease.token })).error).toMatchObject(
        leaseError("leaseNotOwner", false),
      );
      expect((await other.request(3, "tools/call", click({ leaseToken: lease.token }))).error).toMatchObject(
        leaseError("leaseNotOwner", false),
      );
      expect(target.daemon.activeLeases()).toEqual([lease]);
    },
    SOCKET,
  );

  rule(
    "§4 the right token after expiry gets leaseExpired (retryable); releasing the expired lease with it succeeds",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await acquire(peer, 100);
      await sleep(150);
      expect((await peer.request(1, "glass/lease/renew", { token: lease.token, ttlMs: 1000 })).error).toMatchObject(
        leaseError("leaseExpired", true),
      );
      expect((await peer.request(2, "tools/call", click({ leaseToken: lease.token }))).error).toMatchObject(
        leaseError("leaseExpired", true),
      );
      expect(target.daemon.activeLeases()).toEqual([]);
      expect((await peer.request(3, "glass/lease/release", { token: lease.token })).result).toEqual({
        sessionId: lease.sessionId,
        released: true,
      });
      expect((await peer.request(4, "glass/lease/renew", { token: lease.token, ttlMs: 1000 })).error).toMatchObject(
        leaseError("leaseNotFound", true),
      );
    },
    SOCKET,
  );

  rule(
    "§4 disconnecting releases the owner's lease",
    async (target) => {
      const owner = await target.connectReady();
      await acquire(owner);
      await target.hangUp(owner);
      expect(target.daemon.activeLeases()).toEqual([]);
      const next = await target.connectReady();
      await expect(acquire(next)).resolves.toMatchObject({ token: expect.any(String) });
    },
    SOCKET,
  );
});

describe("§4 the lease gate of tool calls", () => {
  rule(
    "§4 a mutating call without a token gets -32003 'mutation lease required' with details null",
    async (target) => {
      const peer = await target.connectReady();
      const answer = await peer.request(1, "tools/call", click());
      expect(answer.error).toEqual({
        code: -32003,
        message: "mutation lease required; call glass/lease/acquire first",
        data: {
          ...errorData("policy.mutationLease"),
          message: "mutation lease required; call glass/lease/acquire first",
        },
      });
      expect((await peer.request(2, "tools/call", click({ leaseToken: 42 }))).error).toMatchObject({
        code: -32003,
        message: "mutation lease required; call glass/lease/acquire first",
      });
    },
    SOCKET,
  );

  rule(
    "§2 the token is read from arguments.mutationLease.token, else from arguments.leaseToken",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await acquire(peer);
      const byLeaseToken = await peer.request(1, "tools/call", clickNothing({ leaseToken: lease.token }));
      expect(isAccepted(byLeaseToken), JSON.stringify(byLeaseToken)).toBe(true);
      const byMutationLease = await peer.request(
        2,
        "tools/call",
        clickNothing({ mutationLease: { sessionId: lease.sessionId, token: lease.token }, leaseToken: "lt-ignored" }),
      );
      expect(byMutationLease.result).toEqual(byLeaseToken.result);
      expect(
        (
          await peer.request(
            3,
            "tools/call",
            clickNothing({ mutationLease: { sessionId: lease.sessionId, token: "lt-wrong" }, leaseToken: lease.token }),
          )
        ).error,
      ).toMatchObject(leaseError("leaseNotOwner", false));
    },
    SOCKET,
  );

  rule(
    "§2 a mutating call needs no sessionId, and a sessionId is never compared with the lease's",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await acquire(peer);
      const served = await peer.request(1, "tools/call", clickNothing({ leaseToken: lease.token }));
      expect(isAccepted(served), JSON.stringify(served)).toBe(true);
      const elsewhere = [
        { leaseToken: lease.token, sessionId: "sess-elsewhere" },
        { sessionId: "sess-elsewhere", mutationLease: { sessionId: "sess-elsewhere", token: lease.token } },
      ];
      for (const [i, context] of elsewhere.entries()) {
        expect(
          (await peer.request(2 + i, "tools/call", clickNothing(context))).result,
          JSON.stringify(context),
        ).toEqual(served.result);
      }
    },
    SOCKET,
  );

  rule(
    "§4 like the daemon, a mutating call without any arguments skips the lease gate",
    async (target) => {
      const peer = await target.connectReady();
      const bare = await peer.request(1, "tools/call", { name: "acceptDialog" });
      expect(bare.error).toBeUndefined();
      expect(bare.result!.isError).toBe(true); // the fixture has no answer for it
      expect((await peer.request(2, "tools/call", { name: "acceptDialog", arguments: {} })).error).toMatchObject({
        code: -32003,
        message: "mutation lease required; call glass/lease/acquire first",
      });
    },
    SOCKET,
  );
});
