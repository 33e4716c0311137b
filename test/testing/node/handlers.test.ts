import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { mockError, type MockHandlers } from "glass-sdk/testing";
import { socketTransport } from "glass-sdk/node";
import { startMockDaemon } from "glass-sdk/testing/node";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { toolCall } from "../../support/raw-mcp-peer.js";

let harness: SocketHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/** A handler that waits until its call ends, and the signals of the calls it holds. */
function holding(): { handler: NonNullable<MockHandlers["browser.getText"]>; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    handler: (_payload, ctx) => {
      signals.push(ctx.signal);
      return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const caught = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(caught).toBeInstanceOf(GlassError);
  return caught as GlassError;
}

describe("startMockDaemon({ handlers }) on a real socket", () => {
  it("a mutation needs the lease before its handler runs; with it the handler answers, sees ctx.leased, and the call is recorded", async () => {
    let revision = 1;
    const leased: boolean[] = [];
    harness = await startSocketHarness({
      handlers: {
        "browser.click": (payload, ctx) => {
          leased.push(ctx.leased);
          if (payload.expectedRevision !== revision)
            throw mockError("staleRevision", `the page is at revision ${revision}`);
          revision++;
          return { executionId: `exec-${revision}` };
        },
      },
    });
    const glass = await Glass.connect(socketTransport({ path: harness.path }));
    try {
      expect((await failure(glass.browser.click({ target: "ref=1", expectedRevision: 1 }))).code).toBe("leaseRequired");
      expect(leased).toEqual([]);
      await glass.withLease(
        async () => {
          expect(await glass.browser.click({ target: "ref=1", expectedRevision: 1 })).toEqual({
            executionId: "exec-2",
          });
          expect((await failure(glass.browser.click({ target: "ref=1", expectedRevision: 1 }))).code).toBe(
            "staleRevision",
          );
        },
        { ttlMs: 10_000 },
      );
      expect(leased).toEqual([true, true]);
      expect(
        harness.daemon.calls.map((call) => [
          call.operation,
          call.outcome?.ok,
          call.outcome?.ok === false ? call.outcome.error.code : undefined,
        ]),
      ).toEqual([
        ["browser.click", false, "policy.mutationLease"],
        ["browser.click", true, undefined],
        ["browser.click", false, "staleRevision"],
      ]);
      expect(harness.daemon.calls[0]?.outcome).toMatchObject({ jsonRpcCode: -32003 });
    } finally {
      await glass.close();
    }
  });

  it("keeps the limits: a client over maxInFlightPerClient gets -32000 while a handler holds its slot", async () => {
    const held = holding();
    harness = await startSocketHarness({
      limits: { maxInFlightPerClient: 1 },
      handlers: { "browser.getText": held.handler },
    });
    const peer = await harness.connectReady();
    peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: toolCall("getText") });
    await harness.daemon.waitFor((daemon) => daemon.inFlight() === 1);
    const second = await peer.request(2, "tools/call", toolCall("getText"));
    expect(second.error?.code).toBe(-32000);
    expect(held.signals).toHaveLength(1);
    peer.notify("notifications/cancelled", { requestId: 1 });
    expect((await peer.response(1)).error?.code).toBe(-32800);
    expect(held.signals[0]?.aborted).toBe(true);
  });

  it("aborts the handler's signal when its client disconnects, and frees the slot", async () => {
    const held = holding();
    harness = await startSocketHarness({ handlers: { "browser.getText": held.handler } });
    const peer = await harness.connectReady();
    peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: toolCall("getText") });
    await harness.daemon.waitFor((daemon) => daemon.inFlight() === 1);
    await harness.disconnectAll();
    expect(held.signals[0]?.aborted).toBe(true);
    expect(harness.daemon.inFlight()).toBe(0);
    expect(harness.daemon.calls[0]?.outcome).toBeUndefined();
  });

  it("shows the faults: a stalled call never reaches its handler", async () => {
    let called = 0;
    harness = await startSocketHarness({
      faults: { stallAfterCalls: 1 },
      handlers: {
        "browser.getText": () => {
          called++;
          return { text: "hello" };
        },
      },
    });
    const peer = await harness.connectReady();
    expect((await peer.request(1, "tools/call", toolCall("getText"))).result?.content).toEqual([
      { type: "text", text: "hello" },
    ]);
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: toolCall("getText") });
    await harness.daemon.waitFor((daemon) => daemon.calls.length === 2);
    expect(await peer.quietFor(50)).toEqual([]);
    expect(called).toBe(1);
  });

  it("answers a handler that throws something that cannot be described (a null-prototype object, an Error whose message getter throws, an object whose toString throws) as mock.handlerFailed, nothing happened", async () => {
    const unreadable = new Error("hidden");
    Object.defineProperty(unreadable, "message", {
      get() {
        throw new Error("message getter");
      },
    });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const thrown: [unknown, RegExp][] = [
      [Object.create(null), /threw: an object that cannot be turned into text/],
      [unreadable, /threw: Error whose message cannot be read/],
      [
        {
          toString() {
            throw new Error("toString");
          },
        },
        /threw: an object that cannot be turned into text/,
      ],
      [{ [Symbol.toPrimitive]: () => ({}) }, /threw: an object that cannot be turned into text/],
      [revoked.proxy, /threw: an object that cannot be turned into text/],
      [Symbol("odd"), /threw: Symbol\(odd\)/],
    ];
    let next = 0;
    harness = await startSocketHarness({
      handlers: {
        "browser.click": () => {
          throw thrown[next++]?.[0];
        },
      },
    });
    const glass = await Glass.connect(socketTransport({ path: harness.path }));
    try {
      await glass.withLease(
        async () => {
          for (const [, said] of thrown) {
            const error = await failure(glass.browser.click({ target: "ref=1", expectedRevision: 1 }));
            expect(error).toMatchObject({ code: "mock.handlerFailed", mutationPossible: false });
            expect(error.message).toMatch(/handler for browser\.click threw: /);
            expect(error.message).toMatch(said);
          }
        },
        { ttlMs: 10_000 },
      );
      expect(
        harness.daemon.calls.map((call) => (call.outcome?.ok === false ? call.outcome.error.code : undefined)),
      ).toEqual(thrown.map(() => "mock.handlerFailed"));
    } finally {
      await glass.close();
    }
  });

  it("refuses handlers that are not handlers before it listens", async () => {
    // Refused before anything is served (stdio is never read).
    await expect(
      startMockDaemon({ handlers: { "browser.nothing": () => ({}) } as unknown as MockHandlers }),
    ).rejects.toThrow(/"browser\.nothing" is not an operation of the catalog/);
    await expect(startMockDaemon({ fast: true, handlers: {} })).rejects.toThrow(
      /fast mode .* cannot be combined with handlers/,
    );
  });
});

describe("startMockDaemon({ site }) on a real socket", () => {
  it("serves the simulated site at the origin given, under the golden fixture", async () => {
    harness = await startSocketHarness({ site: { origin: "http://127.0.0.1:8080" } });
    const glass = await Glass.connect(socketTransport({ path: harness.path }));
    try {
      const page = await glass.browser.observe({ level: "interactive" });
      expect(page.page).toMatchObject({ url: "http://127.0.0.1:8080/login", title: "Sign in · Simulated Shop" });
      await glass.withLease(() => glass.browser.navigate({ url: "http://127.0.0.1:8080/" }));
      expect((await glass.browser.observe({ level: "interactive" })).page.url).toBe("http://127.0.0.1:8080/login");
    } finally {
      await glass.close();
    }
  });

  it("refuses site options the site cannot serve before it listens", async () => {
    await expect(startMockDaemon({ site: { origin: "http://127.0.0.1:8080/shop" } })).rejects.toThrow(TypeError);
    await expect(startMockDaemon({ site: { origin: "localhost:8080" } })).rejects.toThrow(
      /origin must be an http: or https: origin .*not "localhost:8080"/,
    );
  });
});
