import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as source from "glass-sdk";
import { brandErrorClass, DEFAULT_RETRY_ADVICE, GlassError } from "../../src/errors/glass-error.js";

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

describe("GlassError: text from a daemon or a page", () => {
  it("writes control characters out in the one-line message, and keeps tab and line feed in rawMessage only", () => {
    const error = new GlassError({ code: "browser.failed", message: "\u001b[31mred\u001b[0m\r\nline two\tend" });
    expect(error.message).toBe("glass: browser.failed — \\u001b[31mred\\u001b[0m\\r\\nline two\\tend");
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.rawMessage).toBe("\\u001b[31mred\\u001b[0m\\r\nline two\tend");
    expect(error.toJSON().message).toBe(error.rawMessage);
  });
});

describe("GlassError: the fields a caller gets", () => {
  it("fills in the protocol's defaults, keeps the cause, and writes details and retryable only when given", () => {
    const bare = new GlassError({ code: "x", message: "m" });
    expect(bare).toMatchObject({ phase: "preflight", mutationPossible: false, retry: DEFAULT_RETRY_ADVICE });
    expect(bare.retryable).toBeUndefined();
    expect(bare.cause).toBeUndefined();
    expect(Object.keys(bare.toJSON()).sort()).toEqual(["code", "message", "mutationPossible", "phase", "retry"]);
    const cause = new Error("socket");
    const full = new GlassError({ code: "x", message: "m", details: { path: "a" }, cause, retryable: false });
    expect(full.cause).toBe(cause);
    expect(full.toJSON()).toMatchObject({ details: { path: "a" }, retryable: false });
  });
});

describe("brandErrorClass", () => {
  it("makes instanceof hold between two classes branded with one name, as two copies of the package are", () => {
    class CopyA extends GlassError {}
    class CopyB extends GlassError {}
    class Other extends GlassError {}
    brandErrorClass(CopyA, "TestCopiedError");
    brandErrorClass(CopyB, "TestCopiedError");
    brandErrorClass(Other, "TestOtherError");
    const a = new CopyA({ code: "x", message: "m" });
    expect(a).toBeInstanceOf(CopyB);
    expect(new CopyB({ code: "x", message: "m" })).toBeInstanceOf(CopyA);
    expect(a).toBeInstanceOf(GlassError);
    expect(a).not.toBeInstanceOf(Other);
    expect(new GlassError({ code: "x", message: "m" })).not.toBeInstanceOf(CopyA);
  });

  it("leaves an unbranded subclass to the prototype chain, and plain objects are never GlassErrors", () => {
    class Unbranded extends GlassError {}
    expect(new Unbranded({ code: "x", message: "m" })).toBeInstanceOf(Unbranded);
    expect(new GlassError({ code: "x", message: "m" })).not.toBeInstanceOf(Unbranded);
    expect({ code: "x", message: "m" }).not.toBeInstanceOf(GlassError);
    expect(null).not.toBeInstanceOf(GlassError);
    expect(new Error("plain")).not.toBeInstanceOf(GlassError);
  });
});
