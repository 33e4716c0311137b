/**
 * httpTransport on ky, against a node:http server on 127.0.0.1 that refuses chosen POSTs: what is
 * POSTed again after 408/429/502/503/504 — a read by the client's retry, a notification or
 * `initialize` by the transport, never by both — and what never is (a mutation), how `Retry-After`
 * is read (RFC 9110: delay-seconds or an HTTP-date, anything else ignored), honoured and bounded,
 * the per-request timeout, and a caller's own ky instance (its hooks and headers). Waits are
 * measured by the server's own timestamps, as lower bounds.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { ScriptedHttpServer } from "./support/scripted-http-server.js";
import ky from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { DeadlineExceededError, Glass, TransportUnavailableError, type RetryOptions } from "glass-sdk";
import { httpTransport, type HttpTransportOptions } from "../../src/transport/http-transport.js";
import { parseRetryAfter, retryWaitMs } from "../../src/transport/http-retry.js";
import { clickPayload } from "../reliability/support/fault-rig.js";
import { failure } from "../support/glass-failure.js";
import { setTimeout as sleep } from "node:timers/promises";

/** One request as the server saw it. */
interface Seen {
  /** `DELETE`, or the JSON-RPC method POSTed (`tools/call click` for a tool call). */
  what: string;
  /** When it arrived (the server's clock, ms). */
  at: number;
  headers: IncomingHttpHeaders;
  /** The body as sent. */
  text: string;
}

/** A canned refusal: a status, its headers, and a body (default a JSON-RPC error). */
interface Refusal {
  status: number;
  headers?: Record<string, string>;
  text?: string;
}

/** `undefined`: answer normally; a Refusal: refuse; `"hold"`: never answer; `"drop"`: read the body, then cut the connection. */
type Script = (what: string, nth: number) => Refusal | "hold" | "drop" | undefined;

class RefusingServer extends ScriptedHttpServer<Seen> {
  constructor(readonly script: Script) {
    super();
  }

  protected handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const at = Date.now();
    const text = body.toString("utf8");
    if (req.method === "DELETE") {
      this.seen.push({ what: "DELETE", at, headers: req.headers, text });
      if (this.script("DELETE", this.count("DELETE")) === "hold") return; // never answered: close() ends it
      return void res.writeHead(200).end();
    }
    const message = JSON.parse(text) as {
      id?: unknown;
      method?: string;
      params?: { name?: string; protocolVersion?: string };
    };
    const what = message.method === "tools/call" ? `tools/call ${message.params?.name}` : String(message.method);
    this.seen.push({ what, at, headers: req.headers, text });
    const scripted = this.script(what, this.count(what));
    if (scripted === "hold") return;
    if (scripted === "drop") return void req.socket.destroy();
    if (scripted !== undefined) {
      const refusal =
        scripted.text ??
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: `refused with ${scripted.status}` },
        });
      const type = scripted.text === undefined ? "application/json" : "text/plain";
      return void res.writeHead(scripted.status, { "content-type": type, ...scripted.headers }).end(refusal);
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "refusing", version: "1" },
          }
        : message.method === "tools/call"
          ? { content: [{ type: "text", text: JSON.stringify({ answered: what }) }] }
          : message.method === "tools/list"
            ? { tools: ["observe", "click"].map((name) => ({ name, inputSchema: { type: "object" } })) } // the client's connect-time list: the tools these tests call
            : {};
    res
      .writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  }
}

const servers: RefusingServer[] = [];
const clients: Glass[] = [];
afterEach(async () => {
  for (const glass of clients.splice(0)) await glass.close();
  for (const server of servers.splice(0)) await server.close();
});

const OBSERVE = "tools/call observe";
const CLICK = "tools/call click";
/** Refuses the first `what` with `refusal`, answers the rest. */
const refuseFirst =
  (what: string, refusal: Refusal): Script =>
  (seen, nth) =>
    seen === what && nth === 1 ? refusal : undefined;

async function serve(script: Script): Promise<RefusingServer> {
  const server = await new RefusingServer(script).listen();
  servers.push(server);
  return server;
}

/** A client over httpTransport; the client's own retries are off, so every repeat seen is the transport's. */
async function connect(server: RefusingServer, options: Omit<HttpTransportOptions, "url"> = {}): Promise<Glass> {
  const glass = await Glass.connect(httpTransport({ url: server.url, ...options }), {
    negotiation: false,
    retry: false,
    validate: { responses: false },
  });
  clients.push(glass);
  return glass;
}

/** A client over httpTransport with the client's retries (by default its default policy: two retries of a read). */
async function connectRetrying(
  server: RefusingServer,
  options: Omit<HttpTransportOptions, "url"> = {},
  retry?: RetryOptions,
): Promise<Glass> {
  const glass = await Glass.connect(httpTransport({ url: server.url, ...options }), {
    negotiation: false,
    validate: { responses: false },
    ...(retry === undefined ? {} : { retry }),
  });
  clients.push(glass);
  return glass;
}

/** The gaps between the arrivals of `seen`, in ms (the server's clock). */
const gaps = (seen: readonly Seen[]): number[] => seen.slice(1).map((request, index) => request.at - seen[index]!.at);

describe("httpTransport when the connection drops after the daemon took a POST", () => {
  it("a mutation fails with mutationPossible true (observe before deciding) and is not POSTed again", async () => {
    const server = await serve((what, nth) => (what === CLICK && nth === 1 ? "drop" : undefined));
    const glass = await connect(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({
      code: "transport.closed",
      mutationPossible: true,
      phase: "dispatch",
      operation: "browser.click",
      retry: { classification: "safeAfterReobserve" },
    });
    expect(error.rawMessage).toMatch(/the action may have happened — observe before deciding/);
    await sleep(300);
    expect(server.count(CLICK)).toBe(1);
    // The session still serves the next call.
    expect(await glass.browser.observe({}, { deadlineMs: 10_000 })).toEqual({ answered: OBSERVE });
  });

  it("a read fails with mutationPossible false", async () => {
    const server = await serve((what, nth) => (what === OBSERVE && nth === 1 ? "drop" : undefined));
    const glass = await connect(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "transport.closed", mutationPossible: false, operation: "browser.observe" });
  });
});

describe("a refused POST is retried by one layer, after Retry-After", () => {
  it("a read refused with 503 and Retry-After: 1 is POSTed again (by the client's retry) after the wait and succeeds", async () => {
    const server = await serve(refuseFirst(OBSERVE, { status: 503, headers: { "retry-after": "1" } }));
    const glass = await connectRetrying(server);

    expect(await glass.browser.observe({}, { deadlineMs: 10_000 })).toEqual({ answered: OBSERVE });
    const [first, second] = server.of(OBSERVE);
    expect(server.count(OBSERVE)).toBe(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  it("the same 503 on a mutation is never POSTed again, by the transport or the client's retry: one request, a TransportUnavailableError", async () => {
    // Had the click been POSTed again it would have succeeded: its failure and the one POST prove it was not.
    const server = await serve(refuseFirst(CLICK, { status: 503, headers: { "retry-after": "1" } }));
    const glass = await connectRetrying(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error).toMatchObject({
      code: "transport.unavailable",
      mutationPossible: false,
      operation: "browser.click",
      details: { status: 503, retryAfterMs: 1_000 },
    });
    expect(error.rawMessage).toMatch(
      /is at its client limit \(HTTP 503\): refused with 503; retry later or raise its --max-clients/,
    );
    await sleep(1_300);
    expect(server.count(CLICK)).toBe(1);
  });

  it("a 429 with an HTTP-date Retry-After is waited for until that date", async () => {
    // An HTTP date has whole seconds: two seconds ahead is a wait of more than one.
    const server = await serve(
      refuseFirst("ping", { status: 429, headers: { "retry-after": new Date(Date.now() + 2_000).toUTCString() } }),
    );
    const glass = await connectRetrying(server);

    expect(await glass.ping({ deadlineMs: 10_000 })).toBeGreaterThanOrEqual(0);
    const [first, second] = server.of("ping");
    expect(server.count("ping")).toBe(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(800);
  });

  it("a read refused with 503 and Retry-After: 60 is POSTed once: its deadline ends before the server's time, so it fails at once saying so", async () => {
    // Before one retry budget: the transport declined the wait, then the client's retry sent it twice more within 200 ms.
    const server = await serve((what) =>
      what === OBSERVE ? { status: 503, headers: { "retry-after": "60" } } : undefined,
    );
    const glass = await connectRetrying(server);

    const started = Date.now();
    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(Date.now() - started).toBeLessThan(5_000); // at once, not at the deadline
    await sleep(300);
    expect(server.count(OBSERVE)).toBe(1);
    expect(error).toMatchObject({
      code: "transport.unavailable",
      mutationPossible: false,
      details: { status: 503, retryAfterMs: 60_000 },
    });
    expect(error.rawMessage).toMatch(/the server asks for no retry before 60 s \(Retry-After\)$/);
  });

  it("a read refused again and again with Retry-After: 1 is POSTed three times in all (the client's two retries), each after the server's wait", async () => {
    // Before one retry budget: three POSTs by the transport for each of the client's three tries, nine in all.
    const server = await serve((what) =>
      what === OBSERVE ? { status: 503, headers: { "retry-after": "1" } } : undefined,
    );
    const glass = await connectRetrying(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 20_000 }));
    await sleep(1_200);
    expect(server.count(OBSERVE)).toBe(3);
    expect(error).toMatchObject({ code: "transport.unavailable", details: { status: 503, retryAfterMs: 1_000 } });
    for (const gap of gaps(server.of(OBSERVE))) expect(gap).toBeGreaterThanOrEqual(900);
  });

  it("a Retry-After past maxRetryWaitMs is not waited for by the transport: a notification refused so is POSTed once", async () => {
    const server = await serve(
      refuseFirst("notifications/initialized", { status: 503, headers: { "retry-after": "120" } }),
    );
    const error = await failure(connect(server));
    expect(error).toMatchObject({ code: "transport.unavailable", details: { status: 503, retryAfterMs: 120_000 } });
    expect(server.count("notifications/initialized")).toBe(1);
  });

  it("close() during the client's wait before a retry: the call fails and is not POSTed again", async () => {
    const server = await serve(refuseFirst(OBSERVE, { status: 503, headers: { "retry-after": "2" } }));
    const glass = await connectRetrying(server);

    const call = failure(glass.browser.observe({}, { deadlineMs: 30_000 }));
    await expect.poll(() => server.count(OBSERVE)).toBe(1);
    await glass.close();
    expect(await call).toMatchObject({ mutationPossible: false });
    await sleep(500);
    expect(server.count(OBSERVE)).toBe(1);
  });

  it("a notification refused with 502 (no Retry-After) is POSTed again after a short backoff", async () => {
    const server = await serve(refuseFirst("notifications/initialized", { status: 502 }));
    const glass = await connect(server);

    expect(server.count("notifications/initialized")).toBe(2);
    const [first, second] = server.of("notifications/initialized");
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });

  it.each(["1.5", "-1", "+5", "0x10", "5 s", "Thu, 03 Dec 2026 12:00:00 +0000"])(
    "a Retry-After of %j is no valid delay-seconds or HTTP-date: it is ignored, and the retries wait the backoff (300 ms, then 600 ms)",
    async (retryAfter) => {
      // Before: Date.parse read "1.5" as a date in 2001, so the wait was 0 — three POSTs a few ms apart.
      const server = await serve((what, nth) =>
        what === "notifications/initialized" && nth <= 2
          ? { status: 503, headers: { "retry-after": retryAfter } }
          : undefined,
      );
      await connect(server);

      expect(server.count("notifications/initialized")).toBe(3);
      const [first, second] = gaps(server.of("notifications/initialized"));
      expect(first).toBeGreaterThanOrEqual(250);
      expect(second).toBeGreaterThanOrEqual(550);
    },
  );

  it("a read refused with an invalid Retry-After carries no retryAfterMs: the client's own backoff applies", async () => {
    const server = await serve((what) =>
      what === OBSERVE ? { status: 429, headers: { "retry-after": "1.5" } } : undefined,
    );
    const glass = await connectRetrying(server, {}, { maxRetries: 1, baseDelayMs: 400, maxDelayMs: 400 });

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "overloaded", details: { status: 429 } });
    expect((error.details as Record<string, unknown>).retryAfterMs).toBeUndefined();
    expect(server.count(OBSERVE)).toBe(2);
    expect(gaps(server.of(OBSERVE))[0]).toBeGreaterThanOrEqual(150); // the jittered backoff: at least half of 400 ms, less the clocks' slack
  });

  it("initialize is POSTed again after 503 (no session was created), but not after 502 (a gateway may have passed it on)", async () => {
    const full = await serve(refuseFirst("initialize", { status: 503, headers: { "retry-after": "0" } }));
    await connect(full);
    expect(full.count("initialize")).toBe(2);

    const gateway = await serve(refuseFirst("initialize", { status: 502 }));
    const error = await failure(connect(gateway));
    expect(error).toMatchObject({ code: "transport.unavailable", details: { status: 502 } });
    expect(gateway.count("initialize")).toBe(1);
  });

  it("the transport's maxRetries bounds its own retries (initialize), and maxRetries: 0 turns them off", async () => {
    const always: Script = (what) =>
      what === "initialize" ? { status: 503, headers: { "retry-after": "0" } } : undefined;
    const server = await serve(always);
    expect(await failure(connect(server, { maxRetries: 1 }))).toMatchObject({
      code: "transport.unavailable",
      details: { status: 503, retryAfterMs: 0 },
    });
    expect(server.count("initialize")).toBe(2);

    const once = await serve(always);
    expect(await failure(connect(once, { maxRetries: 0 }))).toMatchObject({ code: "transport.unavailable" });
    expect(once.count("initialize")).toBe(1);
  });

  it("a read's retries are the client's: its retry count bounds them, whatever the transport's maxRetries, and retry: false turns them off", async () => {
    const always: Script = (what) => (what === "ping" ? { status: 503, headers: { "retry-after": "0" } } : undefined);
    const server = await serve(always);
    const glass = await connectRetrying(server, { maxRetries: 10 }, { maxRetries: 1 });
    expect(await failure(glass.ping({ deadlineMs: 5_000 }))).toMatchObject({
      code: "transport.unavailable",
      details: { status: 503 },
    });
    expect(server.count("ping")).toBe(2);

    const once = await serve(always);
    const single = await connect(once, { maxRetries: 10 });
    expect(await failure(single.ping({ deadlineMs: 5_000 }))).toMatchObject({ code: "transport.unavailable" });
    expect(once.count("ping")).toBe(1);
  });

  it("refuses bad retry and timeout options up front", () => {
    const url = "http://127.0.0.1:1/mcp";
    expect(() => httpTransport({ url, maxRetries: -1 })).toThrow(/maxRetries must be an integer from 0 to 10/);
    expect(() => httpTransport({ url, maxRetryWaitMs: 0 })).toThrow(/maxRetryWaitMs must be a positive integer/);
    expect(() => httpTransport({ url, requestTimeoutMs: Number.NaN })).toThrow(
      /requestTimeoutMs must be a positive integer/,
    );
    for (const notKy of ["ky", 3, [], new Map(), () => undefined])
      expect(() => httpTransport({ url, ky: notKy as never })).toThrow(/ky must be a ky instance .* or ky options/);
  });

  it("reads Retry-After as RFC 9110 has it (delay-seconds, or an HTTP-date in any of its three forms), and backs off without one", () => {
    const now = Date.parse("2026-12-03T12:00:00Z");
    expect(retryWaitMs("3", 1, now)).toBe(3_000);
    expect(retryWaitMs(" 007\t", 1, now)).toBe(7_000); // the field's optional whitespace
    expect(retryWaitMs("Thu, 03 Dec 2026 12:00:05 GMT", 1, now)).toBe(5_000); // IMF-fixdate
    expect(retryWaitMs("Thursday, 03-Dec-26 12:00:05 GMT", 1, now)).toBe(5_000); // RFC 850
    expect(retryWaitMs("Thu Dec  3 12:00:05 2026", 1, now)).toBe(5_000); // asctime
    expect(retryWaitMs("Thu, 03 Dec 2026 11:00:00 GMT", 1, now)).toBe(0); // a date already past
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(0); // 94 is 1994: 2094 is more than 50 years ahead
    expect(parseRetryAfter("Friday, 03-Dec-60 12:00:00 GMT", now)).toBe(Date.parse("2060-12-03T12:00:00Z") - now);
    expect([retryWaitMs(null, 1, now), retryWaitMs("soon", 2, now)]).toEqual([300, 600]);
    // Anything else is ignored — never read as "at once" — so the backoff applies.
    for (const invalid of [
      "",
      "1.5",
      "-1",
      "+5",
      "1e3",
      "0x10",
      "٣",
      "3 s",
      "\u00a03",
      "2026-12-03T12:00:05Z",
      "Thu, 3 Dec 2026 12:00:05 GMT",
      "Thu, 03 Dec 2026 12:00:05 UTC",
      "thu, 03 dec 2026 12:00:05 GMT",
      "Thu, 31 Nov 2026 12:00:05 GMT",
      "Thu, 03 Dec 2026 24:00:00 GMT",
      "Thu Dec 3 12:00:05 2026",
      "Thu, 03-Dec-26 12:00:05 GMT",
    ]) {
      expect(parseRetryAfter(invalid, now), invalid).toBeUndefined();
      expect(retryWaitMs(invalid, 1, now), invalid).toBe(300);
    }
    expect(parseRetryAfter("9".repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER); // finite however long: past any bound
  });
});

describe("httpTransport's per-request timeout", () => {
  it("requestTimeoutMs cuts off a read whose status does not come (deadlineExceeded), never a mutation", async () => {
    const server = await serve((what) => (what === "ping" || what === CLICK ? "hold" : undefined));
    const glass = await connect(server, { requestTimeoutMs: 200 });

    const read = await failure(glass.ping({ deadlineMs: 10_000 }));
    expect(read).toBeInstanceOf(DeadlineExceededError);
    expect(read).toMatchObject({
      code: "deadlineExceeded",
      mutationPossible: false,
      details: { requestTimeoutMs: 200 },
    });
    expect(read.rawMessage).toMatch(
      /the HTTP status of ping did not come from http:\/\/127\.0\.0\.1:\d+\/mcp within requestTimeoutMs \(200 ms\)/,
    );

    // The mutation is left to the client's deadline, which knows the daemon may have acted.
    const mutation = await failure(glass.browser.click(clickPayload, { deadlineMs: 600 }));
    expect(mutation).toMatchObject({
      code: "deadlineExceeded",
      mutationPossible: true,
      rawMessage: expect.stringMatching(/^no answer within the deadline; the action may have happened/),
    });
  });

  it("close() gives up on a DELETE the server does not answer", async () => {
    const server = await serve((what) => (what === "DELETE" ? "hold" : undefined));
    const glass = await Glass.connect(httpTransport({ url: server.url }), { negotiation: false });
    await glass.close();
    expect(server.count("DELETE")).toBe(1);
  });
});

describe("httpTransport with the caller's ky instance", () => {
  it("takes ky options as well as an instance: their hooks see every request and their headers reach the server", async () => {
    const hooked: string[] = [];
    const server = await serve(() => undefined);
    const glass = await connect(server, {
      ky: {
        headers: { "x-caller": "options" },
        hooks: { beforeRequest: [(request) => void hooked.push(request.method)] },
      },
    });
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    await glass.close();
    expect(hooked).toEqual(["POST", "POST", "POST", "POST", "DELETE"]);
    for (const seen of server.seen) expect(seen.headers["x-caller"]).toBe("options");
  });

  it("its beforeRequest hook sees every request (a retry and the session DELETE included) and its header reaches the server", async () => {
    const hooked: string[] = [];
    const instance = ky.create({
      headers: { "x-caller": "mine" },
      hooks: { beforeRequest: [(request) => void hooked.push(request.method)] },
    });
    const server = await serve(refuseFirst("ping", { status: 503, headers: { "retry-after": "0" } }));
    const glass = await connectRetrying(server, { ky: instance, token: "t0ken-123" });

    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    await glass.close();
    expect(server.seen.map((seen) => seen.what)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "ping",
      "ping",
      "DELETE",
    ]);
    expect(hooked).toEqual(["POST", "POST", "POST", "POST", "POST", "DELETE"]);
    for (const seen of server.seen) {
      expect(seen.headers["x-caller"]).toBe("mine");
      expect(seen.headers.authorization).toBe("Bearer t0ken-123");
    }
  });

  it("what its hooks make is what the server receives: a header set on the request, and a Request returned in its place (its body too, on the retry)", async () => {
    const instance = ky.create({
      hooks: {
        beforeRequest: [
          (request) => void request.headers.set("x-signed", "yes"),
          async (request) => {
            const text = await request.clone().text();
            return text.includes('"ping"')
              ? new Request(request, { body: text.replace("{", '{"hooked":true,') })
              : undefined;
          },
        ],
      },
    });
    const server = await serve(refuseFirst("ping", { status: 503, headers: { "retry-after": "0" } }));
    const glass = await connectRetrying(server, { ky: instance });

    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    expect(server.of("ping").map((seen) => (JSON.parse(seen.text) as { hooked?: boolean }).hooked)).toEqual([
      true,
      true,
    ]);
    expect(server.of("initialize")[0]!.text).toMatch(/^\{"jsonrpc":"2\.0","id":.*"method":"initialize"/);
    for (const seen of server.seen) expect(seen.headers["x-signed"]).toBe("yes");
  });

  it("a Request its beforeRetry hook returns is what the transport's retry (of a notification) sends", async () => {
    const instance = ky.create({
      hooks: {
        beforeRetry: [
          async ({ request }) => {
            const text = await request.clone().text();
            return new Request(request, { body: text.replace("{", '{"retried":true,') });
          },
        ],
      },
    });
    const server = await serve(
      refuseFirst("notifications/initialized", { status: 503, headers: { "retry-after": "0" } }),
    );
    const glass = await connect(server, { ky: instance });

    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    expect(
      server.of("notifications/initialized").map((seen) => (JSON.parse(seen.text) as { retried?: boolean }).retried),
    ).toEqual([undefined, true]);
  });

  it("a retry its afterResponse hook forces (ky.retry()) never POSTs a call again: the transport alone decides what is sent twice", async () => {
    const instance = ky.create({
      hooks: {
        afterResponse: [
          async (request) => ((await request.clone().text()).includes('"tools/call"') ? ky.retry() : undefined),
        ],
      },
    });
    const server = await serve(() => undefined);
    const glass = await connect(server, { ky: instance });

    // ky gives up the forced retry as an error of its own: the call's POST failed once it was sent.
    expect(await failure(glass.browser.click(clickPayload, { deadlineMs: 5_000 }))).toMatchObject({
      code: "transport.closed",
      mutationPossible: true,
    });
    await sleep(100);
    expect(server.count(CLICK)).toBe(1);
  });

  it("the transport's settings go on top of the instance's: its timeout, retry and prefixUrl do not apply", async () => {
    const instance = ky.create({
      timeout: 50,
      retry: { limit: 5, methods: ["post"], statusCodes: [500] },
      prefixUrl: "http://elsewhere.invalid/",
    });
    const server = await serve((what, nth) =>
      what === "ping" && nth === 1 ? { status: 500, text: "boom" } : what === OBSERVE && nth === 1 ? "hold" : undefined,
    );
    const glass = await connect(server, { ky: instance });

    // No 50 ms timeout: the held observe waits for the client's deadline.
    const held = await failure(glass.browser.observe({}, { deadlineMs: 300 }));
    expect(held).toMatchObject({ code: "deadlineExceeded" });
    expect(held.rawMessage).not.toMatch(/requestTimeoutMs/);
    // No retry after 500 (the instance asked for it; the transport decides).
    expect(await failure(glass.ping({ deadlineMs: 5_000 }))).toMatchObject({
      code: "transport.http",
      details: { status: 500 },
    });
    expect(server.count("ping")).toBe(1);
  });
});
