import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as source from "glass-sdk";

const esmPath = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const cjsPath = fileURLToPath(new URL("../../dist/index.cjs", import.meta.url));

describe.skipIf(!existsSync(esmPath) || !existsSync(cjsPath))(
  "GlassError across copies of the package (run `npm run build` first)",
  () => {
    it("instanceof works between the ESM build, the CJS build and the source in one process", async () => {
      const esm = (await import(esmPath)) as typeof source;
      const cjs = createRequire(import.meta.url)(cjsPath) as typeof source;
      expect(esm.GlassError).not.toBe(cjs.GlassError);
      const fromCjs = new cjs.DeadlineExceededError({ message: "too slow" });
      const fromEsm = new esm.LeaseError({ code: "leaseExpired", message: "expired" });
      for (const copy of [esm, cjs, source]) {
        expect(fromCjs).toBeInstanceOf(copy.GlassError);
        expect(fromCjs).toBeInstanceOf(copy.DeadlineExceededError);
        expect(fromCjs).not.toBeInstanceOf(copy.CancelledError);
        expect(fromEsm).toBeInstanceOf(copy.LeaseError);
        expect(fromEsm).not.toBeInstanceOf(copy.TransportClosedError);
      }
      expect(new Error("plain")).not.toBeInstanceOf(esm.GlassError);
      expect({ code: "x" }).not.toBeInstanceOf(cjs.GlassError);
    });
  },
);

describe("GlassError", () => {
  it("reads as something a person can act on and carries the wire fields", () => {
    const error = new source.GlassError({
      code: "staleRevision",
      message: "the observation revision is no longer current",
      operation: "browser.click",
      requestId: "r-12",
      retryable: true,
    });
    expect(error.message).toBe(
      "glass.browser.click: staleRevision — the observation revision is no longer current (request r-12)",
    );
    // An MCP method names itself, not as a client method (never glass.glass/lease/acquire).
    const held = new source.GlassError({
      code: "leaseHeld",
      message: "another client holds the lease",
      operation: "glass/lease/acquire",
    });
    expect(held.message).toBe("glass/lease/acquire: leaseHeld — another client holds the lease");
    expect(error.toJSON()).toEqual({
      code: "staleRevision",
      message: "the observation revision is no longer current",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      retryable: true,
    });
    expect(error.name).toBe("GlassError");
    expect(new source.OverloadedError({ message: "busy" })).toMatchObject({
      name: "OverloadedError",
      code: "overloaded",
      retry: { classification: "safeImmediate" },
    });
  });
});
