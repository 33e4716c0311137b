import { describe, expect, it } from "vitest";
import { boundedDaemonMessage, MAX_DAEMON_MESSAGE_BYTES } from "../../src/mcp/daemon-message.js";

describe("boundedDaemonMessage", () => {
  it("keeps a short message as it is, tab and line feed included", () => {
    expect(boundedDaemonMessage("line one\n\tline two")).toBe("line one\n\tline two");
  });

  it("writes the other control characters out as visible escapes", () => {
    expect(boundedDaemonMessage("\u001b[2Jcleared\r")).toBe("\\u001b[2Jcleared\\r");
  });

  it("holds the 512-byte bound for the text as shown, escapes included", () => {
    const shown = boundedDaemonMessage("\u001b".repeat(400));
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(MAX_DAEMON_MESSAGE_BYTES);
    expect(shown.endsWith("…")).toBe(true);
    expect(shown).not.toContain("\u001b");
  });
});
