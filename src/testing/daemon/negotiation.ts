import type {
  GlassAgreedCapability,
  GlassCapabilityAgreement,
  GlassCapabilityManifest,
  GlassCapabilityStatus,
} from "../../../generated/types/glass-capabilities-v1.js";
import { validateGlassNegotiation } from "../../../generated/validators/index.js";
import { runValidator } from "../../envelope/run-validator.js";
import { isJsonObject } from "../../validation/json-value.js";
import { capabilityStatus, isEnabledStatus } from "./manifest.js";

/** The outcome of negotiating: the agreement, or why the initialize fails (-32602). */
export type NegotiationOutcome = { ok: true; agreement: GlassCapabilityAgreement } | { ok: false; message: string };

/**
 * Negotiates the `glass` object of an initialize against the daemon's manifest (§3). Each requested
 * schema is agreed at the highest version both sides speak; every requested capability
 * (`requires` and `optional`) the daemon knows appears in the agreement with its status.
 * Negotiation fails on an envelope version other than 1, an unknown schema name, an empty version
 * list, no common version, or a required capability that is unknown, not usable, or experimental
 * when the client does not accept experimental ones. Without a `glass` object the client asked for
 * nothing in particular, and the agreement covers everything the manifest offers.
 */
export function negotiate(manifest: GlassCapabilityManifest, glass: unknown): NegotiationOutcome {
  const statuses = statusesOf(manifest);
  if (glass === undefined) {
    const agreedSchemas = Object.fromEntries(Object.entries(manifest.schemas).map(([name, versions]) => [name, Math.max(...versions)]));
    return agreed(manifest, agreedSchemas, Object.keys(statuses), statuses);
  }
  if (!isJsonObject(glass)) return failed("the glass negotiation must be an object");

  const { protocolVersions, schemas, requires, optional, acceptsExperimental } = glass;
  if (Array.isArray(protocolVersions) && !protocolVersions.includes(1)) {
    return failed(`no common Glass protocol version: the daemon speaks [1], the client ${JSON.stringify(protocolVersions)}`);
  }

  const agreedSchemas: Record<string, number> = {};
  if (isJsonObject(schemas)) {
    for (const [name, versions] of Object.entries(schemas)) {
      const offered = Object.hasOwn(manifest.schemas, name) ? manifest.schemas[name] : undefined;
      if (offered === undefined) return failed(`unknown schema ${JSON.stringify(name)}; the daemon speaks ${Object.keys(manifest.schemas).join(", ")}`);
      if (!Array.isArray(versions)) continue; // reported by the shape check below
      if (versions.length === 0) return failed(`the version list of schema ${name} is empty`);
      const common = offered.filter((version) => versions.includes(version));
      if (common.length === 0) {
        return failed(`no common version of schema ${name}: the daemon speaks ${JSON.stringify(offered)}, the client ${JSON.stringify(versions)}`);
      }
      agreedSchemas[name] = Math.max(...common);
    }
  }

  const required = Array.isArray(requires) ? requires.filter((name): name is string => typeof name === "string") : [];
  for (const name of required) {
    const status = Object.hasOwn(statuses, name) ? statuses[name] : undefined;
    if (status === undefined) return failed(`required capability ${JSON.stringify(name)} is not offered by this daemon`);
    if (!isEnabledStatus(status)) return failed(`required capability ${name} is ${status}`);
    if (status === "experimental" && acceptsExperimental !== true) {
      return failed(`required capability ${name} is experimental and the client does not accept experimental capabilities`);
    }
  }

  const shape = runValidator(validateGlassNegotiation, glass);
  if (!shape.ok) {
    const issue = shape.issues[0]!;
    return failed(`invalid glass negotiation: ${issue.path === "" ? "the object" : issue.path} ${issue.reason}`);
  }
  const wanted = [...required, ...(Array.isArray(optional) ? optional.filter((name): name is string => typeof name === "string") : [])];
  return agreed(manifest, agreedSchemas, wanted, statuses);
}

function statusesOf(manifest: GlassCapabilityManifest): Record<string, GlassCapabilityStatus> {
  const names = new Set([...Object.keys(manifest.capabilities), ...Object.keys(manifest.capabilityStatuses ?? {})]);
  return Object.fromEntries([...names].map((name) => [name, capabilityStatus(manifest, name)!]));
}

function agreed(
  manifest: GlassCapabilityManifest,
  agreedSchemas: Record<string, number>,
  wanted: readonly string[],
  statuses: Record<string, GlassCapabilityStatus>,
): NegotiationOutcome {
  const capabilities: Record<string, GlassAgreedCapability> = {};
  for (const name of wanted) {
    const status = Object.hasOwn(statuses, name) ? statuses[name] : undefined;
    if (status !== undefined) capabilities[name] = { status };
  }
  return { ok: true, agreement: { protocolVersion: 1, agreedSchemas, capabilities, constraints: { ...manifest.constraints } } };
}

function failed(reason: string): NegotiationOutcome {
  return { ok: false, message: `Glass capability negotiation failed: ${reason}` };
}
