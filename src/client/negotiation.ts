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
  if (schemas !== undefined && schemas !== null && typeof schemas === "object" && Object.keys(schemas).length > 0)
    params.schemas = schemas;
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
 * What the session knows about a capability: `true`/`false`, or `undefined` when neither the
 * manifest nor the agreement mentions it.
 *
 * The daemon's own rule decides (it is what fails a `requires`): the manifest's boolean says
 * whether the capability is enabled on this connection, and an experimental one needs the client to
 * accept experimental capabilities. The daemon reports a capability it has but has not enabled here
 * as `availableUncertified` with the boolean `false` (`localDaemon` over stdio). Only when the
 * manifest has no boolean for it does the status alone decide (the agreement's, else the
 * manifest's).
 */
export function capabilityUsable(
  capability: string,
  agreement: GlassCapabilityAgreement | undefined,
  manifest: GlassCapabilityManifest | undefined,
  acceptsExperimental: boolean,
): boolean | undefined {
  // The daemon's objects, read by a name the caller may give: own properties only.
  const enabled = ownProperty(manifest?.capabilities, capability);
  const status =
    ownProperty(agreement?.capabilities, capability)?.status ?? ownProperty(manifest?.capabilityStatuses, capability);
  if (enabled === false) return false;
  if (status === "experimental") return acceptsExperimental;
  if (enabled === true) return true;
  return status === undefined ? undefined : USABLE.has(status);
}
