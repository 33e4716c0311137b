import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { Glass, httpTransport } from "glass-sdk";
import type { Bridge } from "../../../src/node/bridge/start-bridge.js";
import { fixtureToolCall } from "../../support/fixture-calls.js";
import {
  fixtureRequest,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  startBridgeHarness,
  type BridgeHarness,
} from "../../support/bridge-harness.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(): Promise<BridgeHarness> {
  const started = await startBridgeHarness();
  cleanups.push(() => started.stop());
  return started;
}

/** POSTs one JSON-RPC message in a session, with an `MCP-Protocol-Version` header when `version` is given. */
function postWithVersion(
  bridge: Bridge,
  message: unknown,
  sessionId: string | undefined,
  version?: string,
): Promise<Response> {
  const headers = {
    ...mcpHeaders(bridge.token, sessionId),
    ...(version === undefined ? {} : { "MCP-Protocol-Version": version }),
  };
  return fetch(bridge.url, { method: "POST", headers, body: JSON.stringify(message) });
}

/** A fetch that records the `MCP-Protocol-Version` header of every request (null when absent) and the method it carried. */
function recordingFetch(seen: { method: string; version: string | null }[]): typeof fetch {
  return async (input, init) => {
    // httpTransport hands fetch a Request (it runs on ky); read the method and header from it.
    const request = new Request(input, init);
    const text = request.method === "POST" ? await request.clone().text() : "";
    const body = text === "" ? {} : (JSON.parse(text) as { method?: string });
    seen.push({ method: body.method ?? request.method, version: request.headers.get("mcp-protocol-version") });
    return fetch(request);
  };
}

const SUPPORTED = ["2024-11-05", "2025-11-25"];

describe("the bridge and MCP-Protocol-Version (MCP Streamable HTTP, revisions 2025-06-18 and 2025-11-25)", () => {
  it("takes a request without the header (the negotiated version holds), with the negotiated version, or with the other version the daemon accepts", async () => {
    const { bridge } = await harness();
    const sessionId = await openHttpSession(bridge); // negotiated 2024-11-05
    for (const [id, version] of [
      [1, undefined],
      [2, "2024-11-05"],
      [3, "2025-11-25"],
    ] as const) {
      const answer = await postWithVersion(bridge, { jsonrpc: "2.0", id, method: "ping" }, sessionId, version);
      expect(answer.status, String(version)).toBe(200);
      expect(await answer.json()).toEqual({ jsonrpc: "2.0", id, result: {} });
    }
  });

  it("refuses an unsupported or malformed version with 400 and a JSON-RPC error listing the supported ones, before the daemon sees the request", async () => {
    const { bridge, daemon, logs } = await harness();
    const sessionId = await openHttpSession(bridge);
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: fixtureToolCall(fixtureRequest("observe-loans")),
    };
    for (const version of ["2025-06-18", "2025-03-26", "2099-01-01", "not-a-version", "", "2024-11-05, 2025-11-25"]) {
      const answer = await postWithVersion(bridge, call, sessionId, version);
      expect(answer.status, version).toBe(400);
      expect(answer.headers.get("content-type")).toBe("application/json");
      const body = (await answer.json()) as { error: { message: string } };
      expect(body, version).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: expect.stringContaining("this bridge supports 2024-11-05 and 2025-11-25"),
          data: { supported: SUPPORTED, requested: version },
        },
      });
      expect(body.error.message).toContain(`unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
      expect(body.error.message).toContain("(2024-11-05 in this session)");
    }
    expect(daemon.calls).toEqual([]);
    expect(
      logs.some((line) =>
        /^refused POST \/mcp from .*unsupported MCP-Protocol-Version "2025-06-18".*\(400\)$/.test(line),
      ),
    ).toBe(true);

    // The session goes on: the same call with the negotiated version is answered.
    const answered = await postWithVersion(bridge, call, sessionId, "2024-11-05");
    expect(answered.status).toBe(200);
    expect(daemon.calls.map((c) => c.tool)).toEqual(["observe"]);
  });

  it("applies the rule to notifications and DELETE too (a refused DELETE leaves the session running)", async () => {
    const { bridge, daemon } = await harness();
    const sessionId = await openHttpSession(bridge);
    const notification = await postWithVersion(
      bridge,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      sessionId,
      "2025-06-18",
    );
    expect(notification.status).toBe(400);
    const refusedDelete = await fetch(bridge.url, {
      method: "DELETE",
      headers: { ...mcpHeaders(bridge.token, sessionId), "MCP-Protocol-Version": "2025-06-18" },
    });
    expect(refusedDelete.status).toBe(400);
    expect(await refusedDelete.json()).toMatchObject({ error: { data: { supported: SUPPORTED } } });
    expect(bridge.sessionCount()).toBe(1);
    expect(daemon.clientCount()).toBe(1);
    const deleted = await fetch(bridge.url, {
      method: "DELETE",
      headers: { ...mcpHeaders(bridge.token, sessionId), "MCP-Protocol-Version": "2024-11-05" },
    });
    expect(deleted.status).toBe(200);
  });

  it("does not look at the header on initialize (its version is in the body, and the daemon judges that one)", async () => {
    const { bridge } = await harness();
    const withOddHeader = await postWithVersion(
      bridge,
      { jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS },
      undefined,
      "2099-01-01",
    );
    expect(withOddHeader.status).toBe(200);
    expect(withOddHeader.headers.get("mcp-session-id")).not.toBeNull();
    expect(await withOddHeader.json()).toMatchObject({ result: { protocolVersion: "2024-11-05" } });

    const refusedInBody = await postWithVersion(
      bridge,
      {
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { ...INITIALIZE_PARAMS, protocolVersion: "2025-06-18" },
      },
      undefined,
    );
    expect(refusedInBody.status).toBe(200);
    expect(refusedInBody.headers.get("mcp-session-id")).toBeNull();
    expect(await refusedInBody.json()).toMatchObject({ id: "init", error: { code: -32602 } });
  });

  it("the official MCP client (StreamableHTTPClientTransport, bearer token in requestInit) gets a session and sends the negotiated version; a request with an unsupported one gets 400", async () => {
    const { bridge } = await harness();
    const seen: { method: string; version: string | null }[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(bridge.url), {
      requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
      fetch: recordingFetch(seen),
    });
    const client = new Client({ name: "protocol-version", version: "1.0.0" });
    cleanups.push(() => client.close());
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-11-25");
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    await client.ping();
    const posts = seen.filter((entry) => entry.method !== "GET");
    expect(posts.map((entry) => entry.method)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "ping",
    ]);
    expect(posts.slice(1).map((entry) => entry.version)).toEqual(["2025-11-25", "2025-11-25", "2025-11-25"]);

    transport.setProtocolVersion("2025-06-18"); // a revision the SDK knows and the daemon does not speak
    const refused = await client.ping().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect(refused).toMatchObject({
      code: 400,
      message: expect.stringContaining("this bridge supports 2024-11-05 and 2025-11-25"),
    });
  });

  it("glass-sdk's httpTransport sends the version initialize negotiated on every later request, DELETE included", async () => {
    const { bridge } = await harness();
    const seen: { method: string; version: string | null }[] = [];
    const glass = await Glass.connect(
      httpTransport({ url: bridge.url, token: bridge.token, fetch: recordingFetch(seen) }),
    );
    await glass.close();
    expect(seen).toEqual([
      { method: "initialize", version: null },
      { method: "notifications/initialized", version: "2025-11-25" },
      { method: "tools/list", version: "2025-11-25" }, // the client reads the daemon's tools as part of connect
      { method: "DELETE", version: "2025-11-25" },
    ]);
  });
});
