import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import type { GlassError } from "../errors/glass-error.js";
import type { JsonRpcMessage } from "../mcp/json-rpc.js";
import type { GlassTransport, TransportHandlers } from "../transport/transport.js";
import { notEncodable } from "../transport/transport-util.js";
import type { DaemonContext } from "../mock-daemon/daemon-context.js";
import type { DaemonMessage } from "../mock-daemon/json-rpc-replies.js";
import type { RecordedCall } from "../mock-daemon/daemon-record.js";
import type { MockDaemonLimits } from "../mock-daemon/limits.js";
import { McpServerSession, type GarbageKind, type SessionConnection } from "../mock-daemon/mcp-server-session.js";
import type { GoldenFixture } from "../mock-daemon/golden-fixture.js";
import { createReplayDaemonContext, type ReplayDaemonOptions } from "./replay-daemon.js";
import type { ReplayEngine } from "../mock-daemon/replay-engine.js";

/** Options of {@link inMemoryTransport}: how the in-process daemon behaves (all optional). */
export type InMemoryTransportOptions = ReplayDaemonOptions;

/** A transport to an in-process replay daemon; it also shows what the daemon received. */
export interface InMemoryTransport extends GlassTransport {
  /** `memory`. */
  readonly kind: "memory";
  /** Every `tools/call` the daemon received, in order (MCP-only arguments included). */
  readonly calls: readonly RecordedCall[];
}

/** The framing the session is told messages arrived in (there are no bytes, so nothing depends on it). */
const FRAMING = "newline";

/**
 * A {@link GlassTransport} to a daemon that lives in the same process: an MCP server session of
 * the mock daemon answering from a golden fixture (or a replay engine), with no bytes, sockets or
 * child processes involved — it works in Node, browsers and edge runtimes alike.
 *
 * Messages cross as JSON (serialized and parsed, as on a wire), asynchronously and in order; the
 * daemon's session rules, leases (`mode: "socket"`) and faults apply (docs/testing.md, "Testing
 * without a daemon"). A crash fault closes the transport with `transport.closed`, a malformed frame
 * is reported through `onError`, and a partial frame silences the daemon.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { inMemoryTransport, parseFixture } from "glass-sdk/testing";
 *
 * declare const json: unknown; // a fixture, fetched or bundled
 * const glass = await Glass.connect(inMemoryTransport(parseFixture(json)));
 * const page = await glass.browser.observe({ level: "summary" }); // answered if the fixture recorded it
 * ```
 */
export function inMemoryTransport(
  source: ReplayEngine | GoldenFixture,
  options: InMemoryTransportOptions = {},
): InMemoryTransport {
  return new InMemoryDaemon(createReplayDaemonContext(source, options)).connect();
}

/**
 * An in-process daemon that in-memory transports connect to: each transport is one session (on
 * the socket, its own client: the lease is shared), all of them share the daemon's record,
 * limits and faults, and a crash closes every one.
 */
export class InMemoryDaemon {
  readonly context: DaemonContext;
  readonly #open = new Set<InMemoryReplayTransport>();
  #clients = 0;

  constructor(context: DaemonContext) {
    this.context = context;
    context.crash = () => {
      for (const transport of [...this.#open])
        transport.end(new TransportClosedError({ message: "the in-memory daemon crashed (crashAfterCalls fault)" }));
      context.leases?.reset();
    };
  }

  /** A new transport to this daemon (not started yet). */
  connect(): InMemoryTransport {
    return new InMemoryReplayTransport(this.context, {
      clientId: () => (this.context.mode === "stdio" ? "stdio" : `client-${++this.#clients}`),
      opened: (transport) => this.#open.add(transport),
      closed: (transport) => this.#open.delete(transport),
    });
  }
}

/** How a transport tells its daemon it came and went. */
interface DaemonHooks {
  clientId(): string;
  opened(transport: InMemoryReplayTransport): void;
  closed(transport: InMemoryReplayTransport): void;
}

class InMemoryReplayTransport implements InMemoryTransport, SessionConnection {
  readonly kind = "memory";
  readonly maxInFlight: number;
  readonly #context: DaemonContext;
  readonly #daemon: DaemonHooks;
  #handlers: TransportHandlers | undefined;
  #session: McpServerSession | undefined;
  #state: "new" | "open" | "closed" = "new";
  /** Set by the partial-frame fault: nothing more reaches the client. */
  #silenced = false;

  constructor(context: DaemonContext, daemon: DaemonHooks) {
    this.#context = context;
    this.#daemon = daemon;
    this.maxInFlight = sessionLimit(context.mode, context.limits);
  }

  get calls(): readonly RecordedCall[] {
    return this.#context.record.calls;
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.#state === "closed")
      return Promise.reject(
        new TransportClosedError({ message: "the in-memory transport was closed before it started" }),
      );
    if (this.#state === "open")
      return Promise.reject(
        new TransportUnavailableError({ message: "start() was already called: a transport is started once" }),
      );
    this.#handlers = handlers;
    this.#session = new McpServerSession(this.#context, this.#daemon.clientId(), this);
    this.#state = "open";
    this.#daemon.opened(this);
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#state !== "open") return Promise.reject(this.#notOpen());
    let copy: unknown;
    try {
      copy = wireCopy(message);
    } catch (error) {
      return Promise.reject(notEncodable(error));
    }
    return new Promise((resolve, reject) => {
      queueMicrotask(() => {
        if (this.#state !== "open") return reject(this.#notOpen());
        this.#session?.handle(copy, FRAMING);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    if (this.#state !== "closed") this.end(undefined);
    return Promise.resolve();
  }

  /** Called by the daemon's session: delivers an answer (or a daemon request) to the client. */
  write(message: DaemonMessage): void {
    if (this.#silenced || this.#state !== "open") return;
    const copy = wireCopy(message) as JsonRpcMessage;
    queueMicrotask(() => {
      if (this.#state === "open") this.#handlers?.onMessage(copy);
    });
  }

  /** Called by the daemon's session for the malformed-, partial- and oversized-frame faults. */
  writeGarbage(kind: GarbageKind): void {
    if (this.#silenced || this.#state !== "open") return;
    if (kind === "partialFrame") {
      this.#silenced = true;
      return;
    }
    const message =
      kind === "oversizedFrame"
        ? "the in-memory daemon sent a frame over the 32 MiB response limit (oversizedFrame fault); it was skipped"
        : "the in-memory daemon sent a frame that is not JSON (malformedFrame fault); it was skipped";
    queueMicrotask(() => {
      if (this.#state === "open") this.#handlers?.onError?.(new BadFrameError({ message, phase: "dispatch" }));
    });
  }

  /** Ends the connection once: the daemon forgets the session, the owner hears `onClose(error)`. */
  end(error: GlassError | undefined): void {
    if (this.#state === "closed") return;
    const wasOpen = this.#state === "open";
    this.#state = "closed";
    this.#daemon.closed(this);
    this.#session?.close();
    this.#context.record.changed();
    if (wasOpen) this.#handlers?.onClose(error);
  }

  #notOpen(): GlassError {
    return this.#state === "closed"
      ? new TransportClosedError({ message: "the in-memory transport is closed; the message was not sent" })
      : new TransportClosedError({ message: "the in-memory transport is not started: call start() first" });
  }
}

/** The message as the other side would decode it from the wire: a deep copy through JSON. */
function wireCopy(message: unknown): unknown {
  return JSON.parse(JSON.stringify(message)) as unknown;
}

/**
 * The requests one client may have in flight under the daemon's limits (8 over stdio and 4 on the
 * socket by default, smaller when the daemon is given smaller ones), so that the client queues
 * rather than overruns them. A client's own `maxInFlight` option still overrides it (to provoke
 * -32000 on purpose).
 */
function sessionLimit(mode: DaemonContext["mode"], limits: MockDaemonLimits): number {
  return mode === "stdio" ? limits.maxActivePerSession : Math.min(limits.maxInFlightPerClient, limits.maxInFlightTotal);
}
