import type {
  GlassCapabilityAgreement,
  GlassCapabilityManifest,
  GlassCapabilityStatus,
} from "../../generated/types/glass-capabilities-v1.js";
import type { NegotiationOptions } from "./options.js";

/** Capability statuses a call may rely on (experimental ones only when the client accepts them). */
const USABLE: ReadonlySet<GlassCapabilityStatus> = new Set(["available", "availableUncertified"]);

/**
 * The `glass` object of `initialize`: envelope version 1 and exactly what the caller asked for —
 * asking for an unknown schema or capability would fail the whole handshake.
 */
export function negotiationParams(options: NegotiationOptions): Record<string, unknown> {
  const params: Record<string, unknown> = { protocolVersions: [1] };
  if (options.schemas !== undefined && Object.keys(options.schemas).length > 0) params.schemas = options.schemas;
  if (options.requires !== undefined && options.requires.length > 0) params.requires = [...new Set(options.requires)];
  if (options.optional !== undefined && options.optional.length > 0) params.optional = [...new Set(options.optional)];
  if (options.acceptsExperimental !== undefined) params.acceptsExperimental = options.acceptsExperimental;
  return params;
}

/**
 * What the session knows about a capability: `true`/`false` when the agreement (or, for a
 * capability that was not negotiated, the manifest) says, `undefined` when neither mentions it.
 */
export function capabilityUsable(
  capability: string,
  agreement: GlassCapabilityAgreement | undefined,
  manifest: GlassCapabilityManifest | undefined,
  acceptsExperimental: boolean,
): boolean | undefined {
  const usable = (status: GlassCapabilityStatus): boolean => USABLE.has(status) || (acceptsExperimental && status === "experimental");
  const agreed = agreement?.capabilities[capability];
  if (agreed !== undefined) return usable(agreed.status);
  const status = manifest?.capabilityStatuses?.[capability];
  if (status !== undefined) return usable(status);
  const enabled = manifest?.capabilities[capability];
  return enabled === undefined ? undefined : enabled;
}
