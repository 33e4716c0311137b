import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "../../src/testing/node/start-mock-daemon.js";
import { handshake, RawPeer, type RawResponse } from "./raw-mcp-peer.js";

/** The two transports the daemon speaks (§5). */
export type TransportName = "stdio" | "socket";

/** Both, in the order the rules run over them. */
export const TRANSPORTS: readonly TransportName[] = ["stdio", "socket"];

/** Mock daemon options without the transport choice. */
export type TargetOptions = Omit<MockDaemonOptions, "socket" | "stdin" | "stdout">;

/**
 * A mock daemon reached over one transport, as a conformance rule sees it: raw JSON-RPC peers
 * (bytes in, frames out), and the daemon behind the most recent peer. Over stdio each peer gets a
 * daemon of its own (a stdio daemon serves one session), in process over a pair of pipes; on the
 * socket every peer connects to one daemon on a real Unix socket.
 */
export interface Target {
  readonly transport: TransportName;
  /** A new peer, not initialized. */
  connect(): Promise<RawPeer>;
  /** A new peer after initialize (with `glass`, if given) and notifications/initialized. */
  connectReady(glass?: unknown): Promise<RawPeer>;
  /** The daemon behind the most recent peer. */
  readonly daemon: MockDaemon;
  /** Closes a peer and waits until its daemon has let it go (the socket serves only 4 clients). */
  hangUp(peer: RawPeer): Promise<void>;
}

/** Starts the daemon(s) of a target; `stop` closes every peer and daemon. */
export async function startTarget(transport: TransportName, options: TargetOptions = {}): Promise<Target & { stop(): Promise<void> }> {
  const peers: RawPeer[] = [];
  const daemons: MockDaemon[] = [];
  const daemonOf = new Map<RawPeer, MockDaemon>();
  let dir: string | undefined;
  let connect: () => Promise<RawPeer>;
  if (transport === "socket") {
    dir = mkdtempSync(join(tmpdir(), "glass-rules-"));
    const path = join(dir, "glass.sock");
    daemons.push(await startMockDaemon({ site: false, ...options, socket: path }));
    connect = () => RawPeer.connect(path);
  } else {
    connect = async () => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      daemons.push(await startMockDaemon({ site: false, ...options, stdin, stdout }));
      return new RawPeer(stdout, stdin, () => stdin.end());
    };
  }
  const target = {
    transport,
    async connect() {
      const peer = await connect();
      peers.push(peer);
      daemonOf.set(peer, daemons.at(-1)!);
      return peer;
    },
    async hangUp(peer: RawPeer) {
      const daemon = daemonOf.get(peer)!;
      const clients = daemon.clientCount();
      peer.close();
      await daemon.waitFor((d) => d.clientCount() < clients);
    },
    async connectReady(glass?: unknown) {
      const peer = await target.connect();
      await handshake(peer, glass);
      return peer;
    },
    get daemon() {
      return daemons.at(-1)!;
    },
    async stop() {
      for (const peer of peers) peer.close();
      await Promise.all(daemons.map((daemon) => daemon.close()));
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
  return target;
}

/** What a rule says about where it applies and the daemon it needs. */
export interface RuleOptions extends TargetOptions {
  /** The transports the rule is checked over (default both). */
  transports?: readonly TransportName[];
  /** Its timeout in ms (default the suite's). */
  timeout?: number;
}

/**
 * One conformance rule: an `it` that checks `body` over each transport in turn (both unless
 * `transports` says otherwise), each time against a fresh daemon. A failure names the transport.
 */
export function rule(title: string, body: (target: Target) => Promise<void>, options: RuleOptions = {}): void {
  const { transports = TRANSPORTS, timeout, ...daemonOptions } = options;
  it(
    title,
    async () => {
      for (const transport of transports) {
        const target = await startTarget(transport, daemonOptions);
        try {
          await body(target);
        } catch (error) {
          if (error instanceof Error) error.message = `[over ${transport}] ${error.message}`;
          throw error;
        } finally {
          await target.stop();
        }
      }
    },
    timeout,
  );
}

/** The `error.data` wrapper every JSON-RPC error of the daemon carries (§2), with this canonical code. */
export function errorData(code: string, details: unknown = null): Record<string, unknown> {
  return {
    code,
    phase: "preflight",
    message: expect.any(String),
    mutationPossible: false,
    retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    details,
  };
}

/** The text of a tool result's items, in order. */
export function texts(response: RawResponse): string[] {
  const content = (response.result?.content ?? []) as { type: string; text?: string }[];
  return content.filter((item) => item.type === "text").map((item) => item.text!);
}

/** Whether a response is the tool failure `browser tool failed` (an isError result, never a JSON-RPC error). */
export function isBrowserToolFailed(response: RawResponse): boolean {
  return response.error === undefined && response.result?.isError === true && texts(response)[0] === "browser tool failed";
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
