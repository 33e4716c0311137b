import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Lease } from "../../src/client/lease.js";

const grant = { sessionId: "s-1", ownerId: "o-1", token: "tok-7f3a9", expiresAtMs: Date.parse("2026-12-05T08:00:00Z") };

describe("Lease", () => {
  it("gives the token to whoever asks for it, and the envelope's lease context with its session", () => {
    const lease = new Lease(grant);
    expect(lease.token).toBe("tok-7f3a9");
    expect(lease.mutationLease).toEqual({ sessionId: "s-1", token: "tok-7f3a9" });
    expect(lease).toMatchObject({ sessionId: "s-1", ownerId: "o-1", expiresAtMs: grant.expiresAtMs });
  });

  it("keeps the token out of its JSON, its string, Node's console form and its enumerable fields", () => {
    const lease = new Lease(grant);
    expect(lease.toJSON()).toEqual({
      sessionId: "s-1",
      ownerId: "o-1",
      expiresAtMs: grant.expiresAtMs,
      token: "[redacted]",
    });
    expect(String(lease)).toBe("Lease(s-1, expires 2026-12-05T08:00:00.000Z)");
    expect(inspect(lease)).toBe(String(lease));
    expect(inspect({ held: lease }, { depth: 4 })).not.toContain("tok-7f3a9");
    expect(Object.values(lease)).not.toContain("tok-7f3a9");
  });

  it("shows a renewed expiry", () => {
    const lease = new Lease(grant);
    lease.expiresAtMs = Date.parse("2026-12-05T09:00:00Z");
    expect(String(lease)).toBe("Lease(s-1, expires 2026-12-05T09:00:00.000Z)");
    expect(lease.toJSON().expiresAtMs).toBe(lease.expiresAtMs);
  });
});
