/**
 * The bridge's security cases of the web issue, end to end, as one table: every refusal over
 * HTTP and over a WebSocket upgrade, against a bridge whose only client place is already taken by
 * a well-behaved session. Each row must be refused with its status and a JSON-RPC error body,
 * leave the daemon untouched and the session count at the cap, and log one refusal line; at the
 * end the well-behaved session still works and no log line holds the token in any form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import {
  fixtureRequest,
  httpCall,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  startBridgeHarness,
  tryWebSocket,
  type BridgeHarness,
} from "../../support/bridge-harness.js";
import { findSecrets } from "../support/secrets-scan.js";

/** Distinctive, so a hit in a log cannot be an accident. */
const TOKEN = "HaRdEnInG-bridge-token.Qz7Xv9Lm2Pw8Rt5Ys1Ua6_Kc3~Hd4";
const WRONG_SAME_LENGTH = TOKEN.slice(0, -1) + (TOKEN.endsWith("A") ? "B" : "A");
const ALLOWED_ORIGIN = "http://localhost:5173";
const MAX_BODY = 1024;

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
const oversized = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { ...INITIALIZE_PARAMS, padding: "x".repeat(MAX_BODY * 2) },
});

let harness: BridgeHarness;
let sessionId: string;

beforeAll(async () => {
  harness = await startBridgeHarness({
    token: TOKEN,
    maxClients: 1,
    maxBodyBytes: MAX_BODY,
    allowedOrigins: [ALLOWED_ORIGIN],
  });
  sessionId = await openHttpSession(harness.bridge); // takes the only place
});
afterAll(async () => {
  await harness.stop();
});

/** One refusal case: how to make the request, and the status it must get. */
interface Case {
  name: string;
  status: number;
  send(port: number): Promise<{ status: number; body: string }>;
}

const port = (): number => harness.bridge.port;
const url = (): string => harness.bridge.url;
const wsUrl = (): string => harness.bridge.wsUrl;

const withoutToken = (): Record<string, string> => {
  const { Authorization: _, ...rest } = mcpHeaders(TOKEN);
  return rest;
};

async function upgrade(
  target: string,
  protocols: string[],
  options: Parameters<typeof tryWebSocket>[2] = {},
): Promise<{ status: number; body: string }> {
  const outcome = await tryWebSocket(target, protocols, options);
  if ("socket" in outcome) {
    outcome.socket.close();
    return { status: 101, body: "" };
  }
  return outcome;
}

const HTTP_CASES: Case[] = [
  { name: "no token", status: 401, send: () => httpCall(url(), { headers: withoutToken(), body: initialize }) },
  {
    name: "wrong token of the same length",
    status: 401,
    send: () =>
      httpCall(url(), {
        headers: { ...mcpHeaders(TOKEN), Authorization: `Bearer ${WRONG_SAME_LENGTH}` },
        body: initialize,
      }),
  },
  {
    name: "the token with a suffix",
    status: 401,
    send: () =>
      httpCall(url(), { headers: { ...mcpHeaders(TOKEN), Authorization: `Bearer ${TOKEN}x` }, body: initialize }),
  },
  {
    name: "the token as Basic credentials",
    status: 401,
    send: () =>
      httpCall(url(), {
        headers: { ...mcpHeaders(TOKEN), Authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}` },
        body: initialize,
      }),
  },
  {
    name: "the token only as ?token= (HTTP takes no query token)",
    status: 401,
    send: () => httpCall(`${url()}?token=${TOKEN}`, { headers: withoutToken(), body: initialize }),
  },
  {
    name: "a foreign Origin (with the right token)",
    status: 403,
    send: () => httpCall(url(), { headers: { ...mcpHeaders(TOKEN), Origin: "http://evil.example" }, body: initialize }),
  },
  {
    name: "Origin: null",
    status: 403,
    send: () => httpCall(url(), { headers: { ...mcpHeaders(TOKEN), Origin: "null" }, body: initialize }),
  },
  {
    name: "a non-loopback Host",
    status: 403,
    send: () =>
      httpCall(url(), { headers: { ...mcpHeaders(TOKEN), Host: `evil.example:${port()}` }, body: initialize }),
  },
  {
    name: "a loopback Host on another port",
    status: 403,
    send: () =>
      httpCall(url(), { headers: { ...mcpHeaders(TOKEN), Host: `127.0.0.1:${port() + 1}` }, body: initialize }),
  },
  {
    name: "a rebinding Host that starts like loopback",
    status: 403,
    send: () =>
      httpCall(url(), {
        headers: { ...mcpHeaders(TOKEN), Host: `127.0.0.1.evil.example:${port()}` },
        body: initialize,
      }),
  },
  {
    name: "an oversized body (declared Content-Length)",
    status: 413,
    send: () => httpCall(url(), { headers: mcpHeaders(TOKEN), body: oversized }),
  },
  {
    name: "an oversized body (chunked, no Content-Length)",
    status: 413,
    send: () => httpCall(url(), { headers: { ...mcpHeaders(TOKEN), "Transfer-Encoding": "chunked" }, body: oversized }),
  },
  {
    name: "a new session over the client cap",
    status: 503,
    send: () => httpCall(url(), { headers: mcpHeaders(TOKEN), body: initialize }),
  },
];

const WS_CASES: Case[] = [
  { name: "WebSocket: no token", status: 401, send: () => upgrade(wsUrl(), ["mcp"]) },
  {
    name: "WebSocket: wrong glass-bearer token",
    status: 401,
    send: () => upgrade(wsUrl(), ["mcp", `glass-bearer.${WRONG_SAME_LENGTH}`]),
  },
  {
    name: "WebSocket: wrong ?token=",
    status: 401,
    send: () => upgrade(`${wsUrl()}?token=${WRONG_SAME_LENGTH}`, ["mcp"]),
  },
  {
    name: "WebSocket: right and wrong token together",
    status: 401,
    send: () => upgrade(`${wsUrl()}?token=${WRONG_SAME_LENGTH}`, ["mcp", `glass-bearer.${TOKEN}`]),
  },
  {
    name: "WebSocket: a foreign Origin",
    status: 403,
    send: () => upgrade(wsUrl(), ["mcp", `glass-bearer.${TOKEN}`], { origin: "http://evil.example" }),
  },
  {
    name: "WebSocket: a non-loopback Host",
    status: 403,
    send: () => upgrade(wsUrl(), ["mcp", `glass-bearer.${TOKEN}`], { headers: { Host: `evil.example:${port()}` } }),
  },
  {
    name: "WebSocket: a new session over the client cap",
    status: 503,
    send: () => upgrade(wsUrl(), ["mcp", `glass-bearer.${TOKEN}`]),
  },
];

describe("bridge hardening: the security cases, end to end", () => {
  it.each([...HTTP_CASES, ...WS_CASES].map((c) => [c.name, c] as const))("refuses %s", async (_name, testCase) => {
    const { bridge, daemon, logs } = harness;
    const refusalsBefore = logs.filter((line) => line.startsWith("refused ")).length;
    const answer = await testCase.send(port());
    expect(answer.status).toBe(testCase.status);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: expect.any(Number), message: expect.any(String) },
    });
    expect(answer.body).not.toContain(TOKEN);
    // Nothing reached the daemon: only the well-behaved session's connection exists, and the cap holds.
    expect(daemon.clientCount()).toBe(1);
    expect(daemon.calls).toHaveLength(0);
    expect(bridge.sessionCount()).toBe(1);
    const refusals = logs.filter((line) => line.startsWith("refused "));
    expect(refusals).toHaveLength(refusalsBefore + 1);
    expect(refusals.at(-1)).toMatch(new RegExp(`\\(${testCase.status}\\)$`));
  });

  it("still serves the well-behaved session after every refusal", async () => {
    const fixture = readGoldenFixture();
    const response = fixture.responses.find((r) => r.requestId === "observe-loans")!;
    const call = await post(
      harness.bridge,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ jsonrpc: "2.0", id: 1, result: expectedToolResult(response as never) });
    expect(harness.daemon.calls).toHaveLength(1);
  });

  it("never logs the token, in any form, and logs every refusal", () => {
    const { logs } = harness;
    expect(logs.filter((line) => line.startsWith("refused ")).length).toBe(HTTP_CASES.length + WS_CASES.length);
    const hits = findSecrets(
      logs.map((line, index) => ({ source: `bridge log line ${index}`, text: line })),
      [
        { label: "bridge token", value: TOKEN },
        { label: "wrong token presented", value: WRONG_SAME_LENGTH },
      ],
    );
    expect(hits).toEqual([]);
  });
});
