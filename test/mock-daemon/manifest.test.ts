import { describe, expect, it } from "vitest";
import { buildManifest, capabilityStatus, isEnabledStatus } from "../../src/mock-daemon/manifest.js";

describe("isEnabledStatus", () => {
  it("enables available and experimental capabilities only", () => {
    expect(isEnabledStatus("available")).toBe(true);
    expect(isEnabledStatus("experimental")).toBe(true);
    for (const status of ["availableUncertified", "disabledByPolicy", "unavailableOnPlatform"] as const)
      expect(isEnabledStatus(status), status).toBe(false);
  });
});

describe("buildManifest", () => {
  it("keeps each capability's boolean in step with its status", () => {
    const manifest = buildManifest("socket", "linux-x64", { capabilities: { rawCdp: "experimental" } });
    for (const [name, status] of Object.entries(manifest.capabilityStatuses ?? {}))
      expect(manifest.capabilities[name], name).toBe(isEnabledStatus(status));
    expect(manifest.capabilities.rawCdp).toBe(true);
    expect(manifest.capabilities.extensions).toBe(false);
  });

  it("changes, adds and removes capabilities and schemas as the options say, versions sorted", () => {
    const manifest = buildManifest("socket", "darwin-arm64", {
      capabilities: { rawCdp: false, custom: "disabledByPolicy" },
      schemas: { webIr: [2, 1], action: false },
      glassVersion: "0.3.14",
      constraints: { maxSessions: 1 },
    });
    expect("rawCdp" in manifest.capabilities).toBe(false);
    expect(manifest.capabilityStatuses?.custom).toBe("disabledByPolicy");
    expect(manifest.schemas.webIr).toEqual([1, 2]);
    expect("action" in manifest.schemas).toBe(false);
    expect(manifest.glassVersion).toBe("0.3.14");
    expect(manifest.constraints).toMatchObject({ platform: "darwin-arm64", maxSessions: 1, browserFamily: "chromium" });
  });
});

describe("capabilityStatus", () => {
  it("reads the status, falls back to the boolean, and is undefined for a capability not named", () => {
    const manifest = buildManifest("stdio", "linux-x64");
    expect(capabilityStatus(manifest, "localDaemon")).toBe("availableUncertified");
    const booleansOnly = { ...manifest, capabilityStatuses: undefined, capabilities: { a: true, b: false } };
    expect(capabilityStatus(booleansOnly, "a")).toBe("available");
    expect(capabilityStatus(booleansOnly, "b")).toBe("disabledByPolicy");
    expect(capabilityStatus(manifest, "nothing")).toBeUndefined();
    expect(capabilityStatus(manifest, "toString")).toBeUndefined();
  });
});
