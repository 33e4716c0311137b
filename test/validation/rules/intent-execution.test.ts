import { describe, expect, it } from "vitest";
import { validatePayload } from "glass-sdk";

const intent = {
  schemaVersion: 1,
  intent: "the Email field",
  resolutionPolicy: "reportOnly",
  candidateId: "candidate_1",
};
const issues = (payload: Record<string, unknown>) => {
  const checked = validatePayload("browser.executeIntent", payload);
  return checked.ok ? [] : checked.issues;
};

describe("intentExecutionValue: the value an executed intent takes, as the daemon checks it", () => {
  it("accepts a type or select intent with a value, and any other executed action without one", () => {
    expect(issues({ ...intent, action: "type", value: "ada@example.com" })).toEqual([]);
    expect(issues({ ...intent, action: "select", value: "Express" })).toEqual([]);
    for (const action of [
      "click",
      "clear",
      "check",
      "uncheck",
      "submit",
      "open",
      "close",
      "search",
      "filter",
      "sort",
      "paginate",
      "expand",
      "collapse",
    ]) {
      expect(issues({ ...intent, action }), action).toEqual([]);
    }
  });

  it("refuses a type or select intent without a value, or with an empty one", () => {
    expect(issues({ ...intent, action: "type" })).toEqual([
      { path: "value", reason: "a type intent needs a non-empty value" },
    ]);
    expect(issues({ ...intent, action: "select", value: "" })).toEqual([
      { path: "value", reason: "a select intent needs a non-empty value" },
    ]);
  });

  it("refuses a value for an action that takes none", () => {
    expect(issues({ ...intent, action: "click", value: "x" })).toEqual([
      { path: "value", reason: "a click intent takes no value" },
    ]);
  });

  it("refuses the actions the daemon resolves but does not execute; resolveIntent still takes them", () => {
    for (const action of ["toggle", "download", "upload", "inspect", "extract"]) {
      expect(issues({ ...intent, action }), action).toEqual([
        { path: "action", reason: `the daemon resolves a ${action} intent but does not execute one` },
      ]);
      const { candidateId: _candidate, ...request } = intent;
      expect(validatePayload("browser.resolveIntent", { ...request, action }).ok, action).toBe(true);
    }
  });
});
