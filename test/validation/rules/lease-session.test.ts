import { describe, expect, it } from "vitest";
import type { ValidationIssue } from "../../../src/validation/issue.js";
import { leaseSessionMatches } from "../../../src/validation/rules/lease-session.js";

const REASON = "must equal mutationLease.sessionId (a mutation lease belongs to the session that acquired it)";

describe("leaseSessionMatches", () => {
  it("holds when either side is absent, and when the two sessions are one", () => {
    const out: ValidationIssue[] = [];
    expect(leaseSessionMatches({}, "", out)).toBe(true);
    expect(leaseSessionMatches({ sessionId: "s-1" }, "", out)).toBe(true);
    expect(leaseSessionMatches({ mutationLease: { sessionId: "s-1" } }, "", out)).toBe(true);
    expect(leaseSessionMatches({ sessionId: "s-1", mutationLease: { sessionId: "s-1" } }, "", out)).toBe(true);
    expect(out).toEqual([]);
  });

  it("reports a session other than the lease's at sessionId, under the path given", () => {
    const out: ValidationIssue[] = [];
    expect(leaseSessionMatches({ sessionId: "s-1", mutationLease: { sessionId: "s-2" } }, "", out)).toBe(false);
    expect(leaseSessionMatches({ sessionId: "a", mutationLease: { sessionId: "b" } }, "requests[2]", out)).toBe(false);
    expect(out).toEqual([
      { path: "sessionId", reason: REASON },
      { path: "requests[2].sessionId", reason: REASON },
    ]);
  });
});
