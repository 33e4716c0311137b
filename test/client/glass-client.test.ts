import { describe, expect, it } from "vitest";
import {
  CancelledError,
  DeadlineExceededError,
  Glass,
  GlassError,
  LeaseError,
  OverloadedError,
  TransportClosedError,
} from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import { semanticObservation } from "../support/result-samples.js";
import { ScriptedDaemon, textResult, type ScriptedAnswer } from "../support/scripted-daemon.js";

const toolCalls = (daemon: ScriptedDaemon) => daemon.sent("tools/call") as JsonRpcRequest[];
const argumentsOf = (request: JsonRpcRequest) => (request.params as { arguments: Record<string, unknown> }).arguments;

function answeringTools(answers: Record<string, (request: JsonRpcRequest) => ScriptedAnswer>): ScriptedDaemon {
  return new ScriptedDaemon((request) => {
    if (request.method !== "tools/call") return { result: {} };
    const name = (request.params as { name: string }).name;
    const answer = answers[name];
    return answer === undefined ? { error: { code: -32601, message: `no tool ${name}` } } : answer(request);
  });
}

describe("Glass client handshake", () => {
  it("sends one initialize for many concurrent first calls, then notifications/initialized once", async () => {
    const daemon = answeringTools({ observe: () => textResult(semanticObservation(3)) });
    const glass = Glass.create(daemon);
    const results = await Promise.all(Array.from({ length: 10 }, () => glass.browser.observe({ level: "summary" })));
    expect(results.every((r) => r.level !== undefined && r.revision === 3)).toBe(true);
    expect(daemon.sent("initialize")).toHaveLength(1);
    expect(daemon.sent("notifications/initialized")).toHaveLength(1);
    await glass.close();
  });

  it("asks only for what the caller needs: envelope version 1 by default, plus the declared schemas and capabilities", async () => {
    const plain = answeringTools({});
    await (await Glass.connect(plain)).close();
    expect((plain.sent("initialize")[0] as JsonRpcRequest).params).toMatchObject({
      protocolVersion: "2025-11-25",
      glass: { protocolVersions: [1] },
    });
    expect(((plain.sent("initialize")[0] as JsonRpcRequest).params as { glass: object }).glass).toEqual({
      protocolVersions: [1],
    });

    const declared = answeringTools({});
    await (
      await Glass.connect(declared, {
        negotiation: { schemas: { webIr: [1] }, requires: ["webIr"], optional: ["taskProtocol"] },
      })
    ).close();
    expect(((declared.sent("initialize")[0] as JsonRpcRequest).params as { glass: object }).glass).toEqual({
      protocolVersions: [1],
      schemas: { webIr: [1] },
      requires: ["webIr"],
      optional: ["taskProtocol"],
    });
  });

  it("exposes the manifest and agreement, and checks capabilities against the agreement", async () => {
    const daemon = answeringTools({ resolveIntent: () => textResult({}) });
    const glass = await Glass.connect(daemon);
    expect(glass.manifest?.glassVersion).toBe("0.0.0-test");
    expect(glass.agreement?.capabilities.webIr?.status).toBe("available");
    expect(glass.supports("webIr")).toBe(true);
    expect(glass.supports("intentResolution")).toBe(false); // disabled by policy in the agreement
    expect(glass.supports("rawCdp")).toBe(false); // not negotiated; the manifest says false
    await expect(
      glass.browser.resolveIntent({
        schemaVersion: 1,
        intent: "renew",
        action: "click",
        resolutionPolicy: "requireExact",
      }),
    ).rejects.toMatchObject({
      code: "capability.unavailable",
      mutationPossible: false,
    });
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("fails to connect with initialize.failed when the daemon refuses the negotiation", async () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    daemon.send = async function (this: ScriptedDaemon, message: JsonRpcMessage) {
      this.received.push(message);
      if ("method" in message && message.method === "initialize" && "id" in message) {
        this.push({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32602, message: "unknown required capability: teleport" },
        });
      }
    }.bind(daemon);
    await expect(Glass.connect(daemon, { negotiation: { requires: ["teleport"] } })).rejects.toMatchObject({
      code: "initialize.failed",
      message: expect.stringContaining("unknown required capability: teleport"),
    });
  });
});

describe("Glass client calls", () => {
  it("maps a typed call to tools/call and returns the typed result", async () => {
    const daemon = answeringTools({
      diffWebIr: () => textResult({ schemaVersion: 1, fromRevision: 1, toRevision: 2 }),
    });
    const glass = await Glass.connect(daemon, { validate: { payloads: false, responses: false } });
    const result = await glass
      .requestUntyped("browser.project.read", { path: "README.md" })
      .catch((e: GlassError) => e.code);
    expect(result).toBe("mcp.methodNotFound");
    const call = toolCalls(daemon)[0]!;
    expect(call.params).toEqual({ name: "project.read", arguments: { path: "README.md" } });
    await glass.close();
  });

  it("throws a GlassError whose message names the operation, the code and the request", async () => {
    const daemon = answeringTools({
      click: () => ({
        result: {
          isError: true,
          content: [
            {
              type: "text",
              text: JSON.stringify({
                code: "staleRevision",
                message: "the observation revision is no longer current",
                retryable: true,
              }),
            },
          ],
        },
      }),
    });
    const glass = await Glass.connect(daemon);
    const error = await glass.browser
      .click({ target: "ref=r7:b42", expectedRevision: 7 }, { requestId: "r-12" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GlassError);
    expect(error).toMatchObject({
      code: "staleRevision",
      retryable: true,
      operation: "browser.click",
      requestId: "r-12",
      mutationPossible: false,
      phase: "preflight",
    });
    expect((error as Error).message).toBe(
      "glass.browser.click: staleRevision — the observation revision is no longer current (request r-12)",
    );
    await glass.close();
  });

  it("rejects a click answered with a result that is not {content: [...]} with response.invalid (the click may have happened), sent once", async () => {
    const malformed = [5, { content: "not an array" }, { content: ["text"] }, { content: [{ type: "text", text: 7 }] }];
    let next = 0;
    const daemon = answeringTools({ click: () => ({ result: malformed[next++] }) as unknown as ScriptedAnswer });
    const glass = await Glass.connect(daemon);
    for (const result of malformed) {
      const error = await glass.browser.click({ target: "ref=r7:b42" }).catch((e: unknown) => e);
      expect(error, JSON.stringify(result)).toBeInstanceOf(GlassError);
      expect(error).toMatchObject({
        code: "response.invalid",
        phase: "postDispatch",
        mutationPossible: true,
        retry: { classification: "safeAfterReobserve" },
      });
      expect((error as GlassError).rawMessage).toMatch(/answer\.result/);
    }
    expect(toolCalls(daemon)).toHaveLength(malformed.length);
    await glass.close();
  });

  it("send() takes and returns envelopes and never throws for an ok:false answer", async () => {
    const daemon = answeringTools({
      click: () => ({
        error: {
          code: -32003,
          message: "mutation lease required",
          data: { code: "policy.mutationLease", details: null },
        },
      }),
    });
    const glass = await Glass.connect(daemon);
    const response = await glass.send({
      protocolVersion: 1,
      requestId: "send-1",
      correlationId: "run-9",
      operation: "browser.click",
      payload: { target: "ref=1" },
    });
    expect(response).toMatchObject({
      protocolVersion: 1,
      requestId: "send-1",
      correlationId: "run-9",
      ok: false,
      error: { code: "leaseRequired", retryable: true },
    });
    const invalid = await glass.send({
      protocolVersion: 1,
      requestId: "has space",
      operation: "browser.click",
      payload: {},
    });
    expect(invalid).toMatchObject({ ok: false, error: { code: "request.invalid" } });
    await glass.close();
  });

  it("checks the payload before sending and answers a bad Task like the daemon would", async () => {
    const daemon = answeringTools({});
    const glass = await Glass.connect(daemon);
    const error = await glass.task
      .validate({
        task: {
          schemaVersion: 1,
          task: "form.fill",
          scope: { regionName: "Loans" },
          limits: { maxActions: 2, timeoutMs: 1000, maxItems: 1 },
          risk: "localMutation",
        },
      })
      .catch((e: GlassError) => e);
    expect(error).toMatchObject({
      code: "task.invalid",
      phase: "preflight",
      mutationPossible: false,
      details: { kind: "taskValidation", path: "inputs", reason: "form.fill requires at least one bounded input" },
    });
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("names the path in the message of a structurally bad Task or Web IR it refuses (the daemon would not explain it); a semantic failure reads as the daemon's", async () => {
    const daemon = answeringTools({});
    const glass = await Glass.connect(daemon);
    const noLimits = { schemaVersion: 1, task: "table.extract", scope: { regionName: "Orders" }, risk: "readOnly" };
    const task = await glass.task.validate({ task: noLimits } as never).catch((e: GlassError) => e);
    expect(task).toMatchObject({
      code: "task.invalid",
      rawMessage: "limits: is required",
      details: { kind: "taskValidation", path: "limits", reason: "is required" },
    });
    const ir = await glass.webIr.validate({ ir: { schemaVersion: 1 } } as never).catch((e: GlassError) => e);
    expect(ir).toMatchObject({ code: "webIr.invalid", details: { kind: "webIrValidation" } });
    const { path } = (ir as GlassError).details as { path: string };
    expect(path).not.toBe("");
    expect((ir as GlassError).rawMessage).toMatch(
      new RegExp(`^Web IR validation failed: ${path.replace(/[.[\]]/g, "\\$&")}: `),
    );
    const fillWithoutInputs = {
      schemaVersion: 1,
      task: "form.fill",
      scope: { regionName: "Loans" },
      limits: { maxActions: 2, timeoutMs: 1000, maxItems: 1 },
      risk: "localMutation",
    };
    const semantic = await glass.task.validate({ task: fillWithoutInputs } as never).catch((e: GlassError) => e);
    expect(semantic).toMatchObject({
      code: "task.invalid",
      rawMessage: "form.fill requires at least one bounded input",
      details: { path: "inputs" },
    });
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("clamps a tool's own timeoutMs to what is left of the deadline", async () => {
    const daemon = answeringTools({ wait: () => textResult({ executionId: "x" }) });
    const glass = await Glass.connect(daemon);
    await glass.browser.wait({ condition: "idle", timeoutMs: 600_000 }, { deadlineMs: 2000 });
    const timeoutMs = argumentsOf(toolCalls(daemon)[0]!).timeoutMs as number;
    expect(timeoutMs).toBeLessThanOrEqual(2000);
    expect(timeoutMs).toBeGreaterThan(1000);
    await glass.close();
  });
});

describe("deadlines and cancellation", () => {
  it("on a deadline sends notifications/cancelled and rejects with DeadlineExceededError (mutation possible for a written click)", async () => {
    const daemon = answeringTools({ click: () => ({ stall: true }), observe: () => ({ stall: true }) });
    const glass = await Glass.connect(daemon);
    const click = await glass.browser
      .click({ target: "ref=1" }, { deadlineMs: 50, requestId: "slow-click" })
      .catch((e: unknown) => e);
    expect(click).toBeInstanceOf(DeadlineExceededError);
    expect(click).toMatchObject({ code: "deadlineExceeded", mutationPossible: true, requestId: "slow-click" });
    const observe = await glass.browser.observe({}, { deadlineMs: 50 }).catch((e: unknown) => e);
    expect(observe).toMatchObject({ code: "deadlineExceeded", mutationPossible: false });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(daemon.sent("notifications/cancelled").map((m) => (m as JsonRpcRequest).params)).toEqual([
      { requestId: "slow-click", reason: "deadline exceeded" },
      expect.objectContaining({ reason: "deadline exceeded" }),
    ]);
    await glass.close();
  });

  it("an aborted call rejects with CancelledError and tells the daemon", async () => {
    const daemon = answeringTools({ getText: () => ({ stall: true }) });
    const glass = await Glass.connect(daemon);
    const controller = new AbortController();
    const call = glass.browser.getText({}, { signal: controller.signal, requestId: "text-1" });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(daemon.sent("notifications/cancelled").map((m) => (m as JsonRpcRequest).params)).toEqual([
      { requestId: "text-1", reason: "aborted by the caller" },
    ]);
    await glass.close();
  });

  it("rejects a deadline outside 1..900000 ms before sending anything", async () => {
    const daemon = answeringTools({});
    const glass = await Glass.connect(daemon);
    await expect(glass.browser.observe({}, { deadlineMs: 900_001 })).rejects.toMatchObject({ code: "request.invalid" });
    await expect(glass.browser.observe({}, { deadlineMs: 0 })).rejects.toMatchObject({ code: "request.invalid" });
    await glass.close();
  });
});

describe("retries", () => {
  const overloaded = { error: { code: -32000, message: "too many requests in flight" } };

  it("retries a read-only call on overload with backoff, then succeeds", async () => {
    let calls = 0;
    const daemon = answeringTools({ observe: () => (++calls < 3 ? overloaded : textResult(semanticObservation(1))) });
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1, maxDelayMs: 4 } });
    await expect(glass.browser.observe({})).resolves.toEqual(semanticObservation(1));
    expect(calls).toBe(3);
    await glass.close();
  });

  it("never retries a mutation on its own", async () => {
    let calls = 0;
    const daemon = answeringTools({ click: () => (calls++, overloaded) });
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1 } });
    await expect(glass.browser.click({ target: "ref=1" })).rejects.toBeInstanceOf(OverloadedError);
    expect(calls).toBe(1);
    await glass.close();
  });

  it("can turn retries off per call and per client", async () => {
    let calls = 0;
    const daemon = answeringTools({ observe: () => (calls++, overloaded) });
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1 } });
    await expect(glass.browser.observe({}, { retry: false })).rejects.toMatchObject({ code: "overloaded" });
    expect(calls).toBe(1);
    await glass.close();
    calls = 0;
    const noRetries = await Glass.connect(answeringTools({ observe: () => (calls++, overloaded) }), { retry: false });
    await expect(noRetries.browser.observe({})).rejects.toMatchObject({ code: "overloaded" });
    expect(calls).toBe(1);
    await noRetries.close();
  });

  it("retries ping on overload, each try with its own JSON-RPC id and a retry log event naming it", async () => {
    let pings = 0;
    const daemon = new ScriptedDaemon((request) =>
      request.method === "ping" && ++pings < 3 ? overloaded : { result: {} },
    );
    const events: { type: string; requestId?: string; attempt?: number; code?: string }[] = [];
    const glass = await Glass.connect(daemon, {
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      logger: (event) => events.push(event),
    });
    await expect(glass.ping()).resolves.toBeGreaterThanOrEqual(0);
    const ids = daemon.sent("ping").map((message) => String((message as JsonRpcRequest).id));
    expect(new Set(ids).size).toBe(3);
    expect(events.filter((event) => event.type === "retry")).toMatchObject([
      { requestId: ids[0], attempt: 1, code: "overloaded" },
      { requestId: ids[1], attempt: 2, code: "overloaded" },
    ]);
    await glass.close();
  });

  it("never retries a lease acquire on overload on its own", async () => {
    const daemon = new ScriptedDaemon((request) =>
      request.method === "glass/lease/acquire" ? overloaded : { result: {} },
    );
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1 } });
    await expect(glass.acquireLease({ ttlMs: 1000 })).rejects.toBeInstanceOf(OverloadedError);
    expect(daemon.sent("glass/lease/acquire")).toHaveLength(1);
    await glass.close();
  });

  it("an abort while a read waits to be retried rejects with CancelledError and sends nothing more", async () => {
    const daemon = new ScriptedDaemon((request) =>
      request.method === "ping" || request.method === "tools/call" ? overloaded : { result: {} },
    );
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const aborting = new AbortController();
    const ping = glass.ping({ signal: aborting.signal });
    const observe = glass.browser.observe({}, { signal: aborting.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    aborting.abort();
    await expect(ping).rejects.toBeInstanceOf(CancelledError);
    await expect(observe).rejects.toBeInstanceOf(CancelledError);
    expect(daemon.sent("ping")).toHaveLength(1);
    expect(toolCalls(daemon)).toHaveLength(1);
    await glass.close();
  });
});

describe("retries after a failure to write", () => {
  function flakyWriter(failures: number): ScriptedDaemon {
    const daemon = answeringTools({
      observe: () => textResult(semanticObservation(2)),
      click: () => textResult({ executionId: "e-1" }),
    });
    const send = daemon.send.bind(daemon);
    let left = failures;
    daemon.send = async (message) => {
      if ("method" in message && message.method === "tools/call" && left-- > 0)
        throw new TransportClosedError({ message: "EPIPE: write failed" });
      return send(message);
    };
    return daemon;
  }

  it("retries a read-only call whose request was never written", async () => {
    const daemon = flakyWriter(1);
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1 } });
    await expect(glass.browser.observe({})).resolves.toEqual(semanticObservation(2));
    await glass.close();
  });

  it("does not retry a mutation even when its request was never written", async () => {
    const daemon = flakyWriter(1);
    const glass = await Glass.connect(daemon, { retry: { baseDelayMs: 1 } });
    const error = await glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "transport.closed", mutationPossible: false });
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });
});

describe("flow control", () => {
  it("keeps at most maxInFlight requests in flight and queues the rest in order", async () => {
    let active = 0;
    let peak = 0;
    const order: string[] = [];
    const daemon = answeringTools({
      observe: (request) => {
        active++;
        peak = Math.max(peak, active);
        order.push(String(request.id));
        return new Promise((resolve) => setTimeout(() => (active--, resolve(textResult(semanticObservation(1)))), 5));
      },
    });
    const glass = await Glass.connect(daemon, { maxInFlight: 3 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => glass.browser.observe({}, { requestId: `o-${i}` })));
    expect(peak).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => `o-${i}`));
    await glass.close();
  });
});

describe("logging", () => {
  it("logs queued calls and numbers retry attempts, without payloads or tokens", async () => {
    let calls = 0;
    const daemon = answeringTools({
      observe: () =>
        ++calls === 1 ? { error: { code: -32000, message: "busy" } } : textResult(semanticObservation(1)),
    });
    const events: { type: string; attempt?: number }[] = [];
    const glass = await Glass.connect(daemon, {
      maxInFlight: 1,
      retry: { baseDelayMs: 1 },
      logger: (event) => events.push(event),
    });
    await Promise.all([glass.browser.observe({ level: "summary" }), glass.browser.observe({ level: "summary" })]);
    expect(events.some((e) => e.type === "queued")).toBe(true);
    expect(events.filter((e) => e.type === "request").map((e) => e.attempt)).toEqual(expect.arrayContaining([0, 1]));
    expect(JSON.stringify(events)).not.toContain('summary"');
    await glass.close();
  });
});

describe("server-to-client requests", () => {
  it("answers a daemon request with -32601 unless a handler is registered", async () => {
    const daemon = answeringTools({});
    const glass = await Glass.connect(daemon);
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: "elicitation/create",
      params: { message: "Confirm?" },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(daemon.received.find((m) => "id" in m && m.id === "glass-server-1")).toMatchObject({
      error: { code: -32601 },
    });
    await glass.close();

    const handled = answeringTools({});
    const withHandler = await Glass.connect(handled, {
      serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) },
    });
    handled.push({ jsonrpc: "2.0", id: "glass-server-2", method: "elicitation/create", params: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handled.received.find((m) => "id" in m && m.id === "glass-server-2")).toMatchObject({
      result: { action: "decline" },
    });
    expect((handled.sent("initialize")[0] as JsonRpcRequest).params).toMatchObject({
      capabilities: { elicitation: {} },
    });
    await withHandler.close();
  });
});

describe("connection loss", () => {
  it("rejects every pending call when the daemon dies, with mutationPossible only for written mutations", async () => {
    const daemon = answeringTools({ click: () => ({ stall: true }), observe: () => ({ stall: true }) });
    const glass = await Glass.connect(daemon);
    const click = glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
    const observe = glass.browser.observe({}).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    daemon.crash("the daemon exited (code 1)");
    expect(await click).toMatchObject({ code: "transport.closed", mutationPossible: true, operation: "browser.click" });
    expect(await observe).toMatchObject({ code: "transport.closed", mutationPossible: false });
    expect(await click).toBeInstanceOf(TransportClosedError);
    await expect(glass.browser.observe({})).rejects.toMatchObject({ code: "transport.closed" });
  });
});

describe("leases", () => {
  function leasingDaemon(): ScriptedDaemon {
    const expiry = (request: JsonRpcRequest) => Date.now() + ((request.params as { ttlMs: number }).ttlMs ?? 0);
    return new ScriptedDaemon((request) => {
      switch (request.method) {
        case "glass/lease/acquire":
          return {
            result: { sessionId: "s-1", ownerId: "o-1", token: "sekrit-token-1", expiresAtMs: expiry(request) },
          };
        case "glass/lease/renew":
          return {
            result: { sessionId: "s-1", ownerId: "o-1", token: "sekrit-token-1", expiresAtMs: expiry(request) },
          };
        case "glass/lease/release":
          return { result: { sessionId: "s-1", released: true } };
        default:
          return (request.params as { name: string }).name === "click"
            ? { result: { isError: true, content: [{ type: "text", text: "element not found" }] } }
            : textResult(semanticObservation(1));
      }
    }, 4);
  }

  it("attaches the token to mutating calls only, never to read-only ones, and keeps it out of messages", async () => {
    const daemon = leasingDaemon();
    const glass = await Glass.connect(daemon);
    const lease = await glass.acquireLease({ ttlMs: 60_000 });
    expect(String(lease)).not.toContain("sekrit");
    expect(JSON.stringify(lease)).not.toContain("sekrit");
    await glass.browser.observe({});
    const failure = await glass.browser.click({ target: "ref=1" }).catch((e: Error) => e);
    const [observe, click] = toolCalls(daemon);
    expect(argumentsOf(observe!)).toEqual({});
    expect(argumentsOf(click!)).toEqual({ target: "ref=1", leaseToken: "sekrit-token-1" });
    expect(failure.message).not.toContain("sekrit");
    expect(JSON.stringify(failure)).not.toContain("sekrit");
    await glass.close();
    expect(daemon.sent("glass/lease/release")).toHaveLength(1);
  });

  it("withLease renews before expiry and releases afterwards", async () => {
    const daemon = leasingDaemon();
    const glass = await Glass.connect(daemon);
    await glass.withLease(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 60));
      },
      { ttlMs: 1000, renewBeforeMs: 990 },
    );
    expect(daemon.sent("glass/lease/renew").length).toBeGreaterThanOrEqual(1);
    expect(daemon.sent("glass/lease/release")).toHaveLength(1);
    expect(glass.lease).toBeUndefined();
    await glass.close();
  });

  it("maps a -32003 lease error to a LeaseError with the daemon's code", async () => {
    const daemon = answeringTools({
      click: () => ({
        error: {
          code: -32003,
          message: "lease expired",
          data: {
            code: "policy.mutationLease",
            phase: "preflight",
            message: "lease expired",
            mutationPossible: false,
            details: { code: "leaseExpired", retryable: true },
          },
        },
      }),
    });
    const glass = await Glass.connect(daemon);
    const error = await glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseError);
    expect(error).toMatchObject({ code: "leaseExpired", retryable: true, mutationPossible: false });
    await glass.close();
  });
});

describe("errors keep their class and details through the client", () => {
  it("a transport error raised while sending keeps its subclass and its details", async () => {
    const { TransportUnavailableError } = await import("glass-sdk");
    const daemon = answeringTools({});
    const send = daemon.send.bind(daemon);
    daemon.send = async (message) => {
      if ("method" in message && message.method === "tools/call") {
        throw new TransportUnavailableError({ message: "cannot reach the bridge", details: { status: 401 } });
      }
      return send(message);
    };
    const glass = await Glass.connect(daemon, { retry: false });
    const error = await glass.browser.observe({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error).toMatchObject({ details: { status: 401 }, operation: "browser.observe" });
    await glass.close();
  });
});
