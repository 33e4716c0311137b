import { describe, expectTypeOf, it } from "vitest";
import {
  createRequest,
  type GlassRequest,
  type JsonValue,
  type OperationName,
  type PayloadOf,
  type ResultOf,
  validatePayload,
} from "glass-sdk";

describe("createRequest types", () => {
  it("rejects a payload of the wrong shape for a catalog operation", () => {
    // @ts-expect-error — webIr.diff needs { before, after } documents, not a number
    createRequest("webIr.diff", { before: 1 });
    // @ts-expect-error — a click target is a string
    createRequest("browser.click", { target: 42 });
    // @ts-expect-error — unknown field on a closed payload
    createRequest("browser.click", { target: "ref=1", button: "left" });
    // @ts-expect-error — expectedRevision is a number
    createRequest("browser.click", { target: "ref=1", expectedRevision: "7" });
    createRequest("task.validate", {
      task: {
        schemaVersion: 1,
        task: "form.fill",
        scope: {},
        limits: { maxActions: 1, timeoutMs: 1, maxItems: 1 },
        // @ts-expect-error — the task document's risk has no unknownRisk
        risk: "unknownRisk",
      },
    });
  });

  it("accepts well-typed payloads and types the request by operation", () => {
    const click = createRequest("browser.click", { target: "ref=r7:b42", expectedRevision: 7 });
    expectTypeOf(click).toEqualTypeOf<GlassRequest<"browser.click">>();
    expectTypeOf(click.payload).toEqualTypeOf<PayloadOf<"browser.click">>();
    expectTypeOf(click.operation).toEqualTypeOf<"browser.click">();
  });

  it("lets operations outside the catalog carry any JSON", () => {
    const generic = createRequest("browser.project.read", { path: "src/index.ts", lines: [1, 2] });
    expectTypeOf(generic.operation).toEqualTypeOf<"browser.project.read">();
    // @ts-expect-error — still JSON only: a function is not a payload
    createRequest("browser.project.read", { callback: () => 1 });
  });

  it("maps every catalog operation to its payload and result", () => {
    expectTypeOf<"webIr.diff">().toMatchTypeOf<OperationName>();
    expectTypeOf<ResultOf<"webIr.validate">["valid"]>().toEqualTypeOf<true>();
    const checked = validatePayload("webIr.inspect", {});
    if (checked.ok) expectTypeOf(checked.value).toEqualTypeOf<PayloadOf<"webIr.inspect">>();
  });

  it("spells an operation's payload type one way, PayloadOf, for catalog, other and unknown operations", () => {
    expectTypeOf<PayloadOf<"browser.click">>().toHaveProperty("target");
    expectTypeOf<PayloadOf<"vendor.custom">>().toEqualTypeOf<JsonValue>();
    expectTypeOf<PayloadOf<string>>().toBeUnknown();
    expectTypeOf<GlassRequest<"browser.click">["payload"]>().toEqualTypeOf<PayloadOf<"browser.click">>();
  });
});
