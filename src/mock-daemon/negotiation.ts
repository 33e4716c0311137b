import type {
  GlassAgreedCapability,
  GlassCapabilityAgreement,
  GlassCapabilityManifest,
  GlassCapabilityStatus,
} from "../../generated/types/glass-capabilities-v1.js";
import { isJsonObject } from "../validation/json-value.js";
import { capabilityStatus, isEnabledStatus } from "./manifest.js";

/** The outcome of negotiating: the agreement, or why the initialize fails (-32602). */
export type NegotiationOutcome = { ok: true; agreement: GlassCapabilityAgreement } | { ok: false; message: string };

/** The `glass` object of an initialize, read the daemon's way: every member optional, unknown ones ignored. */
interface NegotiationRequest {
  protocolVersions: readonly number[];
  schemas: Record<string, readonly number[]> | undefined;
  requires: readonly string[];
  optional: readonly string[];
  acceptsExperimental: boolean;
}

/**
 * Negotiates the `glass` object of an initialize against the daemon's manifest, as the daemon does
 * (§3):
 *
 * - `glass` absent: the client asked for nothing in particular; the agreement covers every schema
 *   (at its newest version) and every capability with its status, experimental ones included.
 * - `glass` not an object (`null` included), or a member of the wrong type: -32602. An array is
 *   read as the members in their declared order (the daemon's deserializer does; `[]` is `{}`).
 * - Every member is optional and unknown members are ignored. The envelope versions are
 *   `protocolVersions` unless empty, else the singular `protocolVersion`, else `[1]`; the list must contain 1.
 * - `schemas` absent: every schema is agreed at its newest version. Present: each named schema at
 *   the newest version both speak; an unknown name, an empty list or no common version fails.
 * - Capabilities: the named ones (`requires`, `optional`) the daemon knows, or every one when none
 *   is named, each with its status — so a disabled one appears with its status; an experimental one
 *   that is not required only with `acceptsExperimental: true`. Unknown optional names are dropped;
 *   an unknown, not enabled (its manifest boolean), or (without `acceptsExperimental`) experimental
 *   required capability fails.
 */
export function negotiate(manifest: GlassCapabilityManifest, glass: unknown): NegotiationOutcome {
  const statuses = statusesOf(manifest);
  if (glass === undefined) return agreed(manifest, newestOfEach(manifest.schemas), statuses);
  const read = readNegotiation(glass);
  if (typeof read === "string") return failed(read);

  if (!read.protocolVersions.includes(1)) {
    return failed(`glass.protocolVersions: unsupported protocols ${JSON.stringify(read.protocolVersions)}; expected 1`);
  }

  let agreedSchemas: Record<string, number> = newestOfEach(manifest.schemas);
  if (read.schemas !== undefined) {
    agreedSchemas = {};
    for (const [name, versions] of Object.entries(read.schemas)) {
      const offered = Object.hasOwn(manifest.schemas, name) ? manifest.schemas[name] : undefined;
      if (offered === undefined) return failed(`glass.schemas.${name}: unknown schema`);
      if (versions.length === 0) return failed(`the version list of schema ${name} is empty`);
      const common = offered.filter((version) => versions.includes(version));
      if (common.length === 0) {
        return failed(
          `no common version of schema ${name}: the daemon speaks ${JSON.stringify(offered)}, the client ${JSON.stringify(versions)}`,
        );
      }
      agreedSchemas[name] = Math.max(...common);
    }
  }

  // Capabilities, the daemon's way: the ones named (`requires` and `optional`), or every one when
  // none is named; a required one must be known and enabled (and, when experimental, accepted);
  // an experimental one that is not required is left out unless experimental ones are accepted.
  const required = new Set(read.requires);
  const requested =
    required.size + read.optional.length > 0
      ? [...new Set([...read.requires, ...read.optional])]
      : Object.keys(statuses);
  const capabilities: Record<string, GlassCapabilityStatus> = {};
  for (const name of requested) {
    const status = Object.hasOwn(statuses, name) ? statuses[name] : undefined;
    if (status === undefined) {
      if (required.has(name)) return failed(`glass.requires.${name}: unknown capability`);
      continue;
    }
    const experimentalRefused = status === "experimental" && !read.acceptsExperimental;
    if (required.has(name)) {
      if (!capabilityEnabled(manifest, name)) {
        // The daemon names the status as its Rust variant (`DisabledByPolicy`).
        return failed(
          `glass.requires.${name}: capability is not enabled (${status.charAt(0).toUpperCase()}${status.slice(1)})`,
        );
      }
      if (experimentalRefused)
        return failed(`glass.requires.${name}: experimental capability requires acceptsExperimental=true`);
    } else if (experimentalRefused) {
      continue;
    }
    capabilities[name] = status;
  }
  return agreed(manifest, agreedSchemas, capabilities);
}

/** Whether the manifest enables a capability: its boolean, else what its status implies. */
function capabilityEnabled(manifest: GlassCapabilityManifest, name: string): boolean {
  if (Object.hasOwn(manifest.capabilities, name)) return manifest.capabilities[name] === true;
  const status = capabilityStatus(manifest, name);
  return status !== undefined && isEnabledStatus(status);
}

/** Reads the members of a `glass` object; a string says which one is malformed. A member set to null counts as absent. */
function readNegotiation(value: unknown): NegotiationRequest | string {
  const glass = Array.isArray(value) ? positionalMembers(value) : value;
  if (!isJsonObject(glass)) return "glass: invalid capability request: expected struct CapabilityNegotiationRequest";
  const { protocolVersions, protocolVersion, schemas, requires, optional, acceptsExperimental } = glass;
  if (protocolVersions != null && !isVersionList(protocolVersions))
    return "invalid glass negotiation: protocolVersions must be a list of version numbers";
  if (protocolVersion != null && !isVersion(protocolVersion))
    return "invalid glass negotiation: protocolVersion must be a version number";
  if (schemas != null && !(isJsonObject(schemas) && Object.values(schemas).every(isVersionList))) {
    return "invalid glass negotiation: schemas must map schema names to lists of version numbers";
  }
  if (requires != null && !isNameList(requires))
    return "invalid glass negotiation: requires must be a list of capability names";
  if (optional != null && !isNameList(optional))
    return "invalid glass negotiation: optional must be a list of capability names";
  if (acceptsExperimental != null && typeof acceptsExperimental !== "boolean")
    return "invalid glass negotiation: acceptsExperimental must be true or false";
  return {
    // An empty list counts as none, as the daemon reads it.
    protocolVersions:
      protocolVersions != null && (protocolVersions as number[]).length > 0
        ? (protocolVersions as number[])
        : protocolVersion != null
          ? [protocolVersion as number]
          : [1],
    schemas: schemas != null ? (schemas as Record<string, number[]>) : undefined,
    requires: requires != null ? (requires as string[]) : [],
    optional: optional != null ? (optional as string[]) : [],
    acceptsExperimental: acceptsExperimental === true,
  };
}

/** The members of the negotiation in their declared order: the daemon also reads the object from a JSON array of them. */
const MEMBER_ORDER = [
  "protocolVersions",
  "protocolVersion",
  "schemas",
  "requires",
  "optional",
  "acceptsExperimental",
] as const;

/** A `glass` array read as the daemon reads it (members by position, missing ones absent); `undefined` when it is too long. */
function positionalMembers(values: readonly unknown[]): Record<string, unknown> | undefined {
  if (values.length > MEMBER_ORDER.length) return undefined;
  return Object.fromEntries(values.map((member, index) => [MEMBER_ORDER[index], member]));
}

function isVersion(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isVersionList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every(isVersion);
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}

function newestOfEach(schemas: Record<string, number[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(schemas).map(([name, versions]) => [name, Math.max(...versions)]));
}

function statusesOf(manifest: GlassCapabilityManifest): Record<string, GlassCapabilityStatus> {
  const names = new Set([...Object.keys(manifest.capabilities), ...Object.keys(manifest.capabilityStatuses ?? {})]);
  return Object.fromEntries([...names].map((name) => [name, capabilityStatus(manifest, name)!]));
}

function agreed(
  manifest: GlassCapabilityManifest,
  agreedSchemas: Record<string, number>,
  statuses: Record<string, GlassCapabilityStatus>,
): NegotiationOutcome {
  const capabilities: Record<string, GlassAgreedCapability> = {};
  for (const [name, status] of Object.entries(statuses)) capabilities[name] = { status };
  return {
    ok: true,
    agreement: { protocolVersion: 1, agreedSchemas, capabilities, constraints: { ...manifest.constraints } },
  };
}

function failed(reason: string): NegotiationOutcome {
  return { ok: false, message: `Glass capability negotiation failed: ${reason}` };
}
