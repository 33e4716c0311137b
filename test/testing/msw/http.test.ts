import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createGlassHandlers } from "../../../src/testing/msw/msw-http-handlers.js";
import { httpTransport } from "../../../src/transport/http-transport.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import {
  callTyped,
  expectMatchesFixture,
  fixtureCases,
  goldenFixture,
  itMatchesTheWholeFixture,
  recordedResponses,
} from "../../support/fixture-outcomes.js";

const ENDPOINT = "http://glass.test/mcp";
const SECURED_URL = "http://secured.glass.test/mcp";
const STALLING_URL = "http://stalling.glass.test/mcp";
const TOKEN = "test-token-0123456789abcdef";
const recorded = recordedResponses();

const server = setupServer(
  ...createGlassHandlers({ fixture: goldenFixture, url: ENDPOINT }),
  ...createGlassHandlers({ fixture: goldenFixture, url: SECURED_URL, token: TOKEN }),
  ...createGlassHandlers({ fixture: goldenFixture, url: STALLING_URL, faults: { stallAfterCalls: 0 } }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw-fetch", version: "1" } },
};

/** POSTs one JSON-RPC message (or any body) and returns the response. */
function post(body: unknown, headers: Record<string, string> = {}, url = ENDPOINT): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Opens a session with initialize + notifications/initialized; returns its id. */
async function openSession(url = ENDPOINT, headers: Record<string, string> = {}): Promise<string> {
  const response = await post(INITIALIZE, headers, url);
  expect(response.status).toBe(200);
  const sessionId = response.headers.get("Mcp-Session-Id");
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const initialized = await post(
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { ...headers, "Mcp-Session-Id": sessionId! },
    url,
  );
  expect(initialized.status).toBe(202);
  return sessionId!;
}

describe("createGlassHandlers over raw fetch (MCP Streamable HTTP)", () => {
  it("initialize opens a session: 200, application/json, the manifest, and an Mcp-Session-Id", async () => {
    const response = await post(INITIALIZE);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Mcp-Session-Id")).toBeTruthy();
    const body = (await response.json()) as {
      id: number;
      result: { serverInfo: { name: string }; glass: { capabilities: Record<string, boolean> } };
    };
    expect(body.id).toBe(0);
    expect(body.result.serverInfo.name).toBe("glass-sdk-mock-daemon");
    expect(body.result.glass.capabilities.mcpStdio).toBe(true);
  });

  it("a notification gets 202 with no body", async () => {
    const sessionId = await openSession();
    const response = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "Mcp-Session-Id": sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it.each(fixtureCases())("tools/call of %s is answered with the daemon's tool result", async (_id, request) => {
    const sessionId = await openSession();
    const response = await post(
      { jsonrpc: "2.0", id: request.requestId, method: "tools/call", params: fixtureToolCall(request) },
      { "Mcp-Session-Id": sessionId },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: request.requestId,
      result: expectedToolResult(recorded.get(request.requestId)!, request.operation),
    });
  });

  it("keeps each session's state: a request before notifications/initialized is -32002", async () => {
    const first = await post(INITIALIZE);
    const sessionId = first.headers.get("Mcp-Session-Id")!;
    const response = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "Mcp-Session-Id": sessionId });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32002);
  });

  it("a second initialize on a session is -32600", async () => {
    const sessionId = await openSession();
    const response = await post(INITIALIZE, { "Mcp-Session-Id": sessionId });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("a failed initialize opens no session", async () => {
    const response = await post({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: "1999-01-01" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Mcp-Session-Id")).toBeNull();
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });

  it("a message without Mcp-Session-Id (other than initialize) gets 400", async () => {
    const response = await post({ jsonrpc: "2.0", id: 7, method: "ping" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      error: { message: expect.stringMatching(/Mcp-Session-Id/) },
    });
  });

  it("an unknown session id gets 404 with a JSON-RPC error", async () => {
    const response = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": "no-such-session" });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32001 } });
  });

  it("DELETE ends a session: 200, then its id is unknown (404)", async () => {
    const sessionId = await openSession();
    const deleted = await fetch(ENDPOINT, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } });
    expect(deleted.status).toBe(200);
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": sessionId })).status).toBe(404);
    expect((await fetch(ENDPOINT, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } })).status).toBe(404);
  });

  it("GET (an SSE stream) is 405 with Allow", async () => {
    const response = await fetch(ENDPOINT, { headers: { Accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, DELETE");
  });

  it("a body that is not JSON gets 400 with -32700; a batch 400 with -32600", async () => {
    const garbage = await post("{not json");
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ id: null, error: { code: -32700 } });
    const batch = await post([INITIALIZE]);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("a response from the client gets 202", async () => {
    const sessionId = await openSession();
    const response = await post({ jsonrpc: "2.0", id: "glass-server-1", result: {} }, { "Mcp-Session-Id": sessionId });
    expect(response.status).toBe(202);
  });

  it("notifications/cancelled ends the waiting POST of a call with -32800", async () => {
    const sessionId = await openSession(STALLING_URL);
    const call = post(
      { jsonrpc: "2.0", id: "c1", method: "tools/call", params: { name: "observe", arguments: { level: "summary" } } },
      { "Mcp-Session-Id": sessionId },
      STALLING_URL,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const cancel = await post(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1", reason: "test" } },
      { "Mcp-Session-Id": sessionId },
      STALLING_URL,
    );
    expect(cancel.status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: "c1", error: { code: -32800 } });
  });

  it("with a token: 401 and a Bearer challenge without it or with a wrong one, answers with it", async () => {
    const missing = await post(INITIALIZE, {}, SECURED_URL);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({
      id: null,
      error: { message: expect.stringMatching(/missing token/) },
    });
    expect((await post(INITIALIZE, { Authorization: "Bearer wrong-token-0123456789" }, SECURED_URL)).status).toBe(401);
    expect((await fetch(SECURED_URL, { method: "DELETE" })).status).toBe(401);
    const sessionId = await openSession(SECURED_URL, { Authorization: `Bearer ${TOKEN}` });
    expect(sessionId).toBeTruthy();
  });
});

describe("the whole golden fixture through Glass over httpTransport and the MSW handlers", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(httpTransport({ url: ENDPOINT }));
  });
  afterAll(async () => {
    await glass.close();
  });

  itMatchesTheWholeFixture(() => glass);

  it("with a token, over the secured handlers", async () => {
    const secured = await Glass.connect(httpTransport({ url: SECURED_URL, token: TOKEN }));
    const request = goldenFixture.requests[0]!;
    expectMatchesFixture(await callTyped(secured, request, true), request);
    await secured.close();
  });

  it("a wrong token fails to connect with transport.unavailable", async () => {
    await expect(
      Glass.connect(httpTransport({ url: SECURED_URL, token: "wrong-token-0123456789" })),
    ).rejects.toMatchObject({ code: "transport.unavailable" });
  });
});
