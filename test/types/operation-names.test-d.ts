import { describe, expectTypeOf, it } from "vitest";
import type { BrowserExtractWebIrResult, BrowserSessionSnapshotPayload, Glass, JsonValue, ResultOf } from "glass-sdk";

declare const glass: Glass;
declare const snapshot: BrowserSessionSnapshotPayload;

describe("operation names and call options", () => {
  it("does not compile a misspelt operation name in glass.request", () => {
    // @ts-expect-error "browser.clik" is not a catalog operation
    void glass.request("browser.clik", {});
    // @ts-expect-error a name only known at run time needs the explicit untyped path
    void glass.request("browser.observe" as string, {});
    expectTypeOf(glass.request("browser.getText", {})).resolves.toEqualTypeOf<ResultOf<"browser.getText">>();
  });

  it("takes any name, and returns untyped JSON, only through requestUntyped", () => {
    expectTypeOf(glass.requestUntyped("browser.someNewerTool", { a: 1 })).resolves.toEqualTypeOf<JsonValue>();
  });

  it("offers responseMode only where the tool takes it, and includeTrace only where it can return a trace", () => {
    void glass.browser.sessionSnapshot(snapshot, { responseMode: "diagnostic" });
    void glass.request("browser.sessionSnapshot", snapshot, { responseMode: "normal" });
    void glass.browser.click({ target: "r1:b2" }, { includeTrace: true });
    // @ts-expect-error getText takes no responseMode
    void glass.browser.getText({}, { responseMode: "normal" });
    // @ts-expect-error webIr.diff returns no failure trace
    void glass.request("webIr.diff", { before: {} as never, after: {} as never }, { includeTrace: true });
    // @ts-expect-error not a response mode
    void glass.browser.sessionSnapshot(snapshot, { responseMode: "verbose" });
  });

  it("types extractWebIr's result by the response mode: diagnostics only outside minimal, the daemon's default", async () => {
    const minimal = await glass.browser.extractWebIr();
    expectTypeOf(minimal.diagnostics).toEqualTypeOf<undefined>();
    const diagnostic = await glass.browser.extractWebIr({}, { responseMode: "diagnostic" });
    expectTypeOf(diagnostic.diagnostics).toEqualTypeOf<BrowserExtractWebIrResult["diagnostics"]>();
    expectTypeOf(diagnostic.diagnostics).not.toEqualTypeOf<undefined>();
    const normal = await glass.browser.extractWebIr({}, { responseMode: "normal" });
    expectTypeOf(normal.diagnostics).toEqualTypeOf<BrowserExtractWebIrResult["diagnostics"]>();
  });
});
