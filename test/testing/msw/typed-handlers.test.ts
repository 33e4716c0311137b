// Runs in the vitest project "websocket" (vitest.config.ts): the WebSocket half needs the global
// WebSocket that MSW's ws.link intercepts (Node 20: --experimental-websocket).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, httpTransport, webSocketTransport } from "glass-sdk";
import { mockError, type MockHandlers } from "glass-sdk/testing";
import { createGlassHandlers, createGlassWsHandlers } from "glass-sdk/testing/msw";
import { semanticObservation } from "../../support/result-samples.js";

const HTTP_URL = "http://handlers.glass.test/mcp";
const HTTP_SOCKET_URL = "http://socket.handlers.glass.test/mcp";
const WS_URL = "ws://handlers.glass.test/mcp";
const WS_SOCKET_URL = "ws://socket.handlers.glass.test/mcp";

/** The revision the simulated page is at; a click with another expectedRevision is stale. */
let revision = 1;
/** Signals of the getText calls whose handler is waiting to be cancelled. */
const waiting: AbortSignal[] = [];
let leasedClicks: boolean[] = [];

const handlers: MockHandlers = {
  "browser.observe": async () => semanticObservation(revision, "summary"),
  "browser.click": (payload, ctx) => {
    leasedClicks.push(ctx.leased);
    if (payload.expectedRevision !== undefined && payload.expectedRevision !== revision) {
      throw mockError(
        "staleRevision",
        `expected revision ${payload.expectedRevision} but the page is at revision ${revision}`,
      );
    }
    revision++;
    return { executionId: `exec-${revision}` };
  },
  "browser.getText": (_payload, ctx) => {
    waiting.push(ctx.signal);
    return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
  },
  "browser.inspectPage": () => ({ revision: "not a number" }) as never,
};

const server = setupServer(
  ...createGlassHandlers({ url: HTTP_URL, handlers }),
  ...createGlassHandlers({ url: HTTP_SOCKET_URL, handlers, mode: "socket" }),
  ...createGlassWsHandlers({ url: WS_URL, handlers }),
  ...createGlassWsHandlers({ url: WS_SOCKET_URL, handlers, mode: "socket" }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  revision = 1;
  waiting.length = 0;
  leasedClicks = [];
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const caught = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(caught).toBeInstanceOf(GlassError);
  return caught as GlassError;
}

const frontEnds = [
  {
    name: "MSW HTTP (createGlassHandlers)",
    connect: (url = HTTP_URL) => Glass.connect(httpTransport({ url })),
    socketUrl: HTTP_SOCKET_URL,
  },
  {
    name: "MSW WebSocket (createGlassWsHandlers)",
    connect: (url = WS_URL) => Glass.connect(webSocketTransport({ url })),
    socketUrl: WS_SOCKET_URL,
  },
];

for (const { name, connect, socketUrl } of frontEnds) {
  describe(`typed handlers over ${name}`, () => {
    it("observe, click with the observed revision, then a stale click gets staleRevision", async () => {
      const glass = await connect();
      try {
        const page = await glass.browser.observe({ level: "summary" });
        expect(page.revision).toBe(1);
        expect(await glass.browser.click({ target: "ref=1", expectedRevision: page.revision })).toEqual({
          executionId: "exec-2",
        });
        const stale = await failure(glass.browser.click({ target: "ref=1", expectedRevision: page.revision }));
        expect({ code: stale.code, retryable: stale.retryable, mutationPossible: stale.mutationPossible }).toEqual({
          code: "staleRevision",
          retryable: true,
          mutationPossible: false,
        });
      } finally {
        await glass.close();
      }
    });

    it("refuses a handler's invalid result with mock.invalidResult naming the operation and the path", async () => {
      const glass = await connect();
      try {
        const error = await failure(glass.browser.inspectPage({}));
        expect(error.code).toBe("mock.invalidResult");
        expect(error.rawMessage).toMatch(/^handler for browser\.inspectPage returned an invalid result at \/\w+: /);
      } finally {
        await glass.close();
      }
    });

    it("a cancelled call aborts the handler's signal", async () => {
      const glass = await connect();
      try {
        const controller = new AbortController();
        const call = glass.browser.getText({}, { signal: controller.signal, retry: false });
        await expect.poll(() => waiting.length).toBe(1);
        controller.abort();
        expect((await failure(call)).code).toBe("cancelled");
        await expect.poll(() => waiting[0]?.aborted).toBe(true);
      } finally {
        await glass.close();
      }
    });

    it("socket mode: a click needs the lease (-32003 before the handler), and runs with it", async () => {
      const glass = await connect(socketUrl);
      try {
        expect((await failure(glass.browser.click({ target: "ref=1" }))).code).toBe("leaseRequired");
        expect(leasedClicks).toEqual([]);
        await glass.withLease(() => glass.browser.click({ target: "ref=1" }), { ttlMs: 10_000 });
        expect(leasedClicks).toEqual([true]);
      } finally {
        await glass.close();
      }
    });
  });
}
