import type { GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import type { ReplayEngine } from "./replay-engine.js";
import { DaemonRecord } from "./daemon-record.js";
import { buildFastAnswers, type FastAnswers } from "./fast-answers.js";
import { checkHandlers } from "./handler-call.js";
import type { MockHandlers } from "./handlers.js";
import { createFaultPlan, type FaultPlan, type MockDaemonFaults } from "./faults.js";
import { LeaseManager } from "./leases.js";
import type { MockDaemonLimits } from "./limits.js";
import type { MockDaemonMode } from "./manifest.js";

/** Everything the connections of one mock daemon share. Platform-free. */
export interface DaemonContext {
  /** stdio (one session, no leases) or socket (shared, with leases). */
  readonly mode: MockDaemonMode;
  /** Answers tool calls from the fixture. */
  readonly engine: ReplayEngine;
  /** Answer the operations they name, before the fixture (see {@link DaemonContextInit}); replaced by the in-process mock's `use`. */
  handlers: MockHandlers | undefined;
  /** Answer what neither a handler nor an exact fixture match answers (see {@link DaemonContextInit}). */
  readonly fallbackHandlers: MockHandlers | undefined;
  /** The capability manifest sent with every initialize. */
  readonly manifest: GlassCapabilityManifest;
  /** `serverInfo.version` of initialize. */
  readonly serverVersion: string;
  /** The limits enforced. */
  readonly limits: MockDaemonLimits;
  /** Delay before each `tools/call` is answered, in ms. */
  readonly latencyMs: number;
  /** The faults to show. */
  readonly faults: FaultPlan;
  /** Fast mode: precomputed answers by tool, served without recording the call (see `fast` of {@link DaemonContextInit}). */
  readonly fastAnswers: FastAnswers | undefined;
  /** The mutation lease (socket mode only). */
  readonly leases: LeaseManager | undefined;
  /** What the daemon has seen. */
  readonly record: DaemonRecord;
  /** Requests in flight on the whole daemon. */
  inFlight: number;
  /** Tool calls received so far. */
  callCount: number;
  /** Daemon-to-client requests sent so far. */
  serverRequestCount: number;
  /** How long a handler's request to its client waits for the answer (ms); absent, the daemon's 15 minutes. */
  readonly clientAnswerTimeoutMs?: number;
  /** Whether a `workflow` call is running (a second one gets -32600). */
  workflowActive: boolean;
  /** Crashes the daemon (set by the server that runs it). */
  crash: () => void;
}

/** What {@link createDaemonContext} needs. */
export interface DaemonContextInit {
  /** stdio or socket. */
  mode: MockDaemonMode;
  /** Answers tool calls. */
  engine: ReplayEngine;
  /**
   * Handlers by operation: a handler answers its operation's calls once the daemon's acceptance
   * rules let them through; operations without one are answered from the fixture. Checked here:
   * an unknown operation name or a handler that is not a function is a TypeError.
   */
  handlers?: MockHandlers | undefined;
  /**
   * Handlers under the fixture (the simulated site): one answers a call of its operation that has
   * no handler in `handlers` and no exact fixture match, so a fixture's recorded round trip keeps
   * its recorded answers. Not checked against the catalog: they are the mock's own.
   */
  fallbackHandlers?: MockHandlers | undefined;
  /** The capability manifest. */
  manifest: GlassCapabilityManifest;
  /** `serverInfo.version`. */
  serverVersion: string;
  /** The limits to enforce. */
  limits: MockDaemonLimits;
  /** Delay before each tools/call answer, in ms (default 0). */
  latencyMs?: number;
  /** The faults to show (default none). */
  faults?: MockDaemonFaults;
  /**
   * Fast mode (for benchmarks): a read-only catalog tool call is answered at once with the tool
   * result precomputed from the fixture's first recorded request of its operation, whatever its
   * payload (which is neither matched nor validated), and is not recorded. Other calls take the
   * full path. Cannot be combined with latency or faults.
   */
  fast?: boolean;
}

/** The shared state of a new daemon: no calls yet, no lease, no crash handler. */
export function createDaemonContext(init: DaemonContextInit): DaemonContext {
  if (
    init.fast === true &&
    ((init.latencyMs ?? 0) > 0 || (init.faults !== undefined && Object.keys(init.faults).length > 0))
  ) {
    throw new TypeError("fast mode answers at once and shows no faults: it cannot be combined with latency or faults");
  }
  if (init.fast === true && (init.handlers !== undefined || init.fallbackHandlers !== undefined))
    throw new TypeError("fast mode answers from the fixture alone: it cannot be combined with handlers");
  return {
    mode: init.mode,
    engine: init.engine,
    handlers: init.handlers === undefined ? undefined : checkHandlers(init.handlers),
    fallbackHandlers: init.fallbackHandlers,
    manifest: init.manifest,
    serverVersion: init.serverVersion,
    limits: init.limits,
    latencyMs: init.latencyMs ?? 0,
    faults: createFaultPlan(init.faults),
    fastAnswers: init.fast === true ? buildFastAnswers(init.engine, init.manifest) : undefined,
    leases: init.mode === "socket" ? new LeaseManager({ expiresAfterMs: init.faults?.leaseExpiresAfterMs }) : undefined,
    record: new DaemonRecord(),
    inFlight: 0,
    callCount: 0,
    serverRequestCount: 0,
    workflowActive: false,
    crash: () => {},
  };
}
