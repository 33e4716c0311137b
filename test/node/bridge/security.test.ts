import { spawn } from "node:child_process";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startBridge } from "../../../src/node/bridge/start-bridge.js";
import {
  CLI,
  eventually,
  httpCall,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  ROOT,
  startBridgeHarness,
  tryWebSocket,
  WsPeer,
  type BridgeHarness,
} from "../../support/bridge-harness.js";

const harnesses: BridgeHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

async function harness(...args: Parameters<typeof startBridgeHarness>): Promise<BridgeHarness> {
  const started = await startBridgeHarness(...args);
  harnesses.push(started);
  return started;
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });

describe("bridge security: the token", () => {
  it("refuses a request without a token with 401 and never reaches the daemon", async () => {
    const { bridge, daemon } = await harness();
    const { Authorization: _, ...withoutToken } = mcpHeaders(bridge.token);
    const answer = await httpCall(bridge.url, { headers: withoutToken, body: initialize });
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toMatch(/^Bearer /);
    expect(answer.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: expect.stringMatching(/^missing token/) },
    });
    expect(daemon.clientCount()).toBe(0);
    expect(bridge.sessionCount()).toBe(0);
  });

  it("refuses a wrong token (any length) and a non-Bearer Authorization with 401", async () => {
    const { bridge, daemon } = await harness();
    const sameLength = bridge.token.slice(0, -1) + (bridge.token.endsWith("A") ? "B" : "A");
    for (const authorization of [
      `Bearer ${sameLength}`,
      "Bearer short",
      `Basic ${bridge.token}`,
      `Bearer ${bridge.token}x`,
    ]) {
      const answer = await httpCall(bridge.url, {
        headers: { ...mcpHeaders(bridge.token), Authorization: authorization },
        body: initialize,
      });
      expect(answer.status, authorization).toBe(401);
    }
    expect(daemon.clientCount()).toBe(0);
  });

  it("does not take a ?token= query on plain HTTP requests", async () => {
    const { bridge } = await harness();
    const { Authorization: _, ...withoutToken } = mcpHeaders(bridge.token);
    const answer = await httpCall(`${bridge.url}?token=${bridge.token}`, { headers: withoutToken, body: initialize });
    expect(answer.status).toBe(401);
    expect(answer.json()).toMatchObject({ error: { message: expect.stringContaining("only on WebSocket upgrades") } });
  });

  it("refuses a WebSocket upgrade without a token or with a wrong one (401)", async () => {
    const { bridge, daemon } = await harness();
    expect(await tryWebSocket(bridge.wsUrl, ["mcp"])).toMatchObject({ status: 401 });
    expect(await tryWebSocket(bridge.wsUrl, ["mcp", "glass-bearer.wrong-token-123456"])).toMatchObject({ status: 401 });
    expect(await tryWebSocket(`${bridge.wsUrl}?token=wrong-token-123456`, ["mcp"])).toMatchObject({ status: 401 });
    // A right token next to a wrong one is still refused: every token presented must match.
    expect(
      await tryWebSocket(`${bridge.wsUrl}?token=wrong-token-123456`, ["mcp", `glass-bearer.${bridge.token}`]),
    ).toMatchObject({ status: 401 });
    expect(daemon.clientCount()).toBe(0);
  });
});

describe("bridge security: Origin and Host", () => {
  it("refuses a browser page from a foreign Origin with 403, over HTTP and WebSocket", async () => {
    const { bridge, daemon } = await harness({ allowedOrigins: ["http://localhost:5173"] });
    for (const origin of ["http://evil.example", "null", "http://localhost:5174"]) {
      const answer = await httpCall(bridge.url, {
        headers: { ...mcpHeaders(bridge.token), Origin: origin },
        body: initialize,
      });
      expect(answer.status, origin).toBe(403);
      expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    }
    expect(
      await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`], { origin: "http://evil.example" }),
    ).toMatchObject({ status: 403 });
    expect(daemon.clientCount()).toBe(0);
  });

  it("lets an allowed Origin in with CORS headers, and answers its preflight without a token", async () => {
    const { bridge } = await harness({ allowedOrigins: ["http://localhost:5173/"] });
    const origin = "http://localhost:5173";
    const preflight = await httpCall(bridge.url, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    expect(preflight.headers["access-control-allow-headers"]).toContain("authorization");
    expect(preflight.headers["access-control-allow-headers"]).toContain("mcp-session-id");

    const answer = await httpCall(bridge.url, {
      headers: { ...mcpHeaders(bridge.token), Origin: origin },
      body: initialize,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBe(origin);
    expect(answer.headers["access-control-expose-headers"]).toContain("mcp-session-id");
    expect(answer.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`], { origin });
    expect(upgrade).toHaveProperty("socket");
    if ("socket" in upgrade) upgrade.socket.close();
  });

  it("refuses a Host that is not a loopback name with the bridge's port (DNS rebinding) with 403", async () => {
    const { bridge, daemon } = await harness({ allowedHosts: ["glass.internal"] });
    const port = bridge.port;
    for (const host of [
      "evil.example",
      `evil.example:${port}`,
      `localhost:${port + 1}`,
      "localhost",
      `127.0.0.1.evil.example:${port}`,
    ]) {
      const answer = await httpCall(bridge.url, {
        headers: { ...mcpHeaders(bridge.token), Host: host },
        body: initialize,
      });
      expect(answer.status, host).toBe(403);
    }
    expect(
      await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`], {
        headers: { Host: `evil.example:${port}` },
      }),
    ).toMatchObject({ status: 403 });
    expect(daemon.clientCount()).toBe(0);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `glass.internal:${port}`, "glass.internal"]) {
      const answer = await httpCall(bridge.url, {
        headers: { ...mcpHeaders(bridge.token), Host: host },
        body: initialize,
      });
      expect(answer.status, host).toBe(200);
    }
  });
});

describe("bridge security: limits", () => {
  it("refuses an oversized body with 413 and stops reading it", async () => {
    const { bridge, daemon } = await harness({ maxBodyBytes: 1024 });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { ...INITIALIZE_PARAMS, padding: "x".repeat(2048) },
    });
    const declared = await httpCall(bridge.url, { headers: mcpHeaders(bridge.token), body: big });
    expect(declared.status).toBe(413);
    const streamed = await fetch(bridge.url, {
      method: "POST",
      headers: mcpHeaders(bridge.token),
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("x".repeat(10 * 1024 * 1024)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(daemon.clientCount()).toBe(0);
  });

  it("closes a WebSocket whose message is over the limit with 1009", async () => {
    const { bridge, logs } = await harness({ maxMessageBytes: 1024 });
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    peer.send({ jsonrpc: "2.0", id: 1, method: "ping", params: { padding: "x".repeat(4096) } });
    expect((await peer.closed).code).toBe(1009);
    await eventually(() => bridge.sessionCount() === 0, "the session ended");
    expect(logs.some((line) => /ended \(websocket\).*1009/.test(line))).toBe(true);
  });

  it("refuses a new session over the client cap: HTTP initialize 503, WebSocket upgrade 503", async () => {
    const { bridge } = await harness({ maxClients: 1 });
    const sessionId = await openHttpSession(bridge);
    const refused = await post(bridge, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining("limit") } });
    expect(await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`])).toMatchObject({ status: 503 });
    // Ending the session frees its place.
    expect((await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(bridge.token, sessionId) })).status).toBe(
      200,
    );
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    expect(upgrade).toHaveProperty("socket");
    if ("socket" in upgrade) upgrade.socket.close();
  });

  it("refuses a WebSocket upgrade without the mcp subprotocol (400)", async () => {
    const { bridge } = await harness();
    expect(await tryWebSocket(`${bridge.wsUrl}?token=${bridge.token}`, ["graphql-ws"])).toMatchObject({ status: 400 });
  });

  it("closes a slow or partial request after the timeout with 408", async () => {
    const { bridge, logs } = await harness({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const slow = (bytes: string): Promise<{ text: string; ms: number }> =>
      new Promise((resolve) => {
        const started = Date.now();
        const socket = connect(bridge.port, "127.0.0.1", () => socket.write(bytes));
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve({ text, ms: Date.now() - started }));
      });
    const [headers, body] = await Promise.all([
      slow(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n`),
      slow(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nAuthorization: Bearer ${bridge.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
      ),
    ]);
    for (const outcome of [headers, body]) {
      expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(outcome.ms).toBeLessThan(2000);
    }
    expect(logs.filter((line) => line.startsWith("closed a slow request"))).toHaveLength(2);
  });

  it("answers a wrong path with 404 and a wrong method with 405", async () => {
    const { bridge } = await harness();
    expect(
      (await httpCall(bridge.url.replace(/\/mcp$/, "/other"), { headers: mcpHeaders(bridge.token), body: initialize }))
        .status,
    ).toBe(404);
    expect((await httpCall(bridge.url, { method: "GET", headers: mcpHeaders(bridge.token) })).status).toBe(405);
    const put = await httpCall(bridge.url, { method: "PUT", headers: mcpHeaders(bridge.token), body: initialize });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toContain("POST");
  });
});

describe("bridge security: binding and the log", () => {
  it("refuses to listen on 0.0.0.0 without allowRemote, with a clear error", async () => {
    await expect(
      startBridge({ host: "0.0.0.0", upstream: { socket: "/nonexistent.sock" }, log: () => undefined }),
    ).rejects.toThrow(/refusing to listen on 0\.0\.0\.0, which is not a loopback address.*allowRemote: true/s);
    await expect(
      startBridge({ host: "::", upstream: { socket: "/nonexistent.sock" }, log: () => undefined }),
    ).rejects.toThrow(/not a loopback address/);
    const remote = await startBridge({
      host: "0.0.0.0",
      allowRemote: true,
      upstream: { socket: "/nonexistent.sock" },
      log: () => undefined,
    });
    expect(remote.url).toBe(`http://127.0.0.1:${remote.port}/mcp`);
    const answer = await httpCall(remote.url, {
      headers: { ...mcpHeaders(remote.token), Authorization: "Bearer nope" },
      body: initialize,
    });
    expect(answer.status).toBe(401); // the token is still required
    await remote.close();
  });

  it("refuses an unusable token or origin in the options", async () => {
    const upstream = { socket: "/nonexistent.sock" };
    await expect(startBridge({ upstream, token: "short" })).rejects.toThrow(/too short/);
    await expect(startBridge({ upstream, token: "has space in it, sixteen+" })).rejects.toThrow(/may only contain/);
    await expect(startBridge({ upstream, allowedOrigins: ["http://localhost:5173/app"] })).rejects.toThrow(
      /is not an origin/,
    );
  });

  it("never writes the token into a log line, whatever the client sends", async () => {
    const { bridge, logs } = await harness({ allowedOrigins: ["http://localhost:5173"] });
    const token = bridge.token;
    await httpCall(`${bridge.url}?token=${token}`, {
      headers: { ...mcpHeaders(token), Origin: "http://evil.example" },
      body: initialize,
    });
    await httpCall(`${bridge.url.replace(/\/mcp$/, `/${token}`)}?token=${token}`, {
      headers: mcpHeaders(token),
      body: initialize,
    });
    await httpCall(bridge.url, {
      headers: { ...mcpHeaders(token), Authorization: `Bearer ${token}-and-more` },
      body: initialize,
    });
    await tryWebSocket(`${bridge.wsUrl}?token=${token}`, ["mcp"], { origin: "http://evil.example" });
    await tryWebSocket(`${bridge.wsUrl}?token=${token}`, ["no-mcp"]);
    const upgrade = await tryWebSocket(`${bridge.wsUrl}?token=${token}`, ["mcp"]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await peer.handshake();
    upgrade.socket.close();
    await peer.closed;
    await eventually(() => bridge.sessionCount() === 0, "the WebSocket session ended");
    const sessionId = await openHttpSession(bridge);
    await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(token, sessionId) });

    expect(logs.length).toBeGreaterThanOrEqual(8);
    expect(logs.filter((line) => line.includes(token))).toEqual([]);
    expect(logs.filter((line) => /\bstarted \((http|websocket)/.test(line))).toHaveLength(2);
    expect(logs.filter((line) => /\bended \((http|websocket)/.test(line))).toHaveLength(2);
    expect(
      logs.some((line) =>
        /^refused POST \/mcp from .*: Origin "http:\/\/evil\.example" is not allowed.*\(403\)$/.test(line),
      ),
    ).toBe(true);
  });

  it("the CLI prints the token exactly once on stderr and never logs it", async () => {
    const harnessed = await harness();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", CLI, "bridge", "--port", "0", "--socket", harnessed.socketPath],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await eventually(() => /browser pages: /.test(stderr), "the CLI is listening", 15_000);
      const [, url, token] =
        /listening on (http:\/\/\S+) \(and ws:\/\/\S+\) — token: (\S+) \(shown once/.exec(stderr) ?? [];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await httpCall(url!, {
        headers: { ...mcpHeaders(token!), Authorization: "Bearer wrong-token-123456" },
        body: initialize,
      });
      const upgrade = await tryWebSocket(`${url!.replace(/^http/, "ws")}?token=${token!}`, ["mcp"]);
      if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
      const peer = new WsPeer(upgrade.socket);
      await peer.handshake();
      upgrade.socket.close();
      await eventually(() => /ended \(websocket\)/.test(stderr), "the CLI logged the session end");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stderr.split(token!).length - 1).toBe(1);
      expect(stderr).toMatch(/refused POST \/mcp from 127\.0\.0\.1: wrong token \(401\)/);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("the CLI refuses --host 0.0.0.0 without --allow-remote and exits 1", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "bridge", "--port", "0", "--host", "0.0.0.0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^glass-sdk: startBridge: refusing to listen on 0\.0\.0\.0, which is not a loopback address/,
    );
  });
});
