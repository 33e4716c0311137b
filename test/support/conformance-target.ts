import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "../../src/testing/node/start-mock-daemon.js";
import { GOLDEN_FIXTURE_PATH } from "./golden-fixture.js";
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
export async function startTarget(
  transport: TransportName,
  options: TargetOptions = {},
): Promise<Target & { stop(): Promise<void> }> {
  const peers: RawPeer[] = [];
  const daemons: MockDaemon[] = [];
  const daemonOf = new Map<RawPeer, MockDaemon>();
  let dir: string | undefined;
  let connect: () => Promise<RawPeer>;
  if (transport === "socket") {
    dir = mkdtempSync(join(tmpdir(), "glass-rules-"));
    const path = join(dir, "glass.sock");
    daemons.push(await startMockDaemon({ site: false, fixture: GOLDEN_FIXTURE_PATH, ...options, socket: path }));
    connect = () => RawPeer.connect(path);
  } else {
    connect = async () => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      daemons.push(await startMockDaemon({ site: false, fixture: GOLDEN_FIXTURE_PATH, ...options, stdin, stdout }));
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
  if (process.env.GLASS_RULES_TARGET === "daemon")
    return realDaemonRule(title, body, transports, Object.keys(daemonOptions).length > 0, timeout);
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

/**
 * A rule checked against the real daemon instead (`GLASS_RULES_TARGET=daemon`, set by `npm run
 * test:daemon`): over each transport, against glass-browser. A rule that needs a mock configured
 * otherwise than the daemon's defaults, or that inspects the mock's own state, is skipped; a rule
 * the daemon is known to break (test/daemon/support/rule-differences.ts) must still fail, with the
 * reason listed, so the list stays true.
 */
/** How long one rule may take over one transport against the real daemon. */
const REAL_RULE_MS = 15_000;

function realDaemonRule(
  title: string,
  body: (target: Target) => Promise<void>,
  transports: readonly TransportName[],
  configured: boolean,
  timeout: number | undefined,
): void {
  if (configured) return void it.skip(`${title} (needs a mock daemon configured otherwise than the daemon)`, () => {});
  it(
    title,
    async (context) => {
      const { startRealTarget, MockOnlyError } = await import("../daemon/support/real-target.js");
      const { RULE_DIFFERENCES } = await import("../daemon/support/rule-differences.js");
      const failures: string[] = [];
      for (const transport of transports) {
        const real = await startRealTarget(transport);
        const target: Target = {
          transport,
          connect: () => real.connect(),
          hangUp: (peer) => real.hangUp(peer),
          connectReady: async (glass?: unknown) => {
            const peer = await real.connect();
            await handshake(peer, glass);
            return peer;
          },
          get daemon(): MockDaemon {
            throw new MockOnlyError();
          },
        };
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          // A rule that waits for what the daemon never does fails here rather than at the test's timeout.
          const noVerdict = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new Error(
                    `no verdict within ${REAL_RULE_MS / 1000} s: the rule waited for something the daemon did not do`,
                  ),
                ),
              REAL_RULE_MS,
            );
          });
          await Promise.race([body(target), noVerdict]);
        } catch (error) {
          if (error instanceof MockOnlyError) return context.skip(error.message);
          const { actual } = error as { actual?: unknown };
          failures.push(
            `[over ${transport}] ${error instanceof Error ? error.message : String(error)}${actual === undefined ? "" : ` (got ${JSON.stringify(actual)?.slice(0, 600)})`}`,
          );
        } finally {
          clearTimeout(timer);
          await real.stop();
        }
      }
      const known = RULE_DIFFERENCES[title];
      if (known !== undefined) {
        expect(
          failures,
          `listed as a difference (${known}), yet the daemon follows the rule: remove it from rule-differences.ts`,
        ).not.toEqual([]);
        return;
      }
      expect(failures).toEqual([]);
    },
    Math.max(timeout ?? 0, 2 * REAL_RULE_MS + 20_000),
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
  return (
    response.error === undefined && response.result?.isError === true && texts(response)[0] === "browser tool failed"
  );
}

/**
 * Whether a tool call was served: neither a JSON-RPC error (the lease gate, the params) nor `browser
 * tool failed` (arguments the tool could not decode). Its tool may still have failed, as any tool
 * may (the mock has no recording, the daemon's page no such target).
 */
export function isAccepted(response: RawResponse): boolean {
  return response.error === undefined && response.result !== undefined && !isBrowserToolFailed(response);
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
