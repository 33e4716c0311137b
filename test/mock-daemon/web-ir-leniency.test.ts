import { describe, expect, it } from "vitest";
import { asDaemonDecodes } from "../../src/mock-daemon/web-ir-leniency.js";
import type { JsonValue } from "../../src/validation/json-value.js";

/** A document with an unknown member at each place the daemon skips one, and in `document`, where it does not. */
const lenient = (): Record<string, JsonValue> => ({
  schemaVersion: 1,
  revision: 3,
  future: "top",
  document: { url: "https://example.test/", future: "kept" },
  entities: [{ id: "e1", kind: "page", future: 1 }],
  relationships: [{ from: "e1", to: "e1", kind: "contains", future: 2 }],
  coverage: { structural: "complete", future: 3 },
  limits: { truncated: false, future: 4 },
});

describe("asDaemonDecodes", () => {
  it("reads every document member of each browser-free operation, and nothing else of its payload", () => {
    const decoded = asDaemonDecodes("webIr.diff", { before: lenient(), after: lenient(), future: "payload" });
    expect(decoded.future).toBe("payload");
    for (const side of ["before", "after"]) expect(decoded[side], side).not.toHaveProperty("future");
    expect(asDaemonDecodes("task.compile", { task: { future: 1 }, draft: lenient() })).toMatchObject({
      task: { future: 1 },
      draft: { schemaVersion: 1 },
    });
    expect(asDaemonDecodes("task.compile", { draft: lenient() }).draft).not.toHaveProperty("future");
  });

  it("leaves any other operation's payload, and the payload given, as they are", () => {
    const payload = { ir: lenient() };
    expect(asDaemonDecodes("browser.observe", payload)).toBe(payload);
    asDaemonDecodes("webIr.validate", payload);
    expect(payload.ir).toHaveProperty("future", "top");
  });

  it("passes a document that is not an object on for the validators to refuse", () => {
    expect(asDaemonDecodes("webIr.validate", { ir: [1] })).toEqual({ ir: [1] });
  });
});
