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

/** The schemas the daemon speaks (glass-browser 0.3.14), all at version 1. */
const DEFAULT_SCHEMAS: Readonly<Record<string, readonly number[]>> = Object.fromEntries(
  [
    "action",
    "authoring",
    "checkpoint",
    "intent",
    "knowledge",
    "observation",
    "policy",
    "protocol",
    "reliabilityFixture",
    "reliabilityReplay",
    "reliabilityScenario",
    "task",
    "trace",
    "webIr",
    "workflow",
    "workflowCheckpoint",
  ].map((name) => [name, [1]]),
);

/**
 * The capabilities of §3 with the statuses the daemon reports under its default (`development`)
 * policy; `localDaemon` is added by mode.
 */
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
  workflowAuthoring: "available",
  reliabilityCertification: "available",
  rawCdp: "available",
  extensions: "disabledByPolicy",
  mcpStdio: "available",
};

/**
 * Whether a capability with this status is enabled (the manifest's boolean). The daemon reports a
 * capability it has but has not enabled as `availableUncertified` (`localDaemon` over stdio), so
 * only `available` and `experimental` (for clients that accept experimental ones) are enabled.
 */
export function isEnabledStatus(status: GlassCapabilityStatus): boolean {
  return status === "available" || status === "experimental";
}

/**
 * The manifest (`result.glass` of initialize) of a mock daemon, as the daemon builds it: the
 * default schemas and capability statuses — `mcpStdio` in both modes, `localDaemon` enabled on the
 * socket and `availableUncertified` (not enabled) over stdio — changed by `options`. `platform` is
 * the daemon's platform (e.g. `linux-x64`).
 */
export function buildManifest(
  mode: MockDaemonMode,
  platform: string,
  options: MockManifestOptions = {},
): GlassCapabilityManifest {
  const statuses: Record<string, GlassCapabilityStatus> = { ...DEFAULT_STATUSES };
  statuses.localDaemon = mode === "socket" ? "available" : "availableUncertified";
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
      policy: "development",
      maxSessions: 4,
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
