/**
 * One redaction sweep: scenarios that produce every kind of output the SDK and its bridge write —
 * GlassError messages, `toJSON()`, `String(error)`, `util.inspect(error)` (lease errors,
 * lease-required, createRequest with invalid lease fields, a stale click under a lease, deadlines
 * and transport errors); the client's logger events over a whole leased session; `Lease` objects
 * printed every way; the bridge's log lines (HTTP and WebSocket sessions, refusals with wrong
 * tokens, `?token=` WebSocket clients, slow and malformed requests, a crashed daemon, an unreachable
 * one); the CLI's stderr (generated token, `--token`, `GLASS_BRIDGE_TOKEN`); recorded fixtures
 * (against the daemon socket under a lease, and through the bridge over HTTP and WebSocket) — and no
 * lease token or bridge token may appear in any of it, in any form (as is, JSON-escaped,
 * percent-encoded, base64/base64url at any alignment, hex, or a 16-character fragment).
 *
 * Each scenario checks its own outputs against the secrets known so far; the last test scans the
 * whole corpus against every secret learned (lease tokens are only known once granted).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocketServer } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createRequest,
  DeadlineExceededError,
  Glass,
  GlassError,
  httpTransport,
  Lease,
  LeaseError,
  TransportClosedError,
  webSocketTransport,
  type GlassLogEvent,
  type GlassRequest,
  type GlassTransport,
} from "glass-sdk";
import { socketTransport, startBridge } from "glass-sdk/node";
import { recordingTransport } from "../../../src/testing/recording-transport.js";
import { saveFixture } from "../../../src/testing/save-fixture.js";
import type { GoldenFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { fixtureToolCall } from "../../support/fixture-calls.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { mockDaemonOnSocket, mockDaemonOverStdio, type SocketMock } from "../../support/mock-daemon-transports.js";
import { daemonErrorData, ScriptedDaemon, textResult } from "../../support/scripted-daemon.js";
import {
  eventually,
  fixtureRequest,
  httpCall,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  startBridgeHarness,
  tryWebSocket,
  WsPeer,
  type BridgeHarness,
} from "../../support/bridge-harness.js";
import { rawClient } from "../support/bridge-raw-http.js";
import { ScriptedHttpServer, sseEvent } from "../../transport/support/scripted-http-server.js";
import { runCli, startupLine } from "../support/secrets-cli.js";
import {
  describeHits,
  findSecrets,
  OutputCorpus,
  occurrences,
  secretForms,
  thrown,
  type Output,
  type Secret,
} from "../support/secrets-scan.js";

// Distinctive secrets: a hit cannot be an accident.
const BRIDGE_TOKEN = "SwEeP-bridge-token.Kq7Wz3Xv9Pm2Lr8Tn4Bc6_Hd1~Yf5";
const CLI_TOKEN = "SwEeP-cli-flag-token.Gm3Rx8Vq2Lz7Wn5Kc1Pt9_Jb4~Hs6";
const ENV_TOKEN = "SwEeP-cli-env-token.Dn6Tq1Ws8Xk3Lm9Rv4Zc2_Pf7~Gb5";
const WRONG_TOKEN = "SwEeP-wrong-token.Hv2Nc7Qx5Lb9Wk3Rt8Zm1_Gs6~Jd4";
const OTHER_WRONG_TOKEN = "SwEeP-other-wrong.Bt8Lx3Wq6Nz1Kv9Rc4Mp7_Hf2~Sd5";
/** A lease token with characters JSON escapes, granted by a scripted daemon. */
const SCRIPTED_LEASE_TOKEN = 'SwEeP-lease"quoted\\back/slash-Kq7Wz3Xv9Pm2';
/** Token strings the transports and the bridge must refuse without repeating them. */
const INVALID_TOKENS = [
  "SwEeP invalid token with spaces Qx7",
  "SwEeP/invalid+token=with:colon Lm3",
  "SwEeP-invalid-token\u0007bell-Rv9",
];

const fixture = readGoldenFixture();
const clickStale = { target: "ref=r11:e4", expectedRevision: 11 } as const;
const workflowPayload = fixtureRequest("workflow-renew-all").payload as {
  workflow: string;
  inputs: Record<string, unknown>;
};

const corpus = new OutputCorpus();
/** Lease tokens learned from the daemons (random `lt-…` values), added to the final scan. */
const leaseTokens = new Set<string>();
const cleanups: (() => Promise<unknown>)[] = [];

function allSecrets(): Secret[] {
  return [
    { label: "bridge token", value: BRIDGE_TOKEN },
    { label: "CLI --token", value: CLI_TOKEN },
    { label: "GLASS_BRIDGE_TOKEN", value: ENV_TOKEN },
    { label: "wrong token presented", value: WRONG_TOKEN },
    { label: "other wrong token presented", value: OTHER_WRONG_TOKEN },
    { label: "scripted lease token", value: SCRIPTED_LEASE_TOKEN },
    ...INVALID_TOKENS.map((value, i) => ({ label: `invalid token ${i}`, value })),
    ...[...leaseTokens].map((value, i) => ({ label: `lease token ${i}`, value })),
  ];
}

/** Fails with a readable list when any secret shows up in these outputs. */
function expectClean(outputs: readonly Output[], extra: readonly Secret[] = []): void {
  expect(outputs.length).toBeGreaterThan(0);
  const hits = findSecrets(outputs, [...allSecrets(), ...extra]);
  expect(hits, describeHits(hits)).toEqual([]);
}

function remember(lease: Lease | undefined): Lease {
  if (lease === undefined) throw new Error("no lease held");
  leaseTokens.add(lease.token);
  return lease;
}

let daemon: SocketMock;

beforeAll(async () => {
  daemon = await mockDaemonOnSocket();
  cleanups.push(() => daemon.stop());
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe("secrets: the scanner", () => {
  it("finds a secret as is, JSON-escaped, percent-encoded, in base64/base64url at every alignment, in hex and as a fragment", () => {
    const secret = 'SeLf-TeSt"secret\\value/Xq8Lm3Rv7';
    const planted = [
      `a ${secret} b`,
      JSON.stringify({ note: secret }),
      JSON.stringify({ text: JSON.stringify({ note: secret }) }),
      `?q=${encodeURIComponent(secret)}`,
      ...[0, 1, 2].map((pad) => `Basic ${Buffer.from(`${"u".repeat(pad)}${secret}`).toString("base64")}`),
      ...[0, 1, 2].map((pad) => Buffer.from(`${"u".repeat(pad)}${secret}`).toString("base64url")),
      Buffer.from(secret).toString("hex"),
      `cut: ${secret.slice(3, 22)}…`,
    ];
    const hits = findSecrets(
      planted.map((text, i) => ({ source: `planted ${i}`, text })),
      [{ label: "self-test", value: secret }],
    );
    expect(hits.map((hit) => hit.source)).toEqual(planted.map((_, i) => `planted ${i}`));
    expect(
      findSecrets(
        [{ source: "clean", text: `[redacted] ${"x".repeat(100)} Lease(sess-1, expires …)` }],
        [{ label: "self-test", value: secret }],
      ),
    ).toEqual([]);
    expect(secretForms(secret).length).toBeGreaterThan(20);
  });
});

describe("secrets: GlassErrors under leases (daemon socket)", () => {
  it("lease errors, lease-required, a stale click and an unmatched click under a lease never show the token", async () => {
    const a = await Glass.connect(daemon.transport());
    const b = await Glass.connect(daemon.transport());
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const lease = remember(await a.acquireLease({ ttlMs: 30_000 }));

    const heldHere = await thrown(() => a.acquireLease({ ttlMs: 30_000 }));
    expect(heldHere).toBeInstanceOf(LeaseError);
    corpus.error("LeaseError leaseHeld (client side)", heldHere);

    const heldThere = await thrown(() => b.acquireLease({ ttlMs: 30_000 }));
    expect(heldThere).toMatchObject({ code: "leaseHeld" });
    corpus.error("LeaseError leaseHeld (daemon)", heldThere);

    const required = await thrown(() => b.browser.click(clickStale));
    expect(required).toBeInstanceOf(LeaseError);
    expect(required).toMatchObject({ code: "leaseRequired" });
    corpus.error("LeaseError leaseRequired", required);

    // Client B presents client A's token by hand: the daemon refuses it, and B's answer must not repeat it.
    const notOwner = await b.send(
      createRequest("browser.click", clickStale, { sessionId: lease.sessionId, mutationLease: lease.mutationLease }),
    );
    expect(notOwner).toMatchObject({ ok: false, error: { code: "leaseNotOwner" } });
    corpus.value("leaseNotOwner response envelope", notOwner);

    // Only the token travels (§2) and the daemon checks it with the connection, never a session id: this click runs (and is stale).
    const wrongSession = await a.send(
      createRequest("browser.click", clickStale, {
        mutationLease: { sessionId: "sess-elsewhere", token: lease.token },
      }),
    );
    expect(wrongSession).toMatchObject({ ok: false, error: { code: "staleRevision" } });
    corpus.value("response envelope of a click naming another session", wrongSession);

    const stale = await thrown(() => a.browser.click(clickStale));
    expect(stale).toBeInstanceOf(GlassError);
    expect(stale).toMatchObject({ code: "staleRevision" });
    corpus.error("staleRevision under a lease", stale);

    const unmatched = await thrown(() => a.browser.click({ target: "ref=r99:e9", expectedRevision: 12 }));
    expect(unmatched).toMatchObject({ code: "mock.unmatched" });
    corpus.error("mock.unmatched click under a lease", unmatched);

    const workflow = await a.browser.workflow(workflowPayload as never);
    corpus.value("workflow result under a lease", workflow);

    // The daemon really did receive the token (the sweep would prove nothing otherwise).
    expect(daemon.daemon.calls.some((call) => JSON.stringify(call.arguments).includes(lease.token))).toBe(true);

    await a.releaseLease();
    const notHeld = await thrown(() => a.renewLease({ ttlMs: 5_000 }));
    expect(notHeld).toMatchObject({ code: "leaseNotFound" });
    corpus.error("LeaseError leaseNotFound (client side)", notHeld);

    // A's old token after release: the daemon no longer knows it.
    const released = await a.send(
      createRequest("browser.click", clickStale, { sessionId: lease.sessionId, mutationLease: lease.mutationLease }),
    );
    expect(released).toMatchObject({ ok: false, error: { code: "leaseNotFound" } });
    corpus.value("leaseNotFound response envelope", released);
    corpus.value("the released Lease", lease);

    expectClean(corpus.outputs);
  });

  it("an expired lease (daemon side), a deadline under a lease and a crash under a lease never show the token", async () => {
    const expiring = await mockDaemonOnSocket({ faults: { leaseExpiresAfterMs: 50 } });
    const stalling = await mockDaemonOnSocket({ faults: { stallAfterCalls: 0 } });
    const crashing = await mockDaemonOnSocket({ faults: { crashAfterCalls: 0 } });
    cleanups.push(
      () => expiring.stop(),
      () => stalling.stop(),
      () => crashing.stop(),
    );

    const e = await Glass.connect(expiring.transport());
    remember(await e.acquireLease({ ttlMs: 30_000 }));
    await new Promise((resolve) => setTimeout(resolve, 120));
    const expired = await thrown(() => e.browser.click(clickStale));
    expect(expired).toMatchObject({ code: "leaseExpired" });
    corpus.error("LeaseError leaseExpired (mutating call)", expired);
    // The daemon said the lease expired, so the client dropped it: renewing now fails on the client.
    const renewExpired = await thrown(() => e.renewLease({ ttlMs: 5_000 }));
    expect(renewExpired).toMatchObject({ code: "leaseNotFound" });
    corpus.error("LeaseError leaseNotFound (renew after expiry)", renewExpired);
    // withLease whose renewal fails: the signal's reason is the error.
    const lostReason = await e.withLease(
      async (lease, signal) => {
        remember(lease);
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        return signal.reason as unknown;
      },
      { ttlMs: 1000, renewBeforeMs: 950 },
    );
    expect(lostReason).toBeInstanceOf(LeaseError);
    corpus.error("withLease renewal failure (signal.reason)", lostReason);
    await e.close();

    const s = await Glass.connect(stalling.transport());
    const deadline = await s.withLease(async (lease) => {
      remember(lease);
      return thrown(() => s.browser.click(clickStale, { deadlineMs: 150 }));
    });
    expect(deadline).toBeInstanceOf(DeadlineExceededError);
    expect(deadline).toMatchObject({ mutationPossible: true });
    corpus.error("DeadlineExceededError under a lease", deadline);
    await s.close();

    const c = await Glass.connect(crashing.transport());
    remember(await c.acquireLease({ ttlMs: 30_000 }));
    const crashed = await thrown(() => c.browser.click(clickStale));
    expect(crashed).toBeInstanceOf(TransportClosedError);
    corpus.error("TransportClosedError, daemon crashed under a lease", crashed);
    const after = await thrown(() => c.browser.observe({ level: "summary" }));
    corpus.error("call after the crash", after);
    await c.close();

    expectClean(corpus.outputs);
  });
});

describe("secrets: createRequest with invalid lease fields", () => {
  const token = "SwEeP-createRequest-token.Xn4Kq9Lw2Vb7";
  const cases: [string, Record<string, unknown>][] = [
    ["a token with whitespace", { mutationLease: { sessionId: "sess-1", token: `${token} and more` } }],
    ["a token with a control character", { mutationLease: { sessionId: "sess-1", token: `${token}\u0001` } }],
    ["a token over 128 bytes", { mutationLease: { sessionId: "sess-1", token: `${token}-${"Z".repeat(140)}` } }],
    ["an unknown field next to the token", { mutationLease: { sessionId: "sess-1", token, note: "x" } }],
    ["a lease without its session id", { mutationLease: { token } }],
    ["a session id that is not the lease's", { sessionId: "sess-2", mutationLease: { sessionId: "sess-1", token } }],
    ["a lease given as the bare token", { mutationLease: token }],
    ["the token in an array", { mutationLease: { sessionId: "sess-1", token: [token] } }],
    [
      "the JSON-special scripted token with a mismatched session",
      { sessionId: "sess-2", mutationLease: { sessionId: "sess-1", token: SCRIPTED_LEASE_TOKEN } },
    ],
    [
      "the JSON-special scripted token with whitespace",
      { mutationLease: { sessionId: "sess-1", token: `${SCRIPTED_LEASE_TOKEN} x` } },
    ],
  ];

  it.each(cases)(
    "%s: request.invalid without the token, from createRequest and from glass.send",
    async (name, options) => {
      const error = await thrown(() => createRequest("browser.click", clickStale, options as never));
      expect(error).toBeInstanceOf(GlassError);
      expect(error).toMatchObject({ code: "request.invalid" });
      const outputs = new OutputCorpus();
      outputs.error(`createRequest (${name})`, error);
      // The same envelope handed to glass.send (which validates it itself).
      const glass = Glass.create(daemon.transport());
      const envelope = {
        protocolVersion: 1,
        requestId: "r-1",
        operation: "browser.click",
        payload: clickStale,
        ...options,
      } as unknown as GlassRequest;
      const answer = await glass.send(envelope);
      expect(answer).toMatchObject({ ok: false, error: { code: "request.invalid" } });
      outputs.value(`glass.send (${name})`, answer);
      await glass.close();
      corpus.outputs.push(...outputs.outputs);
      expectClean(outputs.outputs, [{ label: "createRequest token", value: token }]);
    },
  );
});

describe("secrets: the client's logger and Lease objects", () => {
  it("logger events of a whole leased session (acquire, calls, retries, cancels, renewals, release) carry no token", async () => {
    const overloaded = await mockDaemonOnSocket({
      latencyMs: 20,
      faults: { overloadBurst: { afterCalls: 0, count: 1 } },
    });
    cleanups.push(() => overloaded.stop());
    const events: GlassLogEvent[] = [];
    const glass = await Glass.connect(overloaded.transport(), {
      logger: (event) => events.push(event),
      retry: { baseDelayMs: 1 },
    });
    const held = await glass.withLease(
      async (lease) => {
        remember(lease);
        await glass.browser.observe({ level: "summary" }); // overloaded once, retried
        await thrown(() => glass.browser.click(clickStale));
        await glass.browser.workflow(workflowPayload as never);
        const controller = new AbortController();
        const aborted = glass.browser
          .observe({ level: "summary" }, { signal: controller.signal })
          .catch((error: unknown) => error);
        await new Promise((resolve) => setTimeout(resolve, 5)); // written, not answered yet (20 ms latency)
        controller.abort();
        corpus.error("CancelledError (aborted observe)", await aborted);
        await new Promise((resolve) => setTimeout(resolve, 450)); // renewals happen meanwhile
        return lease;
      },
      { ttlMs: 1000, renewBeforeMs: 800 },
    );
    await glass.close();
    const actions = events
      .filter((event) => event.type === "lease")
      .map((event) => (event as { action: string }).action);
    expect(actions[0]).toBe("acquired");
    expect(actions.filter((action) => action === "renewed").length).toBeGreaterThanOrEqual(1);
    expect(actions.at(-1)).toBe("released");
    // connection: the handshake ("initialized: …") and the end of the connection
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set(["request", "response", "retry", "cancel", "lease", "connection"]),
    );
    expect(overloaded.daemon.calls.some((call) => JSON.stringify(call.arguments).includes(held.token))).toBe(true);

    corpus.text("logger events (JSON)", JSON.stringify(events));
    corpus.value("logger events", events);
    events.forEach((event, i) => corpus.value(`logger event ${i} (${event.type})`, event));
    expectClean(corpus.from("logger"));
  });

  it("a Lease printed every way (String, JSON, util.inspect, util.format, console.log/dir/table) hides its token", async () => {
    const leases: [string, Lease][] = [];
    const glass = await Glass.connect(daemon.transport());
    leases.push(["a granted lease", remember(await glass.acquireLease({ ttlMs: 30_000 }))]);
    leases.push([
      "a lease with a JSON-special token",
      new Lease({
        sessionId: "sess-scripted",
        ownerId: "client-9",
        token: SCRIPTED_LEASE_TOKEN,
        expiresAtMs: Date.parse("2030-01-01T00:00:00Z"),
      }),
    ]);
    for (const [name, lease] of leases) {
      corpus.value(`Lease (${name})`, lease);
      corpus.value(`Lease inside a client (${name})`, { glassLease: lease, nested: { deeper: [lease] } });
      corpus.text(
        `Lease (${name}): spread, keys, entries, structuredClone`,
        JSON.stringify([{ ...lease }, Object.keys(lease), Object.entries(lease), structuredClone({ ...lease })]),
      );
      corpus.text(
        `Lease (${name}): Object.getOwnPropertyNames`,
        JSON.stringify(
          Object.getOwnPropertyNames(lease).map((key) => [key, (lease as unknown as Record<string, unknown>)[key]]),
        ),
      );
      corpus.text(
        `Lease (${name}): console.table`,
        (await import("../support/secrets-scan.js")).captureConsole((console) => console.table([lease])),
      );
    }
    // The client that holds a lease, inspected deeply.
    corpus.value("Glass client holding a lease", glass);
    // The lease's own token is readable on purpose (for hand-built requests), and not elsewhere.
    expect(leases[0]![1].token).toMatch(/^lt-[0-9a-f]{24}$/);
    await glass.close();
    expectClean(corpus.from("Lease"));
    expectClean(corpus.from("Glass client"));
  });

  it("a scripted daemon with a JSON-special lease token: lease errors, logger events and the Lease stay clean", async () => {
    const events: GlassLogEvent[] = [];
    const scripted = new ScriptedDaemon((request) => {
      const grant = {
        sessionId: "sess-scripted",
        ownerId: "client-1",
        token: SCRIPTED_LEASE_TOKEN,
        expiresAtMs: Date.now() + 60_000,
      };
      if (request.method === "glass/lease/acquire" || request.method === "glass/lease/renew") return { result: grant };
      if (request.method === "glass/lease/release") return { result: { sessionId: "sess-scripted", released: true } };
      const args = (request.params?.arguments ?? {}) as Record<string, unknown>;
      if (args.leaseToken !== undefined) {
        const message = "the mutation lease belongs to another client";
        return {
          error: {
            code: -32003,
            message,
            data: daemonErrorData("policy.mutationLease", message, { code: "leaseNotOwner", retryable: false }),
          },
        };
      }
      return textResult({ revision: 12 });
    });
    const glass = await Glass.connect(scripted, { logger: (event) => events.push(event) });
    const error = await glass.withLease(
      async (lease) => {
        expect(lease.token).toBe(SCRIPTED_LEASE_TOKEN);
        await glass.renewLease({ ttlMs: 60_000 });
        corpus.value("scripted Lease", lease);
        return thrown(() => glass.browser.click(clickStale));
      },
      { ttlMs: 60_000 },
    );
    expect(error).toBeInstanceOf(LeaseError);
    corpus.error("scripted LeaseError leaseNotOwner", error);
    await glass.close();
    // The token did travel to the daemon.
    expect(JSON.stringify(scripted.sent("tools/call"))).toContain(JSON.stringify(SCRIPTED_LEASE_TOKEN).slice(1, -1));
    corpus.text("scripted logger events", JSON.stringify(events));
    expectClean(corpus.from("scripted"));
  });
});

describe("secrets: transport errors", () => {
  let harness: BridgeHarness;
  beforeAll(async () => {
    harness = await startBridgeHarness({ token: BRIDGE_TOKEN });
    cleanups.push(() => harness.stop());
  });

  it("refused tokens, unreachable daemons, a crashed stdio daemon and unusable token options never repeat a token", async () => {
    const { bridge } = harness;
    const connectError = async (transport: GlassTransport, source: string): Promise<void> => {
      const error = await thrown(() => Glass.connect(transport));
      expect(error).toBeInstanceOf(GlassError);
      corpus.error(`transport error: ${source}`, error);
    };
    await connectError(socketTransport({ path: join(tmpdir(), "glass-sweep-absent.sock") }), "no daemon at the socket");
    await connectError(httpTransport({ url: bridge.url, token: WRONG_TOKEN }), "HTTP, wrong token");
    await connectError(httpTransport({ url: bridge.url }), "HTTP, no token");
    await connectError(
      httpTransport({ url: bridge.url.replace(/\/mcp$/, "/elsewhere"), token: BRIDGE_TOKEN }),
      "HTTP, wrong path with the right token",
    );
    await connectError(webSocketTransport({ url: bridge.wsUrl, token: WRONG_TOKEN }), "WebSocket, wrong token");
    await connectError(webSocketTransport({ url: bridge.wsUrl }), "WebSocket, no token");
    await connectError(
      httpTransport({ url: "http://127.0.0.1:9/mcp", token: BRIDGE_TOKEN }),
      "HTTP, nothing listening",
    );
    await connectError(
      webSocketTransport({ url: "ws://127.0.0.1:9/mcp", token: BRIDGE_TOKEN }),
      "WebSocket, nothing listening",
    );

    // A server that selects the token's subprotocol entry instead of mcp.
    const rogue = new WebSocketServer({
      port: 0,
      host: "127.0.0.1",
      handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith("glass-bearer.")) ?? false,
    });
    cleanups.push(() => new Promise<void>((resolve) => rogue.close(() => resolve())));
    await new Promise<void>((resolve) => rogue.once("listening", () => resolve()));
    const roguePort = (rogue.address() as { port: number }).port;
    await connectError(
      webSocketTransport({ url: `ws://127.0.0.1:${roguePort}/mcp`, token: BRIDGE_TOKEN }),
      "WebSocket, server selected the token subprotocol",
    );

    // Unusable token options: refused without being repeated.
    for (const [i, invalid] of INVALID_TOKENS.entries()) {
      corpus.error(
        `httpTransport invalid token ${i}`,
        await thrown(() => httpTransport({ url: bridge.url, token: invalid })),
      );
      corpus.error(
        `webSocketTransport invalid token ${i}`,
        await thrown(() => webSocketTransport({ url: bridge.wsUrl, token: invalid })),
      );
      corpus.error(
        `startBridge invalid token ${i}`,
        await thrown(() =>
          startBridge({ upstream: { socket: "/nonexistent.sock" }, token: invalid, log: () => undefined }),
        ),
      );
    }

    // A stdio daemon child that crashes mid-call: the error quotes its stderr.
    const stdio = await Glass.connect(mockDaemonOverStdio(["--faults", '{"crashAfterCalls":0}']));
    const crashed = await thrown(() => stdio.browser.observe({ level: "summary" }));
    expect(crashed).toBeInstanceOf(TransportClosedError);
    expect(String(crashed)).toMatch(/crashing on purpose/);
    corpus.error("transport error: stdio daemon child crashed", crashed);
    await stdio.close();

    // A session through the bridge that then loses the bridge.
    const glass = await Glass.connect(httpTransport({ url: bridge.url, token: BRIDGE_TOKEN }));
    const ws = await Glass.connect(webSocketTransport({ url: bridge.wsUrl, token: BRIDGE_TOKEN }));
    await glass.browser.observe({ level: "summary" });
    await ws.browser.observe({ level: "summary" });
    await harness.stop();
    corpus.error(
      "transport error: HTTP after the bridge closed",
      await thrown(() => glass.browser.observe({ level: "summary" })),
    );
    corpus.error(
      "transport error: WebSocket after the bridge closed",
      await thrown(() => ws.browser.observe({ level: "summary" })),
    );
    await glass.close();
    await ws.close();

    expect(corpus.from("transport error").length).toBeGreaterThan(50);
    expectClean(corpus.from("transport error"));
    expectClean(corpus.from("httpTransport"));
    expectClean(corpus.from("webSocketTransport"));
    expectClean(corpus.from("startBridge"));
  });
});

/**
 * A server that quotes the client's token back at the end of every refusal, where the transport's
 * 200-byte quote of a body cuts it: `initialize` answered with `status` (when set), a call's SSE
 * stream closed after its priming event (so the call resumes with GET), and every GET answered with
 * `getStatus`.
 */
class EchoingRefuser extends ScriptedHttpServer<{ what: string }> {
  status: number | undefined;
  getStatus = 404;
  constructor(readonly body: string) {
    super();
  }

  protected handle(req: IncomingMessage, res: ServerResponse, posted: Buffer): void {
    if (req.method === "GET") {
      this.seen.push({ what: "GET" });
      return void res.writeHead(this.getStatus, { "content-type": "application/json" }).end(this.body);
    }
    if (req.method === "DELETE") return void res.writeHead(200).end();
    const body = JSON.parse(posted.toString("utf8")) as {
      id?: number | string;
      method?: string;
      params?: { protocolVersion?: string };
    };
    this.seen.push({ what: body.method ?? "answer" });
    if (body.method === "initialize" && this.status !== undefined)
      return void res.writeHead(this.status, { "content-type": "application/json" }).end(this.body);
    if (body.id === undefined) return void res.writeHead(202).end();
    if (body.method === "initialize") {
      const result = {
        protocolVersion: body.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "echoing", version: "1" },
      };
      return void res
        .writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }));
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(sseEvent({ id: "p-1", retry: 10 }));
    setTimeout(() => res.end(), 20);
  }
}

describe("secrets: a token cut in half where a refusal is quoted", () => {
  /**
   * Bodies whose quote (200 bytes, the cut mark included) is cut inside the token, 42 characters of
   * it kept and fewer; and JSON-RPC errors whose message the client cuts inside it (512 bytes).
   */
  const bodies = [150, 160, 180, 480, 500].flatMap((pad) => [
    JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32001, message: `${"r".repeat(pad - 7)}Bearer ${BRIDGE_TOKEN}` },
    }),
    `${"x".repeat(pad)}${BRIDGE_TOKEN}`,
  ]);

  it("a 400, 401, 403, 409, 429, 500, 502, 503 or 504 whose body ends with the bearer token leaves no part of it in the error or the logger's events", async () => {
    for (const [b, body] of bodies.entries()) {
      const server = await new EchoingRefuser(body).listen();
      cleanups.push(() => server.close());
      for (const status of [400, 401, 403, 409, 429, 500, 502, 503, 504]) {
        server.status = status;
        const events: GlassLogEvent[] = [];
        const error = await thrown(() =>
          Glass.connect(httpTransport({ url: server.url, token: BRIDGE_TOKEN, maxRetries: 0 }), {
            negotiation: false,
            retry: false,
            logger: (event) => events.push(event),
          }),
        );
        expect(error).toBeInstanceOf(GlassError);
        corpus.error(`cut quote: HTTP ${status}, body ${b}`, error);
        corpus.text(`cut quote: HTTP ${status}, body ${b}: logger events`, JSON.stringify(events));
      }
    }
    expectClean(corpus.from("cut quote: HTTP"));
  });

  it("a 404 on a resumed call's GET and a refused server-stream GET whose bodies end with the token leave no part of it in the error or the logger's events", async () => {
    for (const [b, body] of bodies.entries()) {
      const server = await new EchoingRefuser(body).listen();
      cleanups.push(() => server.close());
      const events: GlassLogEvent[] = [];
      const glass = await Glass.connect(
        httpTransport({ url: server.url, token: BRIDGE_TOKEN, maxRetries: 0, serverStream: true }),
        {
          negotiation: false,
          retry: false,
          validate: { responses: false },
          logger: (event) => events.push(event),
        },
      );
      await eventually(
        () => events.some((event) => event.type === "connection" && event.detail.includes("serverStream")),
        "the refused server-stream GET was logged",
      );
      const error = await thrown(() => glass.browser.observe({ level: "summary" }, { deadlineMs: 10_000 }));
      expect(String((error as GlassError).rawMessage)).toContain("HTTP 404");
      await glass.close();
      corpus.error(`cut quote: resumed GET 404, body ${b}`, error);
      corpus.text(`cut quote: GETs 404, body ${b}: logger events`, JSON.stringify(events));
    }
    expectClean(corpus.from("cut quote: resumed GET"));
    expectClean(corpus.from("cut quote: GETs"));
  });

  it("an over-long Origin or MCP-Protocol-Version header carrying the token leaves no part of it in the bridge's log or its answer", async () => {
    const harness = await startBridgeHarness({ token: BRIDGE_TOKEN });
    cleanups.push(() => harness.stop());
    const { bridge, logs } = harness;
    const answers: Output[] = [];
    for (const pad of [200, 213, 230, 250]) {
      const origin = `http://${"o".repeat(pad)}.test/${BRIDGE_TOKEN}`;
      const refused = await httpCall(bridge.url, {
        method: "POST",
        headers: { ...mcpHeaders(BRIDGE_TOKEN), origin },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS }),
      });
      expect(refused.status).toBe(403);
      answers.push({ source: `cut quote: bridge answer to Origin ${pad}`, text: refused.body });
    }
    const sessionId = await openHttpSession(bridge);
    for (const pad of [10, 20, 30]) {
      const version = `${"v".repeat(pad)}${BRIDGE_TOKEN}`;
      const refused = await httpCall(bridge.url, {
        method: "POST",
        headers: { ...mcpHeaders(BRIDGE_TOKEN, sessionId), "mcp-protocol-version": version },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(refused.status).toBe(400);
      answers.push({ source: `cut quote: bridge answer to MCP-Protocol-Version ${pad}`, text: refused.body });
    }
    await eventually(
      () => logs.filter((line) => /MCP-Protocol-Version/.test(line)).length >= 3,
      "the version refusals were logged",
    );
    expect(logs.filter((line) => /Origin/.test(line)).length).toBeGreaterThanOrEqual(4);
    for (const [i, line] of logs.entries()) corpus.text(`cut quote: bridge log line ${i}`, line);
    expectClean(corpus.from("cut quote: bridge log"));
    // The answers go back to the client that sent the token; they are bounded and quote no cut part of it either.
    expectClean(answers);
  });
});

describe("secrets: the bridge's log lines and recorded fixtures through it", () => {
  it("HTTP and WebSocket sessions under leases, ?token= clients, refusals, slow, malformed and oversized requests, crashed and unreachable daemons: no token in any log line, answer or fixture", async () => {
    const harness = await startBridgeHarness(
      {
        token: BRIDGE_TOKEN,
        headersTimeoutMs: 300,
        requestTimeoutMs: 400,
        maxMessageBytes: 8192,
        allowedOrigins: ["http://localhost:5173"],
      },
      { faults: { crashAfterCalls: 40 } },
    );
    cleanups.push(() => harness.stop());
    const { bridge, logs } = harness;
    const answers: Output[] = [];
    const keep = (source: string, answer: { status: number; body: string }): void =>
      void answers.push({ source: `bridge answer: ${source} (${answer.status})`, text: answer.body });

    // HTTP: Glass over the HTTP transport, recorded, under a lease.
    const httpRecorder = recordingTransport(httpTransport({ url: bridge.url, token: BRIDGE_TOKEN }));
    const overHttp = await Glass.connect(httpRecorder);
    await overHttp.withLease(
      async (lease) => {
        remember(lease);
        await overHttp.browser.observe({ level: "summary" });
        corpus.error("bridge HTTP: stale click under a lease", await thrown(() => overHttp.browser.click(clickStale)));
        await overHttp.browser.workflow(workflowPayload as never);
        await overHttp.renewLease({ ttlMs: 30_000 });
      },
      { ttlMs: 30_000 },
    );
    await overHttp.close();

    // WebSocket: Glass over the WebSocket transport (glass-bearer subprotocol), recorded, under a lease.
    const wsRecorder = recordingTransport(webSocketTransport({ url: bridge.wsUrl, token: BRIDGE_TOKEN }));
    const overWs = await Glass.connect(wsRecorder);
    await overWs.withLease(async (lease) => {
      remember(lease);
      corpus.error("bridge WebSocket: stale click under a lease", await thrown(() => overWs.browser.click(clickStale)));
      await overWs.browser.workflow(workflowPayload as never);
    });
    await overWs.close();

    // A ?token= WebSocket client and an Authorization-header WebSocket client.
    for (const [how, target, headers] of [
      ["?token=", `${bridge.wsUrl}?token=${BRIDGE_TOKEN}`, {}],
      ["Authorization header", bridge.wsUrl, { Authorization: `Bearer ${BRIDGE_TOKEN}` }],
    ] as const) {
      const upgrade = await tryWebSocket(target, ["mcp"], { headers });
      if (!("socket" in upgrade)) throw new Error(`${how} upgrade refused: ${upgrade.status}`);
      const peer = new WsPeer(upgrade.socket);
      await peer.handshake();
      answers.push({
        source: `bridge answer: WebSocket ${how} tools/call`,
        text: JSON.stringify(await peer.request(1, "tools/call", fixtureToolCall(fixtureRequest("observe-loans")))),
      });
      upgrade.socket.close();
      await peer.closed;
    }

    // Refusals, with wrong tokens and with the right token in the wrong places.
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    const { Authorization: _, ...noToken } = mcpHeaders(BRIDGE_TOKEN);
    keep("no token", await httpCall(bridge.url, { headers: noToken, body: initialize }));
    keep("wrong token", await httpCall(bridge.url, { headers: mcpHeaders(WRONG_TOKEN), body: initialize }));
    keep("other wrong token", await httpCall(bridge.url, { headers: mcpHeaders(OTHER_WRONG_TOKEN), body: initialize }));
    keep(
      "token with a suffix",
      await httpCall(bridge.url, {
        headers: { ...mcpHeaders(BRIDGE_TOKEN), Authorization: `Bearer ${BRIDGE_TOKEN}-and-more` },
        body: initialize,
      }),
    );
    keep(
      "token as Basic",
      await httpCall(bridge.url, {
        headers: {
          ...mcpHeaders(BRIDGE_TOKEN),
          Authorization: `Basic ${Buffer.from(`x:${BRIDGE_TOKEN}`).toString("base64")}`,
        },
        body: initialize,
      }),
    );
    keep(
      "?token= on HTTP",
      await httpCall(`${bridge.url}?token=${BRIDGE_TOKEN}`, { headers: noToken, body: initialize }),
    );
    keep(
      "foreign Origin",
      await httpCall(`${bridge.url}?token=${BRIDGE_TOKEN}`, {
        headers: { ...mcpHeaders(BRIDGE_TOKEN), Origin: "http://evil.example" },
        body: initialize,
      }),
    );
    // A token the client itself put in its Host or Origin header comes back to that client in the
    // 403 body (the refusal quotes the header); that is no exposure, so those two bodies are not
    // scanned — the log lines of these refusals are.
    const echoedToSender = [
      await httpCall(bridge.url, {
        headers: { ...mcpHeaders(BRIDGE_TOKEN), Host: `${BRIDGE_TOKEN}.evil.example:${bridge.port}` },
        body: initialize,
      }),
      await httpCall(bridge.url, {
        headers: { ...mcpHeaders(BRIDGE_TOKEN), Origin: `http://${BRIDGE_TOKEN}.evil.example` },
        body: initialize,
      }),
    ];
    expect(echoedToSender.map((answer) => answer.status)).toEqual([403, 403]);
    keep(
      "token in the path",
      await httpCall(`${bridge.url.replace(/\/mcp$/, `/${BRIDGE_TOKEN}`)}?token=${BRIDGE_TOKEN}`, {
        headers: mcpHeaders(BRIDGE_TOKEN),
        body: initialize,
      }),
    );
    keep("GET", await httpCall(bridge.url, { method: "GET", headers: mcpHeaders(BRIDGE_TOKEN) }));
    keep(
      "unknown session",
      await httpCall(bridge.url, {
        headers: mcpHeaders(BRIDGE_TOKEN, "00000000-0000-4000-8000-000000000000"),
        body: initialize.replace('"initialize"', '"ping"'),
      }),
    );
    for (const [how, target, protocols] of [
      ["wrong glass-bearer", bridge.wsUrl, ["mcp", `glass-bearer.${WRONG_TOKEN}`]],
      ["wrong ?token=", `${bridge.wsUrl}?token=${OTHER_WRONG_TOKEN}`, ["mcp"]],
      ["right ?token= without mcp", `${bridge.wsUrl}?token=${BRIDGE_TOKEN}`, ["graphql-ws"]],
      ["right and wrong together", `${bridge.wsUrl}?token=${WRONG_TOKEN}`, ["mcp", `glass-bearer.${BRIDGE_TOKEN}`]],
    ] as const) {
      const outcome = await tryWebSocket(target, [...protocols]);
      if ("socket" in outcome) throw new Error(`${how} was accepted`);
      keep(`WebSocket ${how}`, outcome);
    }
    const foreign = await tryWebSocket(`${bridge.wsUrl}?token=${BRIDGE_TOKEN}`, ["mcp"], {
      origin: "http://evil.example",
    });
    if ("socket" in foreign) throw new Error("foreign origin accepted");
    keep("WebSocket foreign Origin with ?token=", foreign);

    // A slow request carrying the token, a malformed one carrying it in a bad header, an oversized WebSocket message.
    const slow = rawClient(bridge.port, {
      initial: `POST /mcp?token=${BRIDGE_TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nAuthorization: Bearer ${BRIDGE_TOKEN}\r\n`,
    });
    const malformed = rawClient(bridge.port, {
      initial: `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nBad Header ${BRIDGE_TOKEN}: x\r\n\r\n`,
    });
    const [slowOutcome, malformedOutcome] = await Promise.all([slow.outcome, malformed.outcome]);
    answers.push(
      { source: "bridge answer: slow request", text: slowOutcome.text },
      { source: "bridge answer: malformed request", text: malformedOutcome.text },
    );
    const big = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${BRIDGE_TOKEN}`]);
    if (!("socket" in big)) throw new Error("upgrade refused");
    const bigPeer = new WsPeer(big.socket);
    bigPeer.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "type", arguments: { text: BRIDGE_TOKEN.repeat(400) } },
    });
    expect((await bigPeer.closed).code).toBe(1009);
    expect(logs.some((line) => line.startsWith("closed a slow request"))).toBe(true);
    expect(logs.some((line) => line.startsWith("refused a malformed HTTP request"))).toBe(true);

    // The daemon crashes under a session (its 41st call), and an HTTP session is ended by DELETE.
    const sessionId = await openHttpSession(bridge);
    while (!harness.daemon.crashed)
      await post(
        bridge,
        {
          jsonrpc: "2.0",
          id: harness.daemon.calls.length + 1000,
          method: "tools/call",
          params: fixtureToolCall(fixtureRequest("observe-loans")),
        },
        sessionId,
      );
    await eventually(
      () => logs.some((line) => /ended \(http\): the daemon connection closed/.test(line)),
      "the crash was logged",
    );
    const fresh = await openHttpSession(bridge);
    await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(BRIDGE_TOKEN, fresh) });

    // An unreachable daemon behind a bridge with the same token, and a bridge shut down under a pending call.
    const dir = await mkdtemp(join(tmpdir(), "glass-sweep-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const unreachableLogs: string[] = [];
    const unreachable = await startBridge({
      port: 0,
      token: BRIDGE_TOKEN,
      upstream: { socket: join(dir, "absent.sock") },
      log: (line) => unreachableLogs.push(line),
    });
    keep(
      "unreachable daemon",
      await httpCall(unreachable.url, { headers: mcpHeaders(BRIDGE_TOKEN), body: initialize }),
    );
    keep(
      "unreachable daemon, WebSocket",
      await tryWebSocket(unreachable.wsUrl, ["mcp", `glass-bearer.${BRIDGE_TOKEN}`]).then((o) =>
        "socket" in o ? { status: 101, body: "" } : o,
      ),
    );
    await unreachable.close();
    const stalling = await startBridgeHarness({ token: BRIDGE_TOKEN }, { faults: { stallAfterCalls: 0 } });
    cleanups.push(() => stalling.stop());
    const pendingSession = await openHttpSession(stalling.bridge);
    const pending = post(
      stalling.bridge,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      pendingSession,
    );
    await stalling.daemon.waitFor((d) => d.calls.length === 1);
    await stalling.bridge.close();
    answers.push({ source: "bridge answer: pending call at shutdown", text: await (await pending).text() });

    // Every log line, every answer, every recorded fixture (as returned and as saved).
    const allLogs = [...logs, ...unreachableLogs, ...stalling.logs];
    expect(allLogs.filter((line) => line.startsWith("refused ")).length).toBeGreaterThanOrEqual(16);
    expect(allLogs.filter((line) => / started \((http|websocket)/.test(line)).length).toBeGreaterThanOrEqual(6);
    allLogs.forEach((line, i) => corpus.text(`bridge log line ${i}`, line));
    corpus.outputs.push(...answers);
    const fixtures: [string, GoldenFixture][] = [
      ["recorded over HTTP through the bridge", httpRecorder.fixture()],
      ["recorded over WebSocket through the bridge", wsRecorder.fixture()],
    ];
    for (const [name, recorded] of fixtures) {
      expect(recorded.requests.map((r) => r.operation)).toEqual(
        expect.arrayContaining(["browser.click", "browser.workflow"]),
      );
      const click = recorded.requests.find((r) => r.operation === "browser.click");
      expect(click?.payload).not.toHaveProperty("leaseToken");
      if (click?.mutationLease !== undefined) expect(click.mutationLease.token).toBe("[redacted]");
      const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
      await saveFixture(file, recorded);
      corpus.text(`fixture ${name}`, JSON.stringify(recorded));
      corpus.text(`fixture ${name} (saved file)`, await readFile(file, "utf8"));
    }
    expectClean(corpus.from("bridge"));
    expectClean(corpus.from("fixture"));
  });

  it("a fixture recorded against the daemon socket under a lease holds no lease token", async () => {
    const recorder = recordingTransport(daemon.transport());
    const glass = await Glass.connect(recorder);
    for (const request of fixture.requests) {
      await glass.withLease(async (lease) => {
        remember(lease);
        const { mutationLease: _lease, sessionId: _session, ...rest } = request as unknown as GlassRequest;
        await glass.send(rest as GlassRequest, { validate: false });
      });
    }
    await glass.close();
    const recorded = recorder.fixture();
    expect(recorded.requests).toHaveLength(fixture.requests.length);
    const dir = await mkdtemp(join(tmpdir(), "glass-sweep-socket-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await saveFixture(join(dir, "socket.json"), recorded);
    corpus.text("fixture recorded on the daemon socket", JSON.stringify(recorded));
    corpus.text("fixture recorded on the daemon socket (saved file)", await readFile(join(dir, "socket.json"), "utf8"));
    expectClean(corpus.from("fixture recorded on the daemon socket"));
  });
});

describe("secrets: the CLI's stderr", () => {
  /** Drives a CLI bridge: a leased HTTP session that ends in a daemon crash, refusals, a ?token= WebSocket client, a WebSocket transport. */
  async function exercise(url: string, wsUrl: string, token: string): Promise<void> {
    const glass = await Glass.connect(httpTransport({ url, token }));
    await glass.withLease(async (lease) => {
      remember(lease);
      corpus.error("CLI bridge: stale click under a lease", await thrown(() => glass.browser.click(clickStale)));
      await glass.browser.workflow(workflowPayload as never);
    });
    corpus.error("CLI bridge: the daemon crashed", await thrown(() => glass.browser.observe({ level: "summary" })));
    await glass.close();
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    await httpCall(url, { headers: mcpHeaders(WRONG_TOKEN), body: initialize });
    await httpCall(url, { headers: { ...mcpHeaders(token), Authorization: `Bearer ${token}x` }, body: initialize });
    await httpCall(`${url}?token=${token}`, { headers: { "Content-Type": "application/json" }, body: initialize });
    await tryWebSocket(wsUrl, ["mcp", `glass-bearer.${OTHER_WRONG_TOKEN}`]);
    const upgrade = await tryWebSocket(`${wsUrl}?token=${token}`, ["mcp"]);
    if (!("socket" in upgrade)) throw new Error(`?token= upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await peer.handshake();
    await peer.request(2, "tools/list");
    upgrade.socket.close();
    await peer.closed;
    const ws = await Glass.connect(webSocketTransport({ url: wsUrl, token }));
    await ws.browser.observe({ level: "summary" });
    await ws.close();
  }

  it("prints a generated token exactly once, at startup; a --token or GLASS_BRIDGE_TOKEN token never", async () => {
    const runs = await Promise.all(
      (["generated", "--token", "GLASS_BRIDGE_TOKEN"] as const).map(async (how) => {
        // Each run has its own daemon, which crashes on its third call (so the log has an error).
        const mock = await mockDaemonOnSocket({ faults: { crashAfterCalls: 2 } });
        cleanups.push(() => mock.stop());
        const args = [
          "bridge",
          "--port",
          "0",
          "--socket",
          mock.path,
          ...(how === "--token" ? ["--token", CLI_TOKEN] : []),
        ];
        const cli = runCli(args, how === "GLASS_BRIDGE_TOKEN" ? { GLASS_BRIDGE_TOKEN: ENV_TOKEN } : {});
        cleanups.push(() => cli.stop());
        await cli.waitFor(/browser pages: /);
        const { url, wsUrl, token: printed } = startupLine(cli.stderr());
        const token = how === "generated" ? printed! : how === "--token" ? CLI_TOKEN : ENV_TOKEN;
        await exercise(url, wsUrl, token);
        await cli.waitFor(/ended \(http\): the daemon connection closed/);
        await cli.waitFor(/ended \(websocket\)[^\n]*\n[\s\S]*ended \(websocket\)/);
        expect(await cli.stop()).toBe(0);
        return { how, token, printed, stderr: cli.stderr() };
      }),
    );
    for (const { how, token, printed, stderr } of runs) {
      expect(stderr, how).toMatch(/refused POST \/mcp from 127\.0\.0\.1: wrong token \(401\)/);
      expect(stderr, how).toMatch(/started \(websocket/);
      if (how === "generated") {
        expect(printed).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(occurrences(stderr, token)).toBe(1);
        const line = stderr.split("\n").find((l) => l.includes(token))!;
        expect(line).toMatch(
          /^glass-sdk bridge: listening on http:\/\/127\.0\.0\.1:\d+\/mcp .* — token: \S+ \(shown once;/,
        );
        // Apart from that one line, no form of it anywhere.
        const rest = stderr
          .split("\n")
          .filter((l) => l !== line)
          .join("\n");
        corpus.text(`CLI stderr (${how}, without the startup line)`, rest);
        expectClean(
          [{ source: `CLI stderr (${how})`, text: rest }],
          [{ label: "generated bridge token", value: token }],
        );
      } else {
        expect(printed, how).toBeUndefined();
        expect(stderr, how).toMatch(/token: the one you gave/);
        corpus.text(`CLI stderr (${how})`, stderr);
        expectClean([{ source: `CLI stderr (${how})`, text: stderr }]);
      }
    }
  });

  it("never repeats an unusable --token, and does not hand GLASS_BRIDGE_TOKEN to a daemon child", async () => {
    const invalid = runCli(["bridge", "--port", "0", "--token", INVALID_TOKENS[0]!, "--socket", daemon.path]);
    const script =
      'process.stderr.write("child sees GLASS_BRIDGE_TOKEN=" + process.env.GLASS_BRIDGE_TOKEN + "\\n"); process.exit(1)';
    const echoing = runCli(["bridge", "--port", "0", "--", process.execPath, "-e", script], {
      GLASS_BRIDGE_TOKEN: ENV_TOKEN,
    });
    cleanups.push(
      () => invalid.stop(),
      () => echoing.stop(),
    );
    expect(await invalid.exited).toBe(1);
    expect(invalid.stderr()).toMatch(/^glass-sdk: startBridge: the token may only contain/);
    corpus.text("CLI stderr (unusable --token)", invalid.stderr());

    await echoing.waitFor(/browser pages: /);
    const { url } = startupLine(echoing.stderr());
    const answer = await httpCall(url, {
      headers: mcpHeaders(ENV_TOKEN),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS }),
    });
    corpus.text("CLI bridge answer (daemon child exited)", answer.body);
    await echoing.waitFor(/ended \(http\)/);
    expect(await echoing.stop()).toBe(0);
    // The daemon child gets the bridge's environment without the token.
    expect(echoing.stderr()).toContain("child sees GLASS_BRIDGE_TOKEN=undefined");
    corpus.text("CLI stderr (daemon child printed GLASS_BRIDGE_TOKEN)", echoing.stderr());
    expectClean(corpus.from("CLI stderr ("));
  });
});

describe("secrets: the whole sweep", () => {
  it("covered every kind of output, and no secret appears anywhere in any form", () => {
    const kinds = [
      "LeaseError",
      "staleRevision",
      "createRequest",
      "glass.send",
      "logger",
      "Lease",
      "transport error",
      "bridge log line",
      "bridge answer",
      "fixture",
      "CLI stderr",
      "CLI bridge",
    ];
    for (const kind of kinds)
      expect(
        corpus.outputs.some((output) => output.source.startsWith(kind) || output.source.includes(kind)),
        kind,
      ).toBe(true);
    expect(leaseTokens.size).toBeGreaterThanOrEqual(20);
    for (const token of leaseTokens) expect(token).toMatch(/^lt-[0-9a-f]{24}$/);
    const hits = findSecrets(corpus.outputs, allSecrets());
    console.info(
      `redaction sweep: ${corpus.outputs.length} outputs, ${allSecrets().length} secrets, ${hits.length} hits`,
    );
    expect(hits, describeHits(hits)).toEqual([]);
  });
});
