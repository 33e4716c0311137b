import type { GlassCapabilityManifest } from "../../../generated/types/glass-capabilities-v1.js";
import type { OperationName } from "../../../generated/operation-map.js";
import { EMPTY_FIXTURE, type GoldenFixture } from "../../mock-daemon/golden-fixture.js";
import { createReplayEngine, type ReplayEngine } from "../../mock-daemon/replay-engine.js";
import { siteHandlersFor, type SimulatedSiteOptions } from "../../mock-daemon/site/index.js";
import type { ReplayMatchOptions } from "../../mock-daemon/replay-match.js";
import { createDaemonContext } from "../../mock-daemon/daemon-context.js";
import type { RecordedCall, RecordedClientAnswer } from "../../mock-daemon/daemon-record.js";
import type { MockDaemonFaults } from "../../mock-daemon/faults.js";
import type { MockHandlers } from "../../mock-daemon/handlers.js";
import type { LeaseGrant } from "../../mock-daemon/leases.js";
import { DEFAULT_LIMITS, resolveLimits, type MockDaemonLimits } from "../../mock-daemon/limits.js";
import { loadFixture } from "../load-fixture.js";
import { buildManifest, type MockDaemonMode, type MockManifestOptions } from "../../mock-daemon/manifest.js";
import { defaultFixturePath, packageVersion } from "./package-files.js";
import { serveSocket } from "./socket-server.js";
import { serveStdio } from "./stdio-server.js";
import type { ReadableByteStream, WritableByteStream } from "./byte-streams.js";

/** Options of {@link startMockDaemon}. */
export interface MockDaemonOptions extends MockManifestOptions {
  /**
   * The fixture to answer from, or its path. Given, the daemon replays it (under `handlers`, if
   * any) and the simulated site is off unless `site` is true. Default: none — the simulated site
   * answers, as in `createMockGlass()`; with `fast`, the package's golden fixture
   * (`fixtures/protocol-golden-v1.json`, also `goldenFixture()` of `glass-sdk/testing`).
   */
  fixture?: GoldenFixture | string;
  /** How recorded requests are matched to live ones: fields to ignore, or a matcher of your own. */
  match?: ReplayMatchOptions;
  /**
   * Typed handlers by operation (see {@link MockHandlers}); operations without one are answered from
   * the fixture's exact matches, then by the simulated site when it is on. Cannot be combined with `fast`.
   */
  handlers?: MockHandlers;
  /**
   * Serve the simulated site (a fresh one per daemon), or serve it with these options, for calls
   * that neither a handler nor an exact fixture match answers. Default: on when no `fixture` is
   * given and not `fast`. Options the site refuses reject the start with a TypeError. See
   * docs/testing.md, "What it serves by default: a simulated site".
   */
  site?: boolean | SimulatedSiteOptions;
  /**
   * Listen on this Unix socket path (mode 0600, with leases); without it, serve stdio. Put it in a
   * directory only you can write to, not in /tmp itself, where another user could put a socket of
   * their own at the path while the daemon is not running.
   */
  socket?: string;
  /** stdio mode: the stream requests arrive on (default `process.stdin`; any Node `Readable` of bytes fits). */
  stdin?: ReadableByteStream;
  /** stdio mode: the stream answers go to (default `process.stdout`; any Node `Writable` fits); it carries only MCP. */
  stdout?: WritableByteStream;
  /** Delay before each `tools/call` is answered, in ms (default 0). */
  latencyMs?: number;
  /** Misbehaviour to show (see {@link MockDaemonFaults}). */
  faults?: MockDaemonFaults;
  /**
   * Fast replay mode, for benchmarks (docs/testing.md, "The mock daemon", `--fast`): read-only
   * catalog tools are answered from one result precomputed per operation (the fixture's first
   * recording of it), not matched, validated or recorded; JSON lines may be 4 MiB unless `limits` says otherwise. Mutating tools, calls carrying lease
   * context, `responseMode` or `includeTrace`, and tools the fixture has no answer for take the full
   * path. Cannot be combined with `latencyMs` or `faults`.
   */
  fast?: boolean;
  /** Limits to change (tests use small ones); the defaults are the real daemon's. */
  limits?: Partial<MockDaemonLimits>;
  /**
   * Called when the crash fault fires, after the daemon stopped serving. The CLI exits the process
   * here; in-process, a stdio daemon ends its output stream and a socket daemon drops its clients.
   */
  onCrash?: () => void;
  /**
   * Called when a client breaks the framing rules (§5) and the daemon ends its connection without
   * a reply: the client (`stdio`, or `client-N` on the socket) and why. Over stdio that ends the
   * daemon: `stopped` resolves (and an output stream other than `process.stdout` is ended).
   */
  onFramingViolation?: (clientId: string, reason: string) => void;
}

/** A running mock daemon, with what it has seen for tests to check. */
export interface MockDaemon {
  /** `socket` when listening on a socket, else `stdio`. */
  readonly mode: MockDaemonMode;
  /** The socket path (socket mode). */
  readonly socketPath: string | undefined;
  /** The manifest sent with every initialize. */
  readonly manifest: GlassCapabilityManifest;
  /** The replay engine answering tool calls. */
  readonly engine: ReplayEngine;
  /** Every `tools/call` received, in order of arrival. */
  readonly calls: readonly RecordedCall[];
  /** The calls of one operation, in order of arrival, typed by it (see `RecordedCall`). */
  callsTo<Op extends OperationName>(operation: Op): RecordedCall<Op>[];
  /** Every answer clients gave to requests the daemon sent them (server-request fault). */
  readonly clientAnswers: readonly RecordedClientAnswer[];
  /** The lease in force, as a list (at most one on a daemon; none over stdio). */
  activeLeases(): LeaseGrant[];
  /** Clients connected now (stdio: 1 until the session ends). */
  clientCount(): number;
  /** Requests in flight on the whole daemon. */
  inFlight(): number;
  /** Resolves once `condition` holds, checked now and whenever a call or client answer is recorded, a call starts or ends, or a client comes or goes. */
  waitFor(condition: (daemon: MockDaemon) => boolean): Promise<void>;
  /** Whether the crash fault has fired. */
  readonly crashed: boolean;
  /** Resolves when the daemon stops serving: stdin EOF or a crash (stdio), or `close()`. */
  readonly stopped: Promise<void>;
  /** Stops the daemon: drops every client (in-flight calls go unanswered) and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Starts a mock Glass daemon speaking the daemon's MCP protocol over stdio or a Unix socket,
 * answering with `handlers`, a `fixture`, or (by default) the simulated site. See docs/testing.md,
 * "The mock daemon". Rejects when the fixture cannot be loaded, the handlers are not handlers, or
 * the socket path is taken.
 */
export async function startMockDaemon(options: MockDaemonOptions = {}): Promise<MockDaemon> {
  const fixture = await fixtureOf(options);
  const mode: MockDaemonMode = options.socket === undefined ? "stdio" : "socket";
  const manifest = buildManifest(mode, `${process.platform}-${process.arch}`, options);
  // Fast mode reads JSON lines as large as Content-Length bodies, unless the limits say otherwise.
  const limits =
    options.fast === true
      ? {
          ...options.limits,
          maxNewlineRequestBytes: options.limits?.maxNewlineRequestBytes ?? DEFAULT_LIMITS.maxContentLengthBytes,
        }
      : options.limits;
  const context = createDaemonContext({
    mode,
    engine: createReplayEngine(fixture, { match: options.match }),
    handlers: options.handlers,
    fallbackHandlers: siteHandlersFor(options.site, options.fixture === undefined && options.fast !== true),
    manifest,
    serverVersion: packageVersion(),
    limits: resolveLimits(limits),
    latencyMs: options.latencyMs,
    faults: options.faults,
    fast: options.fast,
  });
  let crashed = false;
  let finish!: () => void;
  const stopped = new Promise<void>((resolve) => (finish = resolve));

  let clientCount: () => number;
  let close: () => Promise<void>;
  if (options.socket !== undefined) {
    const server = await serveSocket(context, options.socket, options.onFramingViolation);
    clientCount = server.clientCount;
    close = async () => {
      await server.close();
      finish();
    };
    context.crash = () => {
      crashed = true;
      server.dropClients();
      context.leases?.reset();
      options.onCrash?.();
    };
  } else {
    const output = options.stdout ?? process.stdout;
    const server = serveStdio(context, options.stdin ?? process.stdin, output);
    let serving = true;
    void server.done.then((violation) => {
      serving = false;
      if (violation !== undefined) {
        if (output !== process.stdout) output.end();
        options.onFramingViolation?.("stdio", violation);
      }
      context.record.changed();
      finish();
    });
    clientCount = () => (serving ? 1 : 0);
    close = async () => {
      server.close();
      await server.done;
    };
    context.crash = () => {
      crashed = true;
      server.close();
      if (output !== process.stdout) output.end();
      options.onCrash?.();
    };
  }

  const daemon: MockDaemon = {
    mode,
    socketPath: options.socket,
    manifest,
    engine: context.engine,
    calls: context.record.calls,
    callsTo: (operation) => context.record.callsTo(operation),
    clientAnswers: context.record.clientAnswers,
    activeLeases: () => {
      const lease = context.leases?.active();
      return lease === undefined ? [] : [lease];
    },
    clientCount: () => clientCount(),
    inFlight: () => context.inFlight,
    waitFor: (condition) => context.record.waitFor(() => condition(daemon)),
    get crashed() {
      return crashed;
    },
    stopped,
    close: () => close(),
  };
  return daemon;
}

/** The fixture a daemon answers from: the one given (or read from its path), the golden one in fast mode, else none. */
async function fixtureOf(options: MockDaemonOptions): Promise<GoldenFixture> {
  if (typeof options.fixture === "object") return options.fixture;
  if (options.fixture !== undefined) return loadFixture(options.fixture);
  return options.fast === true ? loadFixture(defaultFixturePath()) : EMPTY_FIXTURE;
}
