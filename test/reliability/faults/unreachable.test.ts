/**
 * The daemon cannot be reached: the binary is not installed (or not executable), the socket path
 * is missing or not permitted, and — over HTTP and WebSocket — the bridge is not there, or it is but
 * cannot reach the daemon (it answers 502). For each: the error a connect and a first call meet
 * (class, code, mutationPossible false: nothing was sent), that nothing hangs, and that the client
 * then says it is closed.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  Glass,
  GlassError,
  httpTransport,
  TransportUnavailableError,
  webSocketTransport,
  type GlassTransport,
} from "glass-sdk";
import { socketTransport, stdioTransport, type Bridge, type BridgeUpstream } from "glass-sdk/node";
import { startBridge } from "../../../src/node/bridge/start-bridge.js";
import { mockDaemonOnSocket, type SocketMock } from "../../support/mock-daemon-transports.js";
import { clickPayload, failedWith, observePayload, settle, tapTransport, Wire } from "../support/fault-rig.js";

const dir = mkdtempSync(join(tmpdir(), "glass-unreachable-"));
const missingSocket = join(dir, "no-daemon-here.sock");
const missingBinary = join(dir, "glass-not-installed");
const notExecutable = join(dir, "glass-not-executable");
writeFileSync(notExecutable, "#!/bin/sh\nexit 0\n");
chmodSync(notExecutable, 0o644);

const bridges: Bridge[] = [];
afterEach(async () => {
  for (const bridge of bridges.splice(0)) await bridge.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function bridgeTo(upstream: BridgeUpstream): Promise<{ bridge: Bridge; logs: string[] }> {
  const logs: string[] = [];
  const bridge = await startBridge({ port: 0, upstream, log: (line) => logs.push(line) });
  bridges.push(bridge);
  return { bridge, logs };
}

/**
 * Asserts what a client meets when its transport cannot reach the daemon: connect rejects with the
 * class and code given, within a bound; a client created without connecting fails its first read
 * and its first mutation the same way (mutationPossible false), writes nothing, and then says it
 * is closed. Returns the connect error.
 */
async function expectUnreachable(
  transport: () => GlassTransport,
  cls: abstract new (...args: never[]) => GlassError,
  code?: string,
): Promise<GlassError> {
  const fields = code === undefined ? { mutationPossible: false } : { code, mutationPossible: false };
  const connected = await settle(Glass.connect(transport()), 10_000, "Glass.connect");
  const error = failedWith(connected, cls, fields);

  const wire = new Wire();
  const glass = Glass.create(tapTransport(transport(), wire));
  failedWith(await settle(glass.browser.observe(observePayload), 10_000, "a read"), cls, {
    ...fields,
    code: error.code,
    operation: "browser.observe",
  });
  failedWith(await settle(glass.browser.click(clickPayload), 10_000, "a mutation"), cls, {
    ...fields,
    code: error.code,
    operation: "browser.click",
  });
  expect(wire.toolCallsSent("observe") + wire.toolCallsSent("click")).toBe(0);
  expect(glass.stats()).toEqual({ inFlight: 0, queued: 0, awaitingAnswer: 0, closed: true });
  await glass.close();
  return error;
}

describe("unreachable over stdio", () => {
  it("the binary is not installed: TransportUnavailableError naming the command and how to fix it; nothing is sent; the client says it is closed", async () => {
    const error = await expectUnreachable(
      () => stdioTransport({ command: missingBinary, args: ["--mcp"] }),
      TransportUnavailableError,
      "transport.unavailable",
    );
    expect(error.message).toMatch(/the command `.*glass-not-installed` was not found/);
    expect(error.message).toMatch(/pass its full path as `command` to stdioTransport\(\)/);
  });

  it("the binary is not executable: TransportUnavailableError saying so (permission denied)", async () => {
    const error = await expectUnreachable(
      () => stdioTransport({ command: notExecutable }),
      TransportUnavailableError,
      "transport.unavailable",
    );
    expect(error.message).toMatch(/is not executable \(permission denied\)/);
  });
});

describe("unreachable over the socket", () => {
  it("the socket path is missing: TransportUnavailableError saying no daemon listens there and how to start one", async () => {
    const error = await expectUnreachable(
      () => socketTransport({ path: missingSocket }),
      TransportUnavailableError,
      "transport.unavailable",
    );
    expect(error.message).toMatch(/no Glass daemon is listening at .*no-daemon-here\.sock/);
  });

  /*
   * The daemon's socket is mode 0600: another user gets EACCES. Root ignores file permissions, so
   * when this runs as root the attempts run in a child process as user `nobody` (as
   * test/node-transports.test.ts does); when neither is possible the test is skipped.
   */
  const script = fileURLToPath(new URL("../support/unreachable-as-user.ts", import.meta.url));
  const runAs = (uid: number, ...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
      uid,
      gid: uid,
      encoding: "utf8",
      env: { ...process.env, HOME: tmpdir() },
      timeout: 30_000,
    });
  const isRoot = process.getuid?.() === 0;
  const canRunAsNobody = isRoot && runAs(65534, "--probe").stdout.includes('"probe":true');

  it.skipIf(!canRunAsNobody)(
    "the socket is not permitted (0600, another user's): TransportUnavailableError saying so — directly; through the bridge HTTP meets the same 502 as a missing daemon",
    async () => {
      let mock: SocketMock | undefined;
      try {
        mock = await mockDaemonOnSocket();
        chmodSync(join(mock.path, ".."), 0o755); // the directory is open, the socket itself (0600, root's) is not
        const run = runAs(65534, mock.path);
        expect(run.stderr).toBe("");
        const report = JSON.parse(run.stdout) as Record<string, Record<string, unknown>>;
        const permission = /permission denied connecting to .*accepts only the user who started the daemon/;
        expect(report.socketConnect).toMatchObject({
          name: "TransportUnavailableError",
          code: "transport.unavailable",
          mutationPossible: false,
          message: expect.stringMatching(permission),
        });
        expect(report.socketRead).toMatchObject({
          name: "TransportUnavailableError",
          code: "transport.unavailable",
          mutationPossible: false,
        });
        expect(report.socketMutation).toMatchObject({
          name: "TransportUnavailableError",
          code: "transport.unavailable",
          mutationPossible: false,
        });
        expect(report.socketStats).toEqual({ inFlight: 0, queued: 0, awaitingAnswer: 0, closed: true });
        expect(report.bridgeLog).toMatch(/could not open a daemon connection for .*: permission denied/);
        expect(report.websocket).toMatchObject({
          name: "TransportUnavailableError",
          code: "transport.unavailable",
          message: expect.stringContaining("502"),
        });
        expect(report.http).toMatchObject({
          name: "TransportUnavailableError",
          code: "transport.unavailable",
          mutationPossible: false,
          message: expect.stringContaining("Bad Gateway: the bridge could not reach the Glass daemon"),
        });
        expect(mock.daemon.clientCount()).toBe(0);
      } finally {
        await mock?.stop();
      }
    },
  );
});

describe("unreachable over HTTP", () => {
  it("no bridge listens at the URL: TransportUnavailableError saying the daemon cannot be reached there", async () => {
    const port = await freePort();
    const error = await expectUnreachable(
      () => httpTransport({ url: `http://127.0.0.1:${port}/mcp`, token: "t".repeat(32) }),
      TransportUnavailableError,
      "transport.unavailable",
    );
    expect(error.message).toMatch(/cannot reach the Glass daemon at http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it.each([
    ["the daemon socket is missing", { socket: missingSocket }],
    ["the daemon binary is not installed", { command: missingBinary, args: ["--mcp"] }],
  ] as const)(
    "the bridge cannot reach the daemon (%s): it answers 502, which the client reports without hanging as TransportUnavailableError, sending nothing, closed afterwards",
    async (_what, upstream) => {
      const { bridge, logs } = await bridgeTo(upstream);
      const error = await expectUnreachable(
        () => httpTransport({ url: bridge.url, token: bridge.token }),
        TransportUnavailableError,
        "transport.unavailable",
      );
      expect(error.message).toContain("Bad Gateway: the bridge could not reach the Glass daemon");
      expect(logs.some((line) => /could not open a daemon connection/.test(line))).toBe(true);
      expect(bridge.sessionCount()).toBe(0);
    },
  );
});

/*
 * When the bridge cannot reach the daemon it answers initialize with HTTP 502 and a JSON-RPC body
 * saying so. httpTransport reports a gateway error as TransportUnavailableError (nothing reached the
 * daemon; retry by connecting again), as the WebSocket transport does for the same 502.
 */
describe("over HTTP, a bridge that cannot reach the daemon (502) is reported as TransportUnavailableError", () => {
  it("Glass.connect rejects with TransportUnavailableError (retry: connect), as over WebSocket", async () => {
    const { bridge } = await bridgeTo({ socket: missingSocket });
    const outcome = await settle(
      Glass.connect(httpTransport({ url: bridge.url, token: bridge.token })),
      10_000,
      "Glass.connect",
    );
    const error = failedWith(outcome, GlassError, { mutationPossible: false });
    expect({ name: error.name, code: error.code, retry: error.retry }).toEqual({
      name: "TransportUnavailableError",
      code: "transport.unavailable",
      retry: { classification: "safeImmediate", recommendedOperation: "connect" },
    });
  });
});

describe("unreachable over WebSocket", () => {
  it("no bridge listens at the URL: TransportUnavailableError naming the URL", async () => {
    const port = await freePort();
    const error = await expectUnreachable(
      () => webSocketTransport({ url: `ws://127.0.0.1:${port}/mcp`, token: "t".repeat(32) }),
      TransportUnavailableError,
      "transport.unavailable",
    );
    expect(error.message).toMatch(/cannot open a WebSocket to ws:\/\/127\.0\.0\.1:\d+\/mcp: connect ECONNREFUSED/);
  });

  it.each([
    ["the daemon socket is missing", { socket: missingSocket }],
    ["the daemon binary is not installed", { command: missingBinary, args: ["--mcp"] }],
  ] as const)(
    "the bridge cannot reach the daemon (%s): the upgrade is refused with 502 → TransportUnavailableError; nothing is sent; closed afterwards",
    async (_what, upstream) => {
      const { bridge, logs } = await bridgeTo(upstream);
      const error = await expectUnreachable(
        () => webSocketTransport({ url: bridge.wsUrl, token: bridge.token }),
        TransportUnavailableError,
        "transport.unavailable",
      );
      expect(error.message).toMatch(
        /refused the upgrade with HTTP 502: Bad Gateway: the bridge could not reach the Glass daemon; check that the Glass daemon runs/,
      );
      expect(logs.some((line) => /could not open a daemon connection/.test(line))).toBe(true);
      expect(bridge.sessionCount()).toBe(0);
    },
  );
});
