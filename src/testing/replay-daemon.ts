import { createDaemonContext, type DaemonContext } from "../mock-daemon/daemon-context.js";
import type { MockDaemonFaults } from "../mock-daemon/faults.js";
import { resolveLimits, type MockDaemonLimits } from "../mock-daemon/limits.js";
import { buildManifest, type MockDaemonMode, type MockManifestOptions } from "../mock-daemon/manifest.js";
import { EMPTY_FIXTURE, type GoldenFixture } from "../mock-daemon/golden-fixture.js";
import type { MockHandlers } from "../mock-daemon/handlers.js";
import { createReplayEngine, type ReplayEngine } from "../mock-daemon/replay-engine.js";
import { siteHandlersFor, type SimulatedSiteOptions } from "../mock-daemon/site/index.js";
import type { ReplayMatchOptions } from "../mock-daemon/replay-match.js";

/**
 * How an in-process replay daemon behaves (the in-memory transport and the MSW handlers): the same
 * choices the mock daemon offers, every one with a default.
 */
export interface ReplayDaemonOptions extends MockManifestOptions {
  /**
   * `stdio` (default): no mutation leases, 8 requests active per session, capability `mcpStdio`.
   * `socket`: like the daemon's Unix socket — `glass/lease/*` and lease checks on mutating tools
   * (one lease shared by every session of the daemon), 4 requests in flight per session,
   * capability `localDaemon`.
   */
  mode?: MockDaemonMode;
  /** Delay before each `tools/call` is answered, in ms (default 0). */
  latencyMs?: number;
  /** Misbehaviour to show, counted over all sessions (see {@link MockDaemonFaults}). */
  faults?: MockDaemonFaults;
  /** Limits to change; the defaults are the real daemon's. */
  limits?: Partial<MockDaemonLimits>;
  /** `serverInfo.version` of initialize (default `0.0.0-replay`). */
  serverVersion?: string;
  /**
   * How recorded requests are matched to live ones (fields to ignore, a matcher of your own), when
   * the daemon answers from a fixture; a replay engine passed instead keeps its own.
   */
  match?: ReplayMatchOptions;
  /**
   * Typed handlers by operation (see {@link MockHandlers}); operations without one are answered from
   * the fixture (exact matches), then by the simulated site (when it is on), then as unmatched.
   */
  handlers?: MockHandlers;
  /**
   * Serve the simulated site (a fresh one per daemon), or serve it with these options, under the
   * handlers and the fixture; default: on when no fixture is given. Options the site refuses throw
   * a TypeError. See docs/testing.md, "What it serves by default: a simulated site".
   */
  site?: boolean | SimulatedSiteOptions;
}

/** `constraints.platform` of the manifest: the kit runs anywhere, so it names no real platform. */
const REPLAY_PLATFORM = "replay";

/** Whether a replay source is an engine already (or a fixture to build one from). */
function isReplayEngine(source: ReplayEngine | GoldenFixture): source is ReplayEngine {
  return typeof (source as Partial<ReplayEngine>).answer === "function";
}

/**
 * The shared state of an in-process replay daemon answering from `source` (a replay engine, or a
 * fixture to build one from; none: the handlers and the simulated site answer). Platform-free: sessions of the daemon are
 * `new McpServerSession(context, clientId, connection)`.
 */
export function createReplayDaemonContext(
  source: ReplayEngine | GoldenFixture | undefined,
  options: ReplayDaemonOptions = {},
): DaemonContext {
  const mode = options.mode ?? "stdio";
  return createDaemonContext({
    mode,
    engine:
      source === undefined
        ? createReplayEngine(EMPTY_FIXTURE)
        : isReplayEngine(source)
          ? source
          : createReplayEngine(source, { match: options.match }),
    handlers: options.handlers,
    fallbackHandlers: siteHandlersFor(options.site, source === undefined),
    manifest: buildManifest(mode, REPLAY_PLATFORM, options),
    serverVersion: options.serverVersion ?? "0.0.0-replay",
    limits: resolveLimits(options.limits),
    latencyMs: options.latencyMs,
    faults: options.faults,
  });
}
