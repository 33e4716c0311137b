/**
 * Shared pieces of the fault-injection suites (test/reliability/faults/): one client on
 * one connection to a mock daemon with faults, over stdio (the CLI as a child process), the Unix
 * socket (in-process daemon), HTTP or WebSocket (the bridge in front of an in-process socket
 * daemon); a tap on the transport that records what went over the wire; and helpers that make a
 * hanging call fail the test instead of hanging it.
 */
import { expect } from "vitest";
import {
  Glass,
  GlassError,
  httpTransport,
  webSocketTransport,
  type GlassClientOptions,
  type GlassLogEvent,
  type GlassTransport,
} from "glass-sdk";
import type { JsonRpcMessage } from "../../../src/mcp/json-rpc.js";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import type { MockDaemon } from "glass-sdk/testing/node";
import type { MockDaemonFaults } from "glass-sdk/testing";
import type { Bridge } from "../../../src/node/bridge/start-bridge.js";
import type { TransportHandlers } from "../../../src/transport/transport.js";
import { CLI, eventually, ROOT, startBridgeHarness, type BridgeHarness } from "../../support/bridge-harness.js";
import { GOLDEN_CLI_ARGS, readGoldenFixture } from "../../support/golden-fixture.js";
import { mockDaemonOnSocket, type SocketMock } from "../../support/mock-daemon-transports.js";

const fixture = readGoldenFixture();
const fixtureRequest = (requestId: string) => fixture.requests.find((r) => r.requestId === requestId)!;
const fixtureResponse = (requestId: string) => fixture.responses.find((r) => r.requestId === requestId)!;

/** A read-only call (`browser.observe`, tool `observe`) the fixture answers with revision 12. */
export const observePayload = fixtureRequest("observe-loans").payload as never;
/** What the fixture answers to it. */
export const observeResult = fixtureResponse("observe-loans").result as Record<string, unknown>;
/** A mutating call (`browser.click`, tool `click`): the fixture answers it with the daemon error `staleRevision`. */
export const clickPayload = fixtureRequest("click-renew").payload as never;

/** The four ways the issue asks about. */
export type TransportKind = "stdio" | "socket" | "http" | "websocket";

/** The transports with mutation leases: the daemon socket, and the bridge in front of it. */
export type LeaseTransportKind = Exclude<TransportKind, "stdio">;

/** Whether `kind` has mutation leases (all but stdio, where mutating calls need none). */
export function hasLeases(kind: TransportKind): kind is LeaseTransportKind {
  return kind !== "stdio";
}

/** Everything that crossed one client's transport, in order. */
export class Wire {
  readonly sent: JsonRpcMessage[] = [];
  readonly received: JsonRpcMessage[] = [];
  readonly badFrames: GlassError[] = [];
  readonly closes: (GlassError | undefined)[] = [];

  /** How many `tools/call` requests for `tool` the client wrote. */
  toolCallsSent(tool: string): number {
    return this.sent.filter(
      (m) => "method" in m && m.method === "tools/call" && (m.params as { name?: unknown } | undefined)?.name === tool,
    ).length;
  }

  /** The ids the client sent `notifications/cancelled` for. */
  cancelled(): unknown[] {
    return this.sent
      .filter((m) => "method" in m && m.method === "notifications/cancelled")
      .map((m) => (m as { params?: { requestId?: unknown } }).params?.requestId);
  }

  /** The ids of the `tools/call` requests the client wrote for `tool`. */
  toolCallIds(tool: string): unknown[] {
    return this.sent
      .filter(
        (m) =>
          "method" in m && m.method === "tools/call" && (m.params as { name?: unknown } | undefined)?.name === tool,
      )
      .map((m) => (m as { id: unknown }).id);
  }

  /** The responses (not requests) received for `id`. */
  answersTo(id: unknown): JsonRpcMessage[] {
    return this.received.filter((m) => !("method" in m) && (m as { id?: unknown }).id === id);
  }
}

/** Wraps a transport so that every message in and out (and every bad frame and close) is recorded in `wire`. */
export function tapTransport(inner: GlassTransport, wire: Wire): GlassTransport {
  return {
    kind: inner.kind,
    maxInFlight: inner.maxInFlight,
    start: (handlers: TransportHandlers) =>
      inner.start({
        onMessage: (message) => {
          wire.received.push(message);
          handlers.onMessage(message);
        },
        onClose: (error) => {
          wire.closes.push(error);
          handlers.onClose(error);
        },
        onError: (error) => {
          wire.badFrames.push(error);
          handlers.onError?.(error);
        },
        onReset: () => handlers.onReset?.(),
      }),
    send: (message) => {
      wire.sent.push(message);
      return inner.send(message);
    },
    close: () => inner.close(),
  };
}

/** How a rig is set up. */
export interface RigOptions {
  /** The daemon's faults. */
  faults?: MockDaemonFaults;
  /** The daemon's delay before each tools/call answer. */
  latencyMs?: number;
  /** Client options on top of the suite's defaults (short retry backoff and cancel grace, 5 s deadline). */
  client?: GlassClientOptions;
  /** stdio and socket: how long a frame may take after its first byte before the client drops it. */
  frameTimeoutMs?: number;
}

/** One client on one connection to a mock daemon, with what can be observed about both. */
export interface Rig {
  readonly kind: TransportKind;
  readonly glass: Glass;
  readonly wire: Wire;
  /** The client's log events. */
  readonly events: GlassLogEvent[];
  /** The in-process daemon (socket, HTTP, WebSocket); over stdio it is a child process we only see through the wire. */
  readonly daemon: MockDaemon | undefined;
  readonly bridge: Bridge | undefined;
  readonly bridgeLogs: string[];
  /** Whether this transport has mutation leases (all but stdio). */
  readonly leases: boolean;
  /**
   * How many times the daemon received a tools/call for `tool`: its own record when it runs
   * in-process (checked against what the client wrote), else what the client wrote (the daemon
   * cannot receive more than that).
   */
  received(tool: string): number;
  /** A new transport to the same daemon (for a second client). */
  newTransport(): GlassTransport;
  /** Waits until the daemon has received `count` tool calls (in-process) or the client wrote them (stdio). */
  untilCalls(count: number): Promise<void>;
  stop(): Promise<void>;
}

/** The suite's client defaults: 5 s deadline, fast retries, a short cancel grace, every log event kept. */
function clientOptions(events: GlassLogEvent[], extra: GlassClientOptions = {}): GlassClientOptions {
  return {
    deadlineMs: 5_000,
    cancelGraceMs: 100,
    ...extra,
    retry: extra.retry === false ? false : { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20, ...extra.retry },
    logger: (event) => {
      events.push(event);
      extra.logger?.(event);
    },
  };
}

/** The CLI's mock daemon over stdio (run from source), with these faults. */
export function stdioMock(
  options: { faults?: MockDaemonFaults; latencyMs?: number; frameTimeoutMs?: number } = {},
): GlassTransport {
  const args = ["--import", "tsx", CLI, "mock-daemon", ...GOLDEN_CLI_ARGS];
  if (options.faults !== undefined) args.push("--faults", JSON.stringify(options.faults));
  if (options.latencyMs !== undefined) args.push("--latency", String(options.latencyMs));
  return stdioTransport({
    command: process.execPath,
    args,
    cwd: ROOT,
    closeTimeoutMs: 1000,
    ...(options.frameTimeoutMs === undefined ? {} : { frameTimeoutMs: options.frameTimeoutMs }),
  });
}

/** Starts a mock daemon with the faults, the transport to it, and a connected client. */
export async function startRig(kind: TransportKind, options: RigOptions = {}): Promise<Rig> {
  const wire = new Wire();
  const events: GlassLogEvent[] = [];
  const daemonOptions = {
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
  };
  let socketMock: SocketMock | undefined;
  let harness: BridgeHarness | undefined;
  let newTransport: () => GlassTransport;
  if (kind === "stdio") {
    newTransport = () =>
      stdioMock({
        ...daemonOptions,
        ...(options.frameTimeoutMs === undefined ? {} : { frameTimeoutMs: options.frameTimeoutMs }),
      });
  } else if (kind === "socket") {
    const mock = await mockDaemonOnSocket(daemonOptions);
    socketMock = mock;
    newTransport = () =>
      socketTransport({
        path: mock.path,
        closeTimeoutMs: 1000,
        ...(options.frameTimeoutMs === undefined ? {} : { frameTimeoutMs: options.frameTimeoutMs }),
      });
  } else {
    const started = await startBridgeHarness({}, daemonOptions);
    harness = started;
    newTransport =
      kind === "http"
        ? () => httpTransport({ url: started.bridge.url, token: started.bridge.token })
        : () => webSocketTransport({ url: started.bridge.wsUrl, token: started.bridge.token });
  }
  const daemon = socketMock?.daemon ?? harness?.daemon;
  let glass: Glass;
  try {
    glass = await Glass.connect(tapTransport(newTransport(), wire), clientOptions(events, options.client));
  } catch (error) {
    await socketMock?.stop();
    await harness?.stop();
    throw error;
  }
  return {
    kind,
    glass,
    wire,
    events,
    daemon,
    bridge: harness?.bridge,
    bridgeLogs: harness?.logs ?? [],
    leases: hasLeases(kind),
    received(tool) {
      const written = wire.toolCallsSent(tool);
      if (daemon === undefined) return written;
      const seen = daemon.calls.filter((call) => call.tool === tool).length;
      expect(seen, `the daemon received ${tool} more often than the client wrote it`).toBeLessThanOrEqual(written);
      return seen;
    },
    newTransport,
    async untilCalls(count) {
      if (daemon !== undefined)
        await settle(
          daemon.waitFor((d) => d.calls.length >= count),
          5_000,
          `the daemon receiving ${count} calls`,
        );
      else
        await waitUntil(
          () => wire.sent.filter((m) => "method" in m && m.method === "tools/call").length >= count,
          `the client writing ${count} calls`,
        );
    },
    async stop() {
      await glass.close().catch(() => undefined);
      await socketMock?.stop();
      await harness?.stop();
    },
  };
}

/** How a call ended, and how long it took. */
export type Outcome<T> = { ok: true; value: T; ms: number } | { ok: false; error: unknown; ms: number };

/**
 * Waits for `promise` to settle, at most `boundMs`: past that the test fails with "… did not settle"
 * (a hang becomes a failure, never a stuck run). Never rejects otherwise.
 */
export async function settle<T>(promise: Promise<T>, boundMs: number, label: string): Promise<Outcome<T>> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not settle within ${boundMs} ms: it hangs`)), boundMs);
  });
  try {
    return await Promise.race([
      promise.then(
        (value): Outcome<T> => ({ ok: true, value, ms: Date.now() - started }),
        (error: unknown): Outcome<T> => ({ ok: false, error, ms: Date.now() - started }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error class (constructor) a failure must be an instance of. */
export type ErrorClass = abstract new (...args: never[]) => GlassError;

/** Asserts the call failed with this class and these fields; returns the error. */
export function failedWith<T>(outcome: Outcome<T>, cls: ErrorClass, fields: Record<string, unknown>): GlassError {
  if (outcome.ok)
    throw new Error(
      `expected a ${cls.name} ${JSON.stringify(fields)}, but the call succeeded with ${JSON.stringify(outcome.value)}`,
    );
  const error = outcome.error;
  expect(error, `expected a ${cls.name}, got ${String(error)}`).toBeInstanceOf(cls);
  expect(error).toMatchObject(fields);
  return error as GlassError;
}

/** Asserts the call succeeded; returns its value. */
export function succeeded<T>(outcome: Outcome<T>): T {
  if (!outcome.ok)
    throw new Error(
      `expected success, got ${outcome.error instanceof GlassError ? `${outcome.error.name} ${outcome.error.code}: ${outcome.error.message}` : String(outcome.error)}`,
    );
  return outcome.value;
}

/** Polls `condition` every 5 ms; fails with `what` after `timeoutMs` (5 s by default). test/support's `eventually`, under the name the fault suites use. */
export const waitUntil = eventually;

/** Waits (up to the cancel grace and a margin) until the client holds nothing, then asserts `stats()`. */
export async function expectIdle(glass: Glass, closed: boolean): Promise<void> {
  await waitUntil(
    () => {
      const stats = glass.stats();
      return stats.inFlight === 0 && stats.queued === 0 && stats.awaitingAnswer === 0;
    },
    `glass.stats() is idle (now ${JSON.stringify(glass.stats())})`,
    2_000,
  ).catch(() => undefined);
  expect(glass.stats()).toEqual({ inFlight: 0, queued: 0, awaitingAnswer: 0, closed });
}

/** The `wire` log events of the client: what it saw on the wire that it skipped or answered (bad frames, unknown responses, daemon requests). */
export function wireEvents(events: GlassLogEvent[]): string[] {
  return events.filter((e): e is Extract<GlassLogEvent, { type: "wire" }> => e.type === "wire").map((e) => e.detail);
}

/** The client's retry log events for an operation. */
export function retries(events: GlassLogEvent[], operation: string): Extract<GlassLogEvent, { type: "retry" }>[] {
  return events.filter(
    (e): e is Extract<GlassLogEvent, { type: "retry" }> => e.type === "retry" && e.operation === operation,
  );
}

/**
 * Asserts no mutating call was ever repeated: every `click` the client wrote has its own JSON-RPC
 * id, and the daemon (when in-process) received each id at most once. Returns how many were written.
 */
export function expectNoRepeatedMutation(rig: Rig): number {
  const ids = rig.wire.toolCallIds("click");
  expect(new Set(ids).size, `a click was written twice: ${JSON.stringify(ids)}`).toBe(ids.length);
  if (rig.daemon !== undefined) {
    const received = rig.daemon.calls.filter((call) => call.tool === "click").map((call) => call.id);
    expect(new Set(received).size, `the daemon received a click twice: ${JSON.stringify(received)}`).toBe(
      received.length,
    );
  }
  return ids.length;
}

/** A read (`browser.observe`) on the rig's client, bounded. */
export function read(
  rig: Rig,
  options: { deadlineMs?: number; signal?: AbortSignal } = {},
  boundMs = 8_000,
): Promise<Outcome<unknown>> {
  return settle(rig.glass.browser.observe(observePayload, options), boundMs, `${rig.kind}: browser.observe`);
}

/** A mutation (`browser.click`) on the rig's client (under the lease the test acquired, where there are leases), bounded. */
export function mutate(
  rig: Rig,
  options: { deadlineMs?: number; signal?: AbortSignal } = {},
  boundMs = 8_000,
): Promise<Outcome<unknown>> {
  return settle(rig.glass.browser.click(clickPayload, options), boundMs, `${rig.kind}: browser.click`);
}

/** Acquires the mutation lease where the transport has leases (the daemon socket, and the bridge in front of it). */
export async function leaseIfAny(rig: Rig): Promise<void> {
  if (rig.leases)
    succeeded(await settle(rig.glass.acquireLease({ ttlMs: 60_000 }), 5_000, `${rig.kind}: acquireLease`));
}

/**
 * Sends a read and a mutation together and expects both answered as the daemon answers them (the
 * read with the fixture's result, the click with its staleRevision error): the client is still usable.
 */
export async function expectReadAndMutationAnswered(rig: Rig): Promise<void> {
  const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
  expect(succeeded(observed)).toEqual(observeResult);
  failedWith(clicked, GlassError, { code: "staleRevision", mutationPossible: false });
}
