import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { stdioTransport } from "glass-sdk/node";
import {
  daemonState,
  DAEMON_EXECUTABLE,
  freePort,
  globalFlags,
  requireInstalledDaemon,
  type DaemonState,
  spawnDaemon,
  killDaemon,
} from "./support/real-daemon.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { handshake, RawPeer } from "../support/raw-mcp-peer.js";

requireInstalledDaemon();

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof GlassError)) throw new Error(`expected a GlassError, got ${String(error)}`);
  return error;
}

/** A stdio daemon whose input is copied to a file on its way in (`tee`), to see the SDK's framing. */
async function recordedDaemon(): Promise<{ glass: Glass; state: DaemonState; input: () => string }> {
  const state = daemonState();
  const log = join(state.directory, "stdin.log");
  const args = [...globalFlags(await freePort()), "--mcp"];
  const transport = stdioTransport({
    command: "sh",
    args: ["-c", 'tee "$0" | exec "$@"', log, DAEMON_EXECUTABLE, ...args],
    env: state.env,
    closeTimeoutMs: 5000,
  });
  const glass = await Glass.connect(transport);
  return { glass, state, input: () => readFileSync(log, "latin1") };
}

/** A raw peer on a daemon process of its own, initialized. */
async function rawDaemon(state: DaemonState): Promise<{ peer: RawPeer; stop: () => void }> {
  const child = spawnDaemon([...globalFlags(await freePort()), "--mcp"], state.env);
  const peer = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
  await handshake(peer);
  return { peer, stop: () => killDaemon(child) };
}

describe("message limits of the real daemon", () => {
  let lab: LabServer;
  let recorded: Awaited<ReturnType<typeof recordedDaemon>>;
  beforeAll(async () => {
    lab = await serveLab();
    recorded = await recordedDaemon();
    await recorded.glass.browser.navigate({ url: lab.url("/lab") });
  });
  afterAll(async () => {
    await recorded?.glass.close();
    recorded?.state.remove();
    await lab?.close();
  });

  it("a request over 8 KiB goes as a Content-Length frame and succeeds; small ones stay JSON lines", async () => {
    const { glass, input } = recorded;
    const padding = "x".repeat(20_000);
    expect(await glass.browser.evaluate({ expression: `"${padding}".length` })).toEqual({ result: 20_000 });
    const written = input();
    const framed = [...written.matchAll(/Content-Length: (\d+)\r\n\r\n/g)].map((match) => Number(match[1]));
    expect(framed).toHaveLength(1);
    expect(framed[0]).toBeGreaterThan(20_000);
    expect(written.startsWith('{"jsonrpc":"2.0"')).toBe(true); // initialize went as a line
  });

  it("a raw peer's JSON line over 8 KiB ends the connection without a reply; the same body with Content-Length is answered", async () => {
    const state = daemonState();
    try {
      const line = await rawDaemon(state);
      const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { padding: "p".repeat(9000) } });
      line.peer.sendRaw(`${body}\n`);
      await line.peer.closed;
      expect(line.peer.responses(2)).toEqual([]);
      line.stop();
      const framed = await rawDaemon(state);
      framed.peer.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      expect(await framed.peer.response(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
      expect(framed.peer.received.at(-1)?.framing).toBe("content-length"); // answered in the request's framing
      framed.stop();
    } finally {
      state.remove();
    }
  });

  it("a request of 3 MB of multibyte text (past a megabyte, encoded straight into its frame) reaches the daemon whole", async () => {
    const { glass } = recorded;
    // 1,500,000 × "é": 3,000,000 bytes of UTF-8 in a Content-Length frame the daemon must read to its last byte.
    expect(await glass.browser.evaluate({ expression: `"${"é".repeat(1_500_000)}".length` })).toEqual({
      result: 1_500_000,
    });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
  });

  it("a request over 4 MiB is refused by the SDK before sending (request.invalid), and the connection goes on", async () => {
    const { glass } = recorded;
    const error = await failure(glass.browser.evaluate({ expression: `"${"z".repeat(4 * 1024 * 1024)}".length` }));
    expect(error).toMatchObject({
      code: "request.invalid",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
    });
    expect(error.details).toMatchObject({ maxBytes: 4 * 1024 * 1024 });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
  });

  it("a raw peer's Content-Length frame over 4 MiB ends the connection without a reply", async () => {
    const state = daemonState();
    try {
      const { peer, stop } = await rawDaemon(state);
      peer.sendRaw(`Content-Length: ${4 * 1024 * 1024 + 1}\r\n\r\n`);
      await peer.closed;
      expect(peer.received.filter((item) => item.message?.id !== "init")).toEqual([]);
      stop();
    } finally {
      state.remove();
    }
  });
});

describe("answers past the daemon's caps", () => {
  let lab: LabServer;
  let recorded: Awaited<ReturnType<typeof recordedDaemon>>;
  beforeAll(async () => {
    lab = await serveLab();
    recorded = await recordedDaemon();
  });
  afterAll(async () => {
    await recorded?.glass.close();
    recorded?.state.remove();
    await lab?.close();
  });

  it("an answer under the daemon's 16 MiB DevTools message limit arrives whole: a 12 MiB evaluate result", async () => {
    const { glass } = recorded;
    await glass.browser.navigate({ url: lab.url("/lab") });
    const { result } = (await glass.browser.evaluate({ expression: `"y".repeat(${12 * 1024 * 1024})` })) as {
      result: string;
    };
    expect(result.length).toBe(12 * 1024 * 1024);
  });

  it("a page whose DOM is past 16 MiB fails getDOM with browser.transport, and the daemon's browser is lost for good (a daemon bug); MCP goes on", async () => {
    const { glass } = recorded;
    await glass.browser.navigate({ url: lab.url("/large?n=30000") }, { deadlineMs: 30_000 });
    const error = await failure(glass.browser.getDOM({}, { deadlineMs: 20_000 }));
    expect(error).toMatchObject({
      code: "browser.transport",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve" },
    });
    expect(error.rawMessage).toMatch(/^CDP read failed: Space limit exceeded: Message too long: \d+ > 16777216$/);
    expect(error.details).toMatchObject({ kind: "transport", code: -32000 });
    // The daemon's DevTools connection does not come back: every browser tool now fails at once,
    // while the MCP session itself still answers. Only a new daemon process recovers.
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
    const after = await failure(glass.browser.navigate({ url: lab.url("/lab") }, { deadlineMs: 10_000 }));
    expect(after).toMatchObject({
      code: "browser.transport",
      mutationPossible: true,
      rawMessage: "CDP connection task is unavailable",
    });
    expect(await failure(glass.browser.getText({}, { deadlineMs: 10_000 }))).toMatchObject({
      code: "browser.transport",
      mutationPossible: false,
      rawMessage: "CDP connection task is unavailable",
    });
  });
});
