import { joinPath, type ValidationIssue } from "../issue.js";

/** The fields of a structurally valid request that {@link leaseSessionMatches} compares. */
interface LeasedRequestShape {
  sessionId?: string;
  mutationLease?: { sessionId: string };
}

/**
 * Cross-field rule of the request envelope: when both `sessionId` and `mutationLease` are present,
 * `sessionId` must equal `mutationLease.sessionId` (a lease belongs to one daemon session).
 */
export function leaseSessionMatches(request: LeasedRequestShape, path: string, out: ValidationIssue[]): boolean {
  const lease = request.mutationLease;
  if (request.sessionId === undefined || lease === undefined || request.sessionId === lease.sessionId) return true;
  out.push({
    path: joinPath(path, "sessionId"),
    reason: "must equal mutationLease.sessionId (a mutation lease belongs to the session that acquired it)",
  });
  return false;
}
