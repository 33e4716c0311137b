import { describe, expect, it } from "vitest";
import { describeIssues, isStructuralIssue, joinIndex, joinPath } from "../../src/validation/issue.js";

describe("joinPath and joinIndex", () => {
  it("joins plain names with dots and indexes with brackets, from the root", () => {
    expect(joinPath("", "scope")).toBe("scope");
    expect(joinPath("scope", "regionName")).toBe("scope.regionName");
    expect(joinIndex("entities", 3)).toBe("entities[3]");
    expect(joinPath(joinIndex("entities", 0), "id")).toBe("entities[0].id");
    expect(joinIndex("", 2)).toBe("[2]");
  });

  it("quotes a name that is not a plain identifier, so the path stays unambiguous", () => {
    expect(joinPath("inputs", "first name")).toBe('inputs["first name"]');
    expect(joinPath("", "a.b")).toBe('["a.b"]');
    expect(joinPath("x", "1st")).toBe('x["1st"]');
    expect(joinPath("x", 'say "hi"')).toBe('x["say \\"hi\\""]');
    expect(joinPath("x", "$ok_1")).toBe("x.$ok_1");
  });
});

describe("describeIssues", () => {
  it("writes path: reason joined by '; ', naming the root path by the root given", () => {
    expect(
      describeIssues(
        [
          { path: "", reason: "must be an object" },
          { path: "inputs[0]", reason: "is required" },
        ],
        "payload",
      ),
    ).toBe("payload: must be an object; inputs[0]: is required");
    expect(describeIssues([], "payload")).toBe("");
  });
});

describe("isStructuralIssue", () => {
  it("recognises the schema validators' structural reasons", () => {
    for (const reason of [
      "is required",
      "must be one of a, b",
      "must be a string (got number)",
      "must be an object",
      "must be an integer",
      "must be null",
      "does not match any allowed form",
      "is not allowed (unknown field)",
    ])
      expect(isStructuralIssue({ path: "x", reason }), reason).toBe(true);
  });

  it("does not take the semantic rules' reasons, worded like the daemon's, for structural ones", () => {
    for (const reason of [
      "form.fill requires at least one bounded input",
      "must equal mutationLease.sessionId (a mutation lease belongs to the session that acquired it)",
      "a type intent needs a non-empty value",
      "is required by the family",
    ])
      expect(isStructuralIssue({ path: "x", reason }), reason).toBe(false);
  });
});
