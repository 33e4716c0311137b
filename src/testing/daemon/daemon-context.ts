import type { GlassCapabilityManifest } from "../../../generated/types/glass-capabilities-v1.js";
import type { ReplayEngine } from "../replay-engine.js";
import { DaemonRecord } from "./daemon-record.js";
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
}

/** The shared state of a new daemon: no calls yet, no lease, no crash handler. */
export function createDaemonContext(init: DaemonContextInit): DaemonContext {
  return {
    mode: init.mode,
    engine: init.engine,
    manifest: init.manifest,
    serverVersion: init.serverVersion,
    limits: init.limits,
    latencyMs: init.latencyMs ?? 0,
    faults: createFaultPlan(init.faults),
    leases: init.mode === "socket" ? new LeaseManager({ expiresAfterMs: init.faults?.leaseExpiresAfterMs }) : undefined,
    record: new DaemonRecord(),
    inFlight: 0,
    callCount: 0,
    serverRequestCount: 0,
    workflowActive: false,
    crash: () => {},
  };
}
