import { describe, expect, it } from "vitest";
import { toolNotListed } from "../../src/client/daemon-tools.js";

describe("toolNotListed", () => {
  it("fails in preflight, advising to check the capabilities with supports() rather than retry", () => {
    const error = toolNotListed("browser.hover", "hover", { name: "glass-browser", version: "0.3.1" });
    expect(error.phase).toBe("preflight");
    expect(error.retry).toEqual({ classification: "notRetryable", recommendedOperation: "inspect_capabilities" });
    expect(error.rawMessage).toContain('Check with glass.supports("browser.hover") before calling');
  });

  it('says "the daemon" when the daemon did not name itself, and cuts a long name to 128 bytes', () => {
    expect(toolNotListed("browser.hover", "hover", undefined).rawMessage.startsWith("the daemon does not list")).toBe(
      true,
    );
    const long = toolNotListed("browser.hover", "hover", { name: "d".repeat(300), version: "1" });
    const daemon = (long.details as { daemon: string }).daemon;
    expect(Buffer.byteLength(daemon)).toBeLessThanOrEqual(128);
    expect(daemon.endsWith("…")).toBe(true);
  });
});
