import { describe, expect, it } from "vitest";
import type { GlassCapabilityAgreement, GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import { capabilityUsable, negotiationParams, requiredCapabilities } from "../../src/client/negotiation.js";
import type { NegotiationOptions } from "../../src/client/options.js";

const manifest = (parts: { capabilities?: object; capabilityStatuses?: object }): GlassCapabilityManifest =>
  parts as unknown as GlassCapabilityManifest;
const agreement = (capabilities: Record<string, { status: string }>): GlassCapabilityAgreement =>
  ({ capabilities }) as unknown as GlassCapabilityAgreement;

describe("negotiationParams: the glass object of initialize", () => {
  it("leaves out empty or unset members and anything that is not a name, never sending null", () => {
    const odd = {
      schemas: {},
      requires: [1, null, "dom"],
      optional: "task",
      acceptsExperimental: null,
    } as unknown as NegotiationOptions;
    expect(negotiationParams(odd)).toEqual({ protocolVersions: [1], requires: ["dom"] });
    expect(negotiationParams({ schemas: null, requires: [] } as unknown as NegotiationOptions)).toEqual({
      protocolVersions: [1],
    });
  });
});

describe("requiredCapabilities", () => {
  it("is the distinct required names, and none without a negotiation", () => {
    expect(requiredCapabilities({ requires: ["a", "b", "a"] as never })).toEqual(["a", "b"]);
    expect(requiredCapabilities(false)).toEqual([]);
    expect(requiredCapabilities(undefined)).toEqual([]);
    expect(requiredCapabilities({})).toEqual([]);
  });
});

describe("capabilityUsable: the daemon's own rule", () => {
  it("is false when the manifest's boolean says the capability is off here, whatever its status", () => {
    const m = manifest({ capabilities: { localDaemon: false }, capabilityStatuses: { localDaemon: "available" } });
    expect(capabilityUsable("localDaemon", agreement({ localDaemon: { status: "available" } }), m, true)).toBe(false);
  });

  it("lets an experimental capability be used only by a client that accepts experimental ones", () => {
    const m = manifest({ capabilities: { probe: true }, capabilityStatuses: { probe: "experimental" } });
    expect(capabilityUsable("probe", undefined, m, false)).toBe(false);
    expect(capabilityUsable("probe", undefined, m, true)).toBe(true);
  });

  it("takes the agreement's status over the manifest's", () => {
    const m = manifest({ capabilityStatuses: { dom: "available" } });
    expect(capabilityUsable("dom", agreement({ dom: { status: "blockedBySecurityGate" } }), m, false)).toBe(false);
    expect(capabilityUsable("dom", undefined, m, false)).toBe(true);
  });

  it("decides by status alone without a boolean: available and availableUncertified are usable", () => {
    for (const [status, usable] of [
      ["available", true],
      ["availableUncertified", true],
      ["disabledByPolicy", false],
      ["unavailableOnPlatform", false],
    ] as const)
      expect(capabilityUsable("x", undefined, manifest({ capabilityStatuses: { x: status } }), false), status).toBe(
        usable,
      );
  });

  it("is undefined for a capability neither side mentions, including an inherited property name", () => {
    const m = manifest({ capabilities: {}, capabilityStatuses: {} });
    expect(capabilityUsable("webIr", undefined, m, true)).toBeUndefined();
    expect(capabilityUsable("toString", undefined, m, true)).toBeUndefined();
    expect(capabilityUsable("webIr", undefined, undefined, true)).toBeUndefined();
  });
});
