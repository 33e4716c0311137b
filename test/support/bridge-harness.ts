import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequestRaw, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { WebSocket } from "ws";
import type { BridgeOptions } from "../../src/node/bridge/options.js";
import { startBridge, type Bridge } from "../../src/node/bridge/start-bridge.js";
import { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "glass-sdk/testing/node";
import type { GlassRequest } from "glass-sdk";
import { GOLDEN_FIXTURE_PATH, readGoldenFixture } from "./golden-fixture.js";

/** The repository root and the CLI, run from source. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(ROOT, "src/cli/main.ts");

/** The golden fixture's request with this id. */
export function fixtureRequest(requestId: string): GlassRequest {
  const request = readGoldenFixture().requests.find((r) => r.requestId === requestId);
  if (request === undefined) throw new Error(`no fixture request ${requestId}`);
  return request as unknown as GlassRequest;
}

/** A mock daemon on a socket in a temp directory, a bridge in front of it, and the bridge's log lines. */
export interface BridgeHarness {
  daemon: MockDaemon;
  socketPath: string;
  bridge: Bridge;
  logs: string[];
  stop(): Promise<void>;
}

/** Starts a socket mock daemon and a bridge in front of it (port 0). */
export async function startBridgeHarness(
  bridgeOptions: Omit<BridgeOptions, "upstream" | "log"> = {},
  daemonOptions: Omit<MockDaemonOptions, "socket"> = {},
): Promise<BridgeHarness> {
  const dir = mkdtempSync(join(tmpdir(), "glass-bridge-"));
  const socketPath = join(dir, "glass.sock");
  const daemon = await startMockDaemon({
    fixture: GOLDEN_FIXTURE_PATH,
    site: true,
    ...daemonOptions,
    socket: socketPath,
  });
  const logs: string[] = [];
  const bridge = await startBridge({
    port: 0,
    ...bridgeOptions,
    upstream: { socket: socketPath },
    log: (line) => logs.push(line),
  });
  return {
    daemon,
    socketPath,
    bridge,
    logs,
    async stop() {
      await bridge.close();
      await daemon.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * For a test file, called at its top level: registers an `afterEach` that runs what each test
 * pushed on `cleanups` (newest first), and returns `harness(...)`, which starts a
 * {@link startBridgeHarness} that is stopped there.
 */
export function bridgeHarnessPerTest(): {
  cleanups: (() => Promise<void>)[];
  harness: (...args: Parameters<typeof startBridgeHarness>) => Promise<BridgeHarness>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const harness = async (...args: Parameters<typeof startBridgeHarness>): Promise<BridgeHarness> => {
    const started = await startBridgeHarness(...args);
    cleanups.push(() => started.stop());
    return started;
  };
  return { cleanups, harness };
}

/** An HTTP answer as tests look at it. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON. */
  json(): Record<string, unknown>;
}

/** What {@link httpCall} sends; every header is exactly as given (including Host). */
export interface HttpCallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One HTTP request with full control over its headers (fetch does not let tests set Host). */
export function httpCall(url: string, options: HttpCallOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequestRaw(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {}, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            json: () => JSON.parse(body) as Record<string, unknown>,
          });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The headers of an MCP Streamable HTTP POST with the token. */
export function mcpHeaders(token: string, sessionId?: string): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
  };
}

/** The params of a plain initialize. */
export const INITIALIZE_PARAMS = {
  protocolVersion: "2024-11-05",
  capabilities: {},
  clientInfo: { name: "bridge-test", version: "1.0.0" },
};

/** POSTs one JSON-RPC message with fetch. */
export async function post(
  bridge: Bridge,
  message: unknown,
  sessionId?: string,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(bridge.url, {
    method: "POST",
    headers: mcpHeaders(bridge.token, sessionId),
    body: JSON.stringify(message),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** initialize + notifications/initialized over HTTP; resolves with the session id. */
export async function openHttpSession(bridge: Bridge): Promise<string> {
  const response = await post(bridge, { jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  const sessionId = response.headers.get("mcp-session-id");
  if (sessionId === null) throw new Error(`initialize answered without a session id: ${await response.text()}`);
  await response.text();
  const initialized = await post(bridge, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

/** The outcome of a WebSocket upgrade: an open socket, or the HTTP answer that refused it. */
export type UpgradeOutcome = { socket: WebSocket } | { status: number; body: string };

/** Tries a WebSocket upgrade; resolves with the open socket or the refusal. */
export function tryWebSocket(
  url: string,
  protocols: string[],
  options: { headers?: Record<string, string>; origin?: string } = {},
): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, {
      headers: options.headers ?? {},
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
    socket.once("open", () => resolve({ socket }));
    socket.once("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    socket.once("error", (error) => reject(error));
  });
}

/** A JSON-RPC peer over an open WebSocket: records what arrives and waits for it. */
export class WsPeer {
  readonly received: Record<string, unknown>[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #waiters = new Set<() => void>();

  constructor(readonly socket: WebSocket) {
    socket.on("message", (data: Buffer) => {
      this.received.push(JSON.parse(data.toString("utf8")) as Record<string, unknown>);
      for (const wake of [...this.#waiters]) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once("close", (code: number, reason: Buffer) => resolve({ code, reason: reason.toString("utf8") })),
    );
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Sends a request and resolves with the response that has its id. */
  async request(
    id: string | number,
    method: string,
    params?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.waitFor((m) => m.id === id && !("method" in m));
  }

  /** The first message matching `predicate`, waiting up to 5 s. */
  waitFor(
    predicate: (message: Record<string, unknown>) => boolean,
    timeoutMs = 5000,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.received.find(predicate);
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `no matching WebSocket message within ${timeoutMs} ms; got ${JSON.stringify(this.received).slice(0, 1000)}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** initialize + notifications/initialized. */
  async handshake(): Promise<Record<string, unknown>> {
    const response = await this.request("init", "initialize", INITIALIZE_PARAMS);
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return response;
  }
}

/** Resolves once `condition` holds, polling every 5 ms; fails with `what` after `timeoutMs` (5 s by default). */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
