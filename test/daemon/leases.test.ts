/**
 * The mutation lease of the real socket daemon (`glass-browser daemon serve`): one lease shared by
 * every client, acquired, renewed, expired, released and refused, and what the SDK reports for each.
 *
 * Every socket connection of glass-browser 0.3.14 drives a browser of its own, all on the daemon's
 * one Chrome debugging port: a second connection's browser cannot start while another runs, nor
 * right after it closed. So one connection (`worker`) does all the browsing here; the others only
 * hold, refuse and release leases, which never start a browser (the lease gate answers first).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, LeaseError } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";
import { requireInstalledDaemon, type SocketDaemon, startSocketDaemon } from "./support/real-daemon.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";

requireInstalledDaemon();

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof GlassError)) throw new Error(`expected a GlassError, got ${String(error)}`);
  return error;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("mutation leases on the real socket daemon", () => {
  let daemon: SocketDaemon;
  let lab: LabServer;
  let worker: Glass;
  const clients: Glass[] = [];
  const connect = async (): Promise<Glass> => {
    const glass = await Glass.connect(socketTransport({ path: daemon.path }));
    clients.push(glass);
    return glass;
  };
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await startSocketDaemon();
    worker = await connect();
  });
  afterAll(async () => {
    await Promise.all(clients.map((glass) => glass.close()));
    await daemon?.stop();
    await lab?.close();
  });

  it("advertises localDaemon and refuses a mutation without a lease with leaseRequired; read-only calls need none", async () => {
    const glass = worker;
    expect(glass.supports("localDaemon")).toBe(true);
    const error = await failure(glass.browser.navigate({ url: lab.url("/lab") }));
    expect(error).toBeInstanceOf(LeaseError);
    expect(error).toMatchObject({
      code: "leaseRequired",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeImmediate", recommendedOperation: "acquire_lease" },
    });
    expect(error.details).toEqual({
      jsonRpcCode: -32003,
      data: {
        code: "policy.mutationLease",
        details: null,
        message: "mutation lease required; call glass/lease/acquire first",
        mutationPossible: false,
        phase: "preflight",
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      },
    });
    expect((await glass.browser.observe({ level: "summary" })).revision).toBeGreaterThan(0);
  });

  it("withLease acquires a lease-N token for the daemon-default session, lets mutations through and releases it when done", async () => {
    const glass = worker;
    const seen = await glass.withLease(
      async (lease, signal) => {
        expect(lease).toMatchObject({
          sessionId: "daemon-default",
          ownerId: expect.stringMatching(/^daemon-client-\d+$/),
        });
        expect(lease.token).toMatch(/^lease-\d+$/);
        expect(lease.expiresAtMs - Date.now()).toBeGreaterThan(50_000);
        await glass.browser.navigate({ url: lab.url("/lab") }, { signal });
        await glass.browser.click({ target: "css=#counter" }, { signal });
        return lease.ownerId;
      },
      { ttlMs: 60_000 },
    );
    expect(seen).toMatch(/^daemon-client-/);
    expect(glass.lease).toBeUndefined();
    // released: another client can take it at once
    const other = await connect();
    await other.acquireLease({ ttlMs: 1000 });
    await other.releaseLease();
    await other.close();
  });

  it("refuses a second client while the first holds the lease: leaseHeld on acquire, leaseRequired on a mutation", async () => {
    const first = worker;
    const second = await connect();
    await first.acquireLease({ ttlMs: 30_000 });
    const held = await failure(second.acquireLease({ ttlMs: 30_000 }));
    expect(held).toBeInstanceOf(LeaseError);
    expect(held).toMatchObject({
      code: "leaseHeld",
      mutationPossible: false,
      retryable: true,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "acquire_lease" },
    });
    expect(held.details).toMatchObject({
      jsonRpcCode: -32003,
      data: {
        code: "policy.mutationLease",
        message: "mutation lease is already held",
        details: { code: "leaseHeld", retryable: true },
      },
    });
    expect(await failure(second.browser.click({ target: "css=#counter" }))).toMatchObject({ code: "leaseRequired" });
    // the holder itself acquiring again is refused by the SDK before sending
    expect(await failure(first.acquireLease({ ttlMs: 30_000 }))).toMatchObject({ code: "leaseHeld", retryable: false });
    await first.browser.navigate({ url: lab.url("/lab") });
    await first.browser.click({ target: "css=#counter" });
    await first.releaseLease();
    await second.acquireLease({ ttlMs: 1000 });
    await second.releaseLease();
    await second.close();
  });

  it("renews the lease with a new expiry, and after a short TTL a mutation fails with leaseExpired and the lease is dropped", async () => {
    const glass = worker;
    const lease = await glass.acquireLease({ ttlMs: 1000 });
    const firstExpiry = lease.expiresAtMs;
    const renewed = await glass.renewLease({ ttlMs: 20_000 });
    expect(renewed.expiresAtMs).toBeGreaterThan(firstExpiry + 15_000);
    expect(renewed.ownerId).toBe(lease.ownerId);
    await glass.renewLease({ ttlMs: 150 });
    await sleep(300);
    const expired = await failure(glass.browser.click({ target: "css=#counter" }));
    expect(expired).toBeInstanceOf(LeaseError);
    expect(expired).toMatchObject({
      code: "leaseExpired",
      phase: "preflight",
      mutationPossible: false,
      retryable: true,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "acquire_lease" },
    });
    expect(expired.details).toMatchObject({
      data: { message: "mutation lease has expired", details: { code: "leaseExpired", retryable: true } },
    });
    expect(glass.lease).toBeUndefined();
    await glass.acquireLease({ ttlMs: 1000 }); // an expired lease is simply replaced
    await glass.releaseLease();
  });

  it("aborts withLease's signal when the lease expires under it", async () => {
    const glass = worker;
    const outcome = await glass
      .withLease(
        async (_lease, signal) => {
          await glass.renewLease({ ttlMs: 150 });
          await sleep(300);
          await glass.browser.click({ target: "css=#counter" }).catch((error: unknown) => error);
          return signal.aborted;
        },
        { ttlMs: 10_000 },
      )
      .catch((error: unknown) => error);
    expect(outcome).toBe(true);
    expect(glass.lease).toBeUndefined();
  });

  it("releases a client's lease when it disconnects, so another client acquires at once", async () => {
    const holder = await connect();
    await holder.acquireLease({ ttlMs: 60_000 });
    const waiting = await connect();
    expect(await failure(waiting.acquireLease({ ttlMs: 1000 }))).toMatchObject({ code: "leaseHeld" });
    await holder.close();
    await sleep(100);
    const lease = await waiting.acquireLease({ ttlMs: 1000 });
    expect(lease.token).toMatch(/^lease-\d+$/);
    await waiting.releaseLease();
    await waiting.close();
  });

  it("answers the lease methods exactly: ttlMs out of range is invalidLease, missing is -32602, no lease is leaseNotFound, another's lease is leaseNotOwner", async () => {
    const glass = await connect();
    // the SDK checks 100..900000 before sending
    expect(await failure(glass.acquireLease({ ttlMs: 50 }))).toMatchObject({
      code: "request.invalid",
      mutationPossible: false,
    });
    await glass.close();
    const raw = await RawPeer.connect(daemon.path);
    await handshake(raw);
    expect((await raw.request(1, "glass/lease/acquire", { ttlMs: 50 })).error).toMatchObject({
      code: -32003,
      message: "invalid lease input: ttlMs must be 100..=900000",
      data: { code: "policy.mutationLease", details: { code: "invalidLease", retryable: false } },
    });
    expect((await raw.request(2, "glass/lease/acquire", {})).error).toMatchObject({
      code: -32602,
      message: "glass/lease/acquire requires numeric ttlMs",
      data: { code: "protocol.invalidParams" },
    });
    expect((await raw.request(3, "glass/lease/renew", { token: "lease-999", ttlMs: 1000 })).error).toMatchObject({
      code: -32003,
      message: "mutation lease was not found",
      data: { details: { code: "leaseNotFound", retryable: true } },
    });
    expect(
      (await raw.request(4, "tools/call", toolCall("click", { target: "css=#counter", leaseToken: "lease-999" })))
        .error,
    ).toMatchObject({ code: -32003, data: { details: { code: "leaseNotFound" } } });
    // while another connection holds the lease: its token, or a made-up one, from this connection
    const holder = await connect();
    const lease = await holder.acquireLease({ ttlMs: 30_000 });
    const stolen = await raw.request(
      5,
      "tools/call",
      toolCall("click", { target: "css=#counter", leaseToken: lease.token }),
    );
    const guessed = await raw.request(
      6,
      "tools/call",
      toolCall("click", { target: "css=#counter", leaseToken: "lease-999" }),
    );
    const renewed = await raw.request(7, "glass/lease/renew", { token: lease.token, ttlMs: 1000 });
    const notOwner = {
      code: -32003,
      message: "mutation lease is held by another owner",
      data: { code: "policy.mutationLease", details: { code: "leaseNotOwner", retryable: false } },
    };
    expect(stolen.error).toMatchObject(notOwner);
    expect(guessed.error).toMatchObject(notOwner);
    expect(renewed.error).toMatchObject(notOwner);
    await holder.close();
    raw.close();
  });
});
