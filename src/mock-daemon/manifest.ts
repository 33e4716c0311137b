import type {
  GlassCapabilityManifest,
  GlassCapabilityStatus,
  GlassConstraints,
} from "../../generated/types/glass-capabilities-v1.js";

/** How a mock daemon is reached: over stdio (one session) or a Unix socket (shared, with leases). */
export type MockDaemonMode = "stdio" | "socket";

/** What the mock daemon offers in its capability manifest; every field has a default. */
export interface MockManifestOptions {
  /**
   * Capability statuses to change, by name: e.g. `{ webIr: "disabledByPolicy" }` to switch Web IR
   * off, or `false` to leave a capability out of the manifest altogether.
   */
  capabilities?: Readonly<Record<string, GlassCapabilityStatus | false>>;
  /** Schema versions to offer instead of the defaults, by name; `false` leaves a schema out. */
  schemas?: Readonly<Record<string, readonly number[] | false>>;
  /** The daemon version the manifest reports. */
  glassVersion?: string;
  /** Constraints to report instead of the defaults. */
  constraints?: Partial<GlassConstraints>;
}

/** The schemas a Glass daemon of this protocol speaks, all at version 1. */
const DEFAULT_SCHEMAS: Readonly<Record<string, readonly number[]>> = {
  action: [1],
  observation: [1],
  workflow: [1],
  checkpoint: [1],
  webIr: [1],
  task: [1],
};

/** The capabilities of §3 with the statuses the mock reports by default (a few are not usable). */
const DEFAULT_STATUSES: Readonly<Record<string, GlassCapabilityStatus>> = {
  action: "available",
  semanticRegions: "available",
  taskProtocol: "available",
  webIr: "available",
  observationDiffs: "available",
  intentResolution: "available",
  workflowRuntime: "available",
  workflowResume: "available",
  persistentKnowledge: "available",
  workflowAuthoring: "experimental",
  reliabilityCertification: "availableUncertified",
  rawCdp: "disabledByPolicy",
  extensions: "blockedBySecurityGate",
};

/** Whether a capability with this status can be used (experimental ones only by clients that accept them). */
export function isEnabledStatus(status: GlassCapabilityStatus): boolean {
  return status === "available" || status === "availableUncertified" || status === "experimental";
}

/**
 * The manifest (`result.glass` of initialize) of a mock daemon: the default schemas and capability
 * statuses, with `localDaemon` only in socket mode and `mcpStdio` only in stdio mode, changed by
 * `options`. `platform` is the daemon's platform (e.g. `linux-x64`).
 */
export function buildManifest(mode: MockDaemonMode, platform: string, options: MockManifestOptions = {}): GlassCapabilityManifest {
  const statuses: Record<string, GlassCapabilityStatus> = { ...DEFAULT_STATUSES };
  statuses[mode === "socket" ? "localDaemon" : "mcpStdio"] = "available";
  for (const [name, status] of Object.entries(options.capabilities ?? {})) {
    if (status === false) delete statuses[name];
    else statuses[name] = status;
  }
  const schemas: Record<string, number[]> = {};
  for (const [name, versions] of Object.entries({ ...DEFAULT_SCHEMAS, ...options.schemas })) {
    if (versions !== false) schemas[name] = [...versions].sort((a, b) => a - b);
  }
  const capabilities: Record<string, boolean> = {};
  for (const [name, status] of Object.entries(statuses)) capabilities[name] = isEnabledStatus(status);
  return {
    protocolVersion: 1,
    glassVersion: options.glassVersion ?? "0.0.0-mock",
    schemas,
    capabilities,
    capabilityStatuses: statuses,
    constraints: {
      platform,
      browserFamily: "chromium",
      policy: "default",
      maxSessions: mode === "socket" ? 4 : 1,
      ...options.constraints,
    },
  };
}

/** The status of a capability in a manifest; `undefined` when the manifest does not name it. */
export function capabilityStatus(manifest: GlassCapabilityManifest, name: string): GlassCapabilityStatus | undefined {
  const statuses = manifest.capabilityStatuses;
  if (statuses !== undefined && Object.hasOwn(statuses, name)) return statuses[name];
  if (!Object.hasOwn(manifest.capabilities, name)) return undefined;
  return manifest.capabilities[name] === true ? "available" : "disabledByPolicy";
}
