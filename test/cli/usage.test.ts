import { describe, expect, it } from "vitest";
import { BRIDGE_USAGE, MOCK_DAEMON_USAGE, USAGE, usageOf, UsageError } from "../../src/cli/usage.js";

describe("usageOf", () => {
  it("gives each command its own help, and glass-sdk's for no command", () => {
    expect(usageOf("mock-daemon")).toBe(MOCK_DAEMON_USAGE);
    expect(usageOf("bridge")).toBe(BRIDGE_USAGE);
    expect(usageOf(undefined)).toBe(USAGE);
  });

  it("names both commands in glass-sdk's help, and each command in its own", () => {
    expect(USAGE).toContain("mock-daemon");
    expect(USAGE).toContain("bridge");
    expect(MOCK_DAEMON_USAGE.startsWith("Usage: glass-sdk mock-daemon")).toBe(true);
    expect(BRIDGE_USAGE.startsWith("Usage: glass-sdk bridge")).toBe(true);
  });
});

describe("UsageError", () => {
  it("is an Error named UsageError carrying the message as given", () => {
    const error = new UsageError("--port needs a value");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("UsageError");
    expect(error.message).toBe("--port needs a value");
  });
});
