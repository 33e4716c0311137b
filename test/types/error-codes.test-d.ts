import { describe, expectTypeOf, it } from "vitest";
import { GlassError, GlassErrorCode, type LeaseErrorCode } from "glass-sdk";

describe("GlassError code types", () => {
  it("types code as the SDK's and the lease codes, and still takes any code a daemon sends", () => {
    const error = new GlassError({ code: "staleRevision", message: "observe again" });
    expectTypeOf<"request.invalid">().toMatchTypeOf<GlassError["code"]>();
    expectTypeOf<"leaseHeld">().toMatchTypeOf<GlassError["code"]>();
    expectTypeOf<GlassErrorCode>().toMatchTypeOf<GlassError["code"]>();
    expectTypeOf<LeaseErrorCode>().toMatchTypeOf<GlassError["code"]>();
    expectTypeOf(error.code).toMatchTypeOf<string>();
    // `(string & {})` keeps the known codes in the union (a plain `string` would swallow them).
    expectTypeOf<GlassError["code"]>().not.toEqualTypeOf<string>();
  });

  it("lists every code the SDK produces, tool.failed, internal and fixture.invalid among them", () => {
    expectTypeOf<
      "tool.failed" | "internal" | "fixture.invalid" | "request.invalid" | "capability.unavailable"
    >().toMatchTypeOf<GlassErrorCode>();
    expectTypeOf(GlassErrorCode.Internal).toEqualTypeOf<"internal">();
    expectTypeOf(GlassErrorCode.FixtureInvalid).toEqualTypeOf<"fixture.invalid">();
    expectTypeOf(GlassErrorCode.ToolFailed).toEqualTypeOf<"tool.failed">();
  });
});
