import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { createMockGlass, type MockGlass, mockError, type MockHandlers } from "glass-sdk/testing";
import { goldenFixture } from "../support/fixture-outcomes.js";
import { semanticObservation } from "../support/result-samples.js";

const open: Glass[] = [];

async function connect(mock: MockGlass): Promise<Glass> {
  const glass = await Glass.connect(mock.transport());
  open.push(glass);
  return glass;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((glass) => glass.close()));
});

/** A promise of the signal a handler was given, and the function the handler calls with it. */
function signalWhenStarted(): { started: Promise<AbortSignal>; start: (signal: AbortSignal) => void } {
  let start!: (signal: AbortSignal) => void;
  const started = new Promise<AbortSignal>((resolve) => (start = resolve));
  return { started, start };
}

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GlassError);
  return error as GlassError;
}

describe("createMockGlass: typed handlers answer their operations", () => {
  it("answers observe with the handler's result, and records the call with its payload, request id and outcome", async () => {
    const mock = createMockGlass({
      handlers: { "browser.observe": (payload) => semanticObservation(payload.level === "summary" ? 4 : 5, "summary") },
    });
    const glass = await connect(mock);
    const page = await glass.browser.observe({ level: "summary" }, { requestId: "observe-1" });
    expect(page).toEqual(semanticObservation(4, "summary"));
    expect(mock.calls).toHaveLength(1);
    expect(mock.calls[0]).toMatchObject({
      operation: "browser.observe",
      tool: "observe",
      requestId: "observe-1",
      payload: { level: "summary" },
    });
    expect(mock.calls[0]?.outcome).toEqual({ ok: true, result: semanticObservation(4, "summary") });
  });

  it("callsTo lists one operation's calls in order, typed by it", async () => {
    const mock = createMockGlass();
    const glass = await connect(mock);
    const page = await glass.browser.observe({ level: "interactive" });
    await glass.browser.type({ target: "Email", text: "ada@example.com", expectedRevision: page.revision });
    await glass.browser.observe({ level: "summary" });
    expect(mock.callsTo("browser.observe").map((call) => call.payload?.level)).toEqual(["interactive", "summary"]);
    const [typed] = mock.callsTo("browser.type");
    expect(typed?.payload?.text).toBe("ada@example.com");
    expect(typed?.outcome?.ok === true ? typed.outcome.result.executionId : undefined).toMatch(/^act_/);
    expect(mock.callsTo("browser.click")).toEqual([]);
    await glass.close();
  });

  it("awaits an async handler and gives it the call's context", async () => {
    const seen: unknown[] = [];
    const mock = createMockGlass({
      handlers: {
        "browser.getText": async (_payload, ctx) => {
          seen.push({
            operation: ctx.operation,
            requestId: ctx.requestId,
            leased: ctx.leased,
            aborted: ctx.signal.aborted,
          });
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { text: "Welcome back" };
        },
      },
    });
    const glass = await connect(mock);
    expect(await glass.browser.getText({}, { requestId: "text-1" })).toEqual({ text: "Welcome back" });
    expect(seen).toEqual([{ operation: "browser.getText", requestId: "text-1", leased: false, aborted: false }]);
  });

  it("refuses a result that breaks the result schema: mock.invalidResult names the operation and the JSON path", async () => {
    const mock = createMockGlass({
      handlers: {
        "browser.observe": () => ({ ...semanticObservation(3, "summary"), revision: "three" as unknown as number }),
      },
    });
    const glass = await connect(mock);
    const error = await failure(glass.browser.observe({ level: "summary" }));
    expect(error.code).toBe("mock.invalidResult");
    expect(error.rawMessage).toBe(
      "handler for browser.observe returned an invalid result at /revision: must be an integer (got string)",
    );
    expect(error.retry.classification).toBe("notRetryable");
    expect(error.mutationPossible).toBe(false);
    expect(error.details).toEqual({
      operation: "browser.observe",
      issues: [{ path: "/revision", reason: "must be an integer (got string)" }],
    });
    expect(mock.calls[0]?.outcome).toMatchObject({ ok: false, error: { code: "mock.invalidResult" } });
  });

  it("refuses a result that is not JSON, even in an open object", async () => {
    const mock = createMockGlass({
      handlers: { "browser.click": () => ({ executionId: "exec-1", when: new Date(0) }) },
    });
    const glass = await connect(mock);
    const error = await failure(glass.browser.click({ target: "ref=1" }));
    expect(error.code).toBe("mock.invalidResult");
    expect(error.rawMessage).toMatch(/^handler for browser\.click returned an invalid result at \/when: /);
  });

  it("reports a handler that throws as mock.handlerFailed, with what it threw", async () => {
    const mock = createMockGlass({
      handlers: {
        "browser.getText": () => {
          throw new Error("no page loaded in this test");
        },
      },
    });
    const glass = await connect(mock);
    const error = await failure(glass.browser.getText({}));
    expect(error.code).toBe("mock.handlerFailed");
    expect(error.rawMessage).toBe("handler for browser.getText threw: no page loaded in this test");
  });

  it("gives the handler only payloads the daemon accepts: undecodable arguments get browser tool failed first", async () => {
    let called = 0;
    const mock = createMockGlass({
      handlers: {
        "browser.click": () => {
          called++;
          return {};
        },
      },
    });
    const glass = await connect(mock);
    const response = await glass.send(
      { protocolVersion: 1, requestId: "bad-click", operation: "browser.click", payload: { target: 42 } },
      { validate: false },
    );
    expect(response).toMatchObject({ ok: false, error: { code: "tool.failed" } });
    expect(called).toBe(0);
    expect(mock.calls[0]?.outcome).toMatchObject({
      ok: false,
      error: { code: "tool.failed", message: "browser tool failed" },
    });
  });

  it("hands each handler its own copy of the payload", async () => {
    const mock = createMockGlass({
      handlers: {
        "browser.navigate": (payload) => {
          (payload as { url: string }).url = "changed by the handler";
          return {};
        },
      },
    });
    const glass = await connect(mock);
    await glass.browser.navigate({ url: "https://example.test/" });
    expect(mock.calls.at(-1)?.payload).toEqual({ url: "https://example.test/" });
  });
});

describe("createMockGlass: precedence and fallback", () => {
  it("falls back to the fixture's exact matches for operations without a handler, then to mock.unmatched", async () => {
    const mock = createMockGlass({
      fixture: goldenFixture,
      handlers: { "browser.getText": () => ({ text: "from the handler" }) },
    });
    const glass = await connect(mock);
    const recorded = goldenFixture.requests.find((request) => request.operation === "browser.observe")!;
    const response = await glass.send(recorded, { validate: false });
    expect(response.ok).toBe(true);
    expect(await glass.browser.getText({})).toEqual({ text: "from the handler" });
    const error = await failure(glass.browser.observe({ level: "detailed" }));
    expect(error.code).toBe("mock.unmatched");
  });

  it("lets a handler answer its operation even where the fixture has an exact match", async () => {
    const recorded = goldenFixture.requests.find((request) => request.operation === "browser.observe")!;
    const mock = createMockGlass({
      fixture: goldenFixture,
      handlers: { "browser.observe": () => semanticObservation(99, "summary") },
    });
    const glass = await connect(mock);
    const response = await glass.send(recorded, { validate: false });
    expect(response).toMatchObject({ ok: true, result: { revision: 99 } });
  });

  it("without a fixture, the simulated site answers the operations without a handler", async () => {
    const glass = await connect(
      createMockGlass({ handlers: { "browser.click": () => ({ executionId: "exec-handler" }) } }),
    );
    expect((await glass.browser.getText({})).text).toContain("Sign in");
    expect(await glass.browser.click({ target: "ref=1" })).toEqual({ executionId: "exec-handler" });
  });

  it("with the site off, an operation without a handler is mock.unmatched, saying no handler answers it", async () => {
    const glass = await connect(
      createMockGlass({ site: false, handlers: { "browser.click": () => ({ executionId: "exec-handler" }) } }),
    );
    const error = await failure(glass.browser.getText({}));
    expect(error.code).toBe("mock.unmatched");
    expect(error.rawMessage).toBe(
      "no handler for browser.getText; no answers for browser.getText at all; recorded operations: none",
    );
  });

  it("serves the site at the origin, start page and sign-in its options give", async () => {
    const glass = await connect(
      createMockGlass({ site: { origin: "http://127.0.0.1:8080", signedIn: true, startPath: "/orders" } }),
    );
    const page = await glass.browser.observe({ level: "interactive" });
    expect(page.page).toMatchObject({ url: "http://127.0.0.1:8080/orders", title: "Orders · Simulated Shop" });
    // A navigation to the origin stays on the site; the default origin is now another site's.
    await glass.browser.navigate({ url: "http://127.0.0.1:8080/login" });
    expect((await glass.browser.observe({ level: "interactive" })).page).toMatchObject({
      url: "http://127.0.0.1:8080/login",
      title: "Sign in · Simulated Shop",
    });
    await glass.browser.navigate({ url: "https://shop.example/login" });
    expect((await glass.browser.observe({ level: "interactive" })).page.kind).toBe("error");
  });

  it("lists the orders its site options give, and puts the site under a fixture when given options", async () => {
    const orders = [{ id: "2001", customer: "Edsger Dijkstra", total: "€9.99", status: "Cancelled" }];
    const glass = await connect(
      createMockGlass({ fixture: goldenFixture, site: { signedIn: true, startPath: "/orders", orders } }),
    );
    const { text } = await glass.browser.getText({});
    expect(text).toContain("2001\tEdsger Dijkstra\t€9.99\tCancelled"); // innerText: a table's cells are separated by tabs
    expect(text).not.toContain("1001");
  });

  it("refuses site options the site cannot serve with a TypeError saying what they must be", () => {
    expect(() => createMockGlass({ site: { origin: "shop.example" } })).toThrow(
      new TypeError(
        'the simulated site\'s origin must be an http: or https: origin such as "http://127.0.0.1:8080", with no path, not "shop.example"',
      ),
    );
    expect(() => createMockGlass({ site: { origin: "http://127.0.0.1:8080/shop" } })).toThrow(
      /origin must be an http: or https: origin/,
    );
    expect(() => createMockGlass({ site: { origin: "file:///tmp" } })).toThrow(
      /origin must be an http: or https: origin/,
    );
    expect(() => createMockGlass({ site: { startPath: "orders" } })).toThrow(
      new TypeError(
        'the simulated site\'s startPath must be a path starting with "/", such as "/orders", not "orders"',
      ),
    );
    expect(() => createMockGlass({ site: { revision: -1 } })).toThrow(
      /revision must be a whole number of 0 or more, not -1/,
    );
  });

  it("with a fixture and no handlers, the message of a miss is replay's alone", async () => {
    const glass = await connect(createMockGlass({ fixture: goldenFixture }));
    expect((await failure(glass.browser.getText({}))).rawMessage).toMatch(/^no answers for browser\.getText at all; /);
  });

  it("use() overrides handlers until reset(), which also forgets the calls", async () => {
    const mock = createMockGlass({ handlers: { "browser.getText": () => ({ text: "base" }) } });
    const glass = await connect(mock);
    mock.use({ "browser.getText": () => ({ text: "override" }) });
    expect(await glass.browser.getText({})).toEqual({ text: "override" });
    expect(mock.calls).toHaveLength(1);
    mock.reset();
    expect(mock.calls).toHaveLength(0);
    expect(await glass.browser.getText({})).toEqual({ text: "base" });
  });

  it("refuses handlers for operations outside the catalog, and handlers that are not functions", () => {
    expect(() => createMockGlass({ handlers: { "browser.observ": () => ({}) } as unknown as MockHandlers })).toThrow(
      /"browser\.observ" is not an operation of the catalog/,
    );
    expect(() =>
      createMockGlass({ handlers: { "browser.observe": { level: "summary" } } as unknown as MockHandlers }),
    ).toThrow(/handler for browser\.observe must be a function/);
  });
});

describe("createMockGlass: cancellation, leases, limits", () => {
  it("aborts ctx.signal when the client cancels the call, which ends with cancelled (-32800)", async () => {
    const { started, start } = signalWhenStarted();
    const mock = createMockGlass({
      handlers: {
        "browser.getText": (_payload, ctx) => {
          start(ctx.signal);
          return new Promise((_resolve, reject) =>
            ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
          );
        },
      },
    });
    const glass = await connect(mock);
    const controller = new AbortController();
    const call = glass.browser.getText({}, { signal: controller.signal, retry: false });
    const signal = await started;
    expect(signal.aborted).toBe(false);
    controller.abort();
    expect((await failure(call)).code).toBe("cancelled");
    await mock.waitFor((m) => m.calls[0]?.outcome !== undefined);
    expect(signal.aborted).toBe(true);
    expect(mock.calls[0]?.outcome).toMatchObject({
      ok: false,
      jsonRpcCode: -32800,
      error: { code: "protocol.cancelled" },
    });
  });

  it("aborts ctx.signal when the client disconnects", async () => {
    const { started, start } = signalWhenStarted();
    const mock = createMockGlass({
      handlers: {
        "browser.getText": (_payload, ctx) => {
          start(ctx.signal);
          return new Promise(() => {});
        },
      },
    });
    const glass = await Glass.connect(mock.transport());
    const call = glass.browser.getText({}).catch(() => undefined);
    const signal = await started;
    expect(signal.aborted).toBe(false);
    await glass.close();
    await call;
    expect(signal.aborted).toBe(true);
  });

  it("socket mode: a mutation without the lease gets leaseRequired and never reaches the handler; with it, ctx.leased is true", async () => {
    const leased: boolean[] = [];
    const mock = createMockGlass({
      mode: "socket",
      handlers: {
        "browser.click": (_payload, ctx) => {
          leased.push(ctx.leased);
          return { executionId: "exec-1" };
        },
      },
    });
    const glass = await connect(mock);
    expect((await failure(glass.browser.click({ target: "ref=1" }))).code).toBe("leaseRequired");
    expect(leased).toEqual([]);
    expect(await glass.withLease(() => glass.browser.click({ target: "ref=1" }), { ttlMs: 10_000 })).toEqual({
      executionId: "exec-1",
    });
    expect(leased).toEqual([true]);
  });

  it("socket mode: each transport is its own client sharing the one lease", async () => {
    const mock = createMockGlass({ mode: "socket", handlers: { "browser.click": () => ({}) } });
    const first = await connect(mock);
    const second = await connect(mock);
    await first.acquireLease({ ttlMs: 10_000 });
    expect((await failure(second.acquireLease({ ttlMs: 10_000, retry: false }))).code).toBe("leaseHeld");
    await first.browser.click({ target: "ref=1" });
    expect((await failure(second.browser.click({ target: "ref=1" }))).code).toBe("leaseRequired");
    expect(mock.calls.map((call) => call.clientId)).toEqual(["client-1", "client-2"]);
  });

  it("latency and limits apply to handler calls as to replayed ones: the handler runs once the delay is over", async () => {
    let handled = 0;
    const mock = createMockGlass({
      latencyMs: 50,
      limits: { maxActivePerSession: 1 },
      handlers: {
        "browser.getText": () => {
          handled++;
          return { text: "slow" };
        },
      },
    });
    const transport = mock.transport();
    expect(transport.maxInFlight).toBe(1);
    const glass = await Glass.connect(transport);
    open.push(glass);
    const call = glass.browser.getText({});
    await mock.waitFor((m) => m.calls.length === 1);
    expect(handled).toBe(0);
    expect(await call).toEqual({ text: "slow" });
    expect(handled).toBe(1);
  });

  it("a crash fault closes every transport of the mock", async () => {
    const mock = createMockGlass({
      faults: { crashAfterCalls: 1 },
      handlers: { "browser.getText": () => ({ text: "x" }) },
    });
    const first = await connect(mock);
    const second = await connect(mock);
    expect(await first.browser.getText({})).toEqual({ text: "x" });
    expect((await failure(second.browser.getText({}, { retry: false }))).code).toBe("transport.closed");
    expect((await failure(first.browser.getText({}, { retry: false }))).code).toBe("transport.closed");
  });
});

describe("mockError", () => {
  it("refuses an empty or over-long code and an empty message", () => {
    expect(() => mockError("", "x")).toThrow(TypeError);
    expect(() => mockError("x".repeat(65), "x")).toThrow(TypeError);
    expect(() => mockError("staleRevision", "")).toThrow(TypeError);
  });
});
