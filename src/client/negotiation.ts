import type {
  GlassCapabilityAgreement,
  GlassCapabilityManifest,
  GlassCapabilityStatus,
} from "../../generated/types/glass-capabilities-v1.js";
import { ownProperty } from "../validation/json-value.js";
import type { NegotiationOptions } from "./options.js";

/** Capability statuses a call may rely on (experimental ones only when the client accepts them). */
const USABLE: ReadonlySet<GlassCapabilityStatus> = new Set(["available", "availableUncertified"]);

/** The distinct strings of a list the caller gave (anything else in it is left out). */
function names(list: readonly unknown[] | undefined): string[] {
  return Array.isArray(list) ? [...new Set(list.filter((name): name is string => typeof name === "string"))] : [];
}

/**
 * The `glass` object of `initialize`: envelope version 1 and exactly what the caller asked for —
 * asking for an unknown schema or capability would fail the whole handshake. A member the caller
 * left empty or unset is left out (never sent as null).
 */
export function negotiationParams(options: NegotiationOptions): Record<string, unknown> {
  const params: Record<string, unknown> = { protocolVersions: [1] };
  const { schemas, acceptsExperimental } = options;
  if (schemas !== undefined && schemas !== null && typeof schemas === "object" && Object.keys(schemas).length > 0) params.schemas = schemas;
  const requires = names(options.requires);
  if (requires.length > 0) params.requires = requires;
  const optional = names(options.optional);
  if (optional.length > 0) params.optional = optional;
  if (typeof acceptsExperimental === "boolean") params.acceptsExperimental = acceptsExperimental;
  return params;
}

/** The capabilities the caller requires (none when it sends no negotiation). */
export function requiredCapabilities(negotiation: NegotiationOptions | false | undefined): string[] {
  return negotiation === false || negotiation === undefined || negotiation === null ? [] : names(negotiation.requires);
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
  // The daemon's objects, read by a name the caller may give: own properties only.
  const agreed = ownProperty(agreement?.capabilities, capability);
  if (agreed !== undefined) return usable(agreed.status);
  const status = ownProperty(manifest?.capabilityStatuses, capability);
  if (status !== undefined) return usable(status);
  const enabled = ownProperty(manifest?.capabilities, capability);
  return typeof enabled === "boolean" ? enabled : undefined;
}
