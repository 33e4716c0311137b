/**
 * Slow and partial requests against the bridge (slowloris): headers sent byte by byte slower than
 * the headers timeout, a body that stops half-way, a body that drips, and a second request on a
 * kept-alive connection that stalls. Each must be closed (408) within a bound of its configured
 * timeout, nothing partial may reach the daemon, and well-behaved clients keep working meanwhile.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixtureToolCall } from "../../support/fixture-calls.js";
import {
  fixtureRequest,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  startBridgeHarness,
  type BridgeHarness,
} from "../../support/bridge-harness.js";
import { delay, rawClient, rawPost, rawResponses, rawStatus } from "../support/bridge-raw-http.js";
import { findSecrets } from "../support/secrets-scan.js";

const TOKEN = "SlOwLoRiS-bridge-token.Mb4Kq8Zt2Wv6Np9Lx3Rc7_Hj5~Gd1";
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
/** Node checks both timeouts every max(50, headersTimeout / 4) ms; this leaves room for a loaded machine. */
const SLACK_MS = 1200;

const harnesses: BridgeHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

async function harness(): Promise<BridgeHarness> {
  const started = await startBridgeHarness({
    token: TOKEN,
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  harnesses.push(started);
  return started;
}

const toolCall = (id: number | string): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: fixtureToolCall(fixtureRequest("observe-loans")),
  });

/** Records the measured timings, so the report can quote them. */
const measured: Record<string, unknown> = {};

describe("bridge hardening: slow and partial requests", () => {
  it("slowloris headers: a request line and headers sent one byte every 40 ms are cut off with 408 at the headers timeout", async () => {
    const { bridge, daemon, logs } = await harness();
    const headers = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 10\r\n\r\n`;
    // 20 slowloris connections at once, each of which would need ~8 s to finish its headers.
    const clients = Array.from({ length: 20 }, () => rawClient(bridge.port, { drip: headers, dripEveryMs: 40 }));
    await Promise.all(clients.map((client) => client.connected));

    // Meanwhile a well-behaved client opens a session and calls.
    const sessionId = await openHttpSession(bridge);
    const call = await post(bridge, JSON.parse(toolCall(1)), sessionId);
    expect(call.status).toBe(200);

    const outcomes = await Promise.all(clients.map((client) => client.outcome));
    const times = outcomes.map((outcome) => outcome.closedAfterMs);
    measured.slowHeaders = {
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      minCloseMs: Math.min(...times),
      maxCloseMs: Math.max(...times),
    };
    for (const outcome of outcomes) {
      expect(rawStatus(outcome.text)).toBe(408);
      expect(outcome.closedByPeer).toBe(true);
      expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 20);
      expect(outcome.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
      expect(outcome.bytesWritten).toBeLessThan(Buffer.byteLength(headers)); // cut off before the headers were done
    }
    expect(logs.filter((line) => line.startsWith("closed a slow request"))).toHaveLength(20);
    expect(daemon.calls).toHaveLength(1); // only the well-behaved call
    expect(bridge.sessionCount()).toBe(1);
    expect(
      findSecrets(
        logs.map((text, i) => ({ source: `log ${i}`, text })),
        [{ label: "bridge token", value: TOKEN }],
      ),
    ).toEqual([]);
  });

  it("a connection that sends nothing at all is closed at the headers timeout too", async () => {
    const { bridge } = await harness();
    const idle = rawClient(bridge.port);
    await idle.connected;
    const outcome = await idle.outcome;
    measured.silentConnection = { closeMs: outcome.closedAfterMs };
    expect(outcome.closedByPeer).toBe(true);
    expect(rawStatus(outcome.text)).toBe(408);
    expect(outcome.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
  });

  it("a body that stops half-way is closed at the request timeout, and the daemon never sees the call", async () => {
    const { bridge, daemon, logs } = await harness();
    const sessionId = await openHttpSession(bridge);
    const body = toolCall("partial");
    const request = rawPost(
      bridge.port,
      { ...mcpHeaders(TOKEN, sessionId), "Content-Length": String(Buffer.byteLength(body)) },
      body,
    );
    const stalled = rawClient(bridge.port, { initial: request.head + body.slice(0, Math.floor(body.length / 2)) });
    await stalled.connected;

    // The session is not held up by it: the well-behaved client goes on calling on the same session.
    const call = await post(bridge, JSON.parse(toolCall(2)), sessionId);
    expect(call.status).toBe(200);

    const outcome = await stalled.outcome;
    measured.partialBody = { requestTimeoutMs: REQUEST_TIMEOUT_MS, closeMs: outcome.closedAfterMs };
    expect(rawStatus(outcome.text)).toBe(408);
    expect(outcome.closedByPeer).toBe(true);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 20);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(daemon.calls.map((c) => c.id)).toEqual([2]); // "partial" never arrived
    expect(
      logs.some((line) => /^closed a slow request from 127\.0\.0\.1: .*request 600 ms\) \(408\)$/.test(line)),
    ).toBe(true);

    // The session survives the stalled request.
    const after = await post(bridge, JSON.parse(toolCall(3)), sessionId);
    expect(after.status).toBe(200);
    expect(daemon.calls.map((c) => c.id)).toEqual([2, 3]);
  });

  it("a body that drips one byte every 40 ms is cut off at the request timeout, not fed to the daemon", async () => {
    const { bridge, daemon } = await harness();
    const sessionId = await openHttpSession(bridge);
    const body = toolCall("drip");
    const request = rawPost(
      bridge.port,
      { ...mcpHeaders(TOKEN, sessionId), "Content-Length": String(Buffer.byteLength(body)) },
      body,
    );
    const dripping = rawClient(bridge.port, { initial: request.head, drip: body, dripEveryMs: 40 });
    const outcome = await dripping.outcome;
    measured.drippingBody = {
      closeMs: outcome.closedAfterMs,
      bodyBytesSent: outcome.bytesWritten - Buffer.byteLength(request.head),
      bodyBytes: Buffer.byteLength(body),
    };
    expect(rawStatus(outcome.text)).toBe(408);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 20);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(outcome.bytesWritten).toBeLessThan(Buffer.byteLength(request.head + body));
    await delay(50);
    expect(daemon.calls).toHaveLength(0);
  });

  it("a second request on a kept-alive connection that stalls half-way is closed within the request timeout of its own start", async () => {
    const { bridge, daemon } = await harness();
    const sessionId = await openHttpSession(bridge);
    const first = toolCall(10);
    const second = toolCall(11);
    const head = (body: string): string =>
      rawPost(
        bridge.port,
        {
          ...mcpHeaders(TOKEN, sessionId),
          Connection: "keep-alive",
          "Content-Length": String(Buffer.byteLength(body)),
        },
        body,
      ).head;
    const client = rawClient(bridge.port, { initial: head(first) + first });
    await client.connected;
    // Wait for the first answer, then idle past half the request timeout before starting the second.
    const until = Date.now() + 5000;
    while (rawResponses(client.received()).length === 0 && client.isOpen() && Date.now() < until) await delay(10);
    await delay(REQUEST_TIMEOUT_MS / 2);
    expect(client.isOpen()).toBe(true);
    const secondStarted = Date.now();
    client.socket.write(head(second) + second.slice(0, 20));
    const outcome = await client.outcome;
    const sinceSecond = Date.now() - secondStarted;
    measured.keepAliveStall = { closeMsAfterSecondRequestStarted: sinceSecond };
    const responses = rawResponses(outcome.text);
    expect(responses[0]?.status).toBe(200);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ id: 10, result: expect.any(Object) });
    expect(outcome.text).toMatch(/HTTP\/1\.1 408 /);
    expect(sinceSecond).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(daemon.calls.map((c) => c.id)).toEqual([10]);
  });

  it("a slow initialize never opens a daemon connection or takes a client place", async () => {
    const { bridge, daemon } = await harness();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    const request = rawPost(
      bridge.port,
      { ...mcpHeaders(TOKEN), "Content-Length": String(Buffer.byteLength(body)) },
      body,
    );
    const stalled = Array.from({ length: 10 }, () =>
      rawClient(bridge.port, { initial: request.head + body.slice(0, 30) }),
    );
    await Promise.all(stalled.map((client) => client.connected));
    await delay(100);
    expect(bridge.sessionCount()).toBe(0);
    expect(daemon.clientCount()).toBe(0);
    const outcomes = await Promise.all(stalled.map((client) => client.outcome));
    for (const outcome of outcomes) expect(rawStatus(outcome.text)).toBe(408);
    expect(bridge.sessionCount()).toBe(0);
    expect(daemon.clientCount()).toBe(0);
  });

  it("reports the measured timings", () => {
    console.info(`bridge hardening timings: ${JSON.stringify(measured)}`);
    expect(Object.keys(measured).length).toBeGreaterThan(0);
  });
});
