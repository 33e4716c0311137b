import { describe, expectTypeOf, it } from "vitest";
import type { PayloadOf, ResultOf } from "glass-sdk";
import {
  createMockGlass,
  type MockCallContext,
  type MockHandler,
  type MockHandlers,
  mockError,
} from "glass-sdk/testing";

describe("typed mock handlers", () => {
  it("types each handler's payload and result from the catalog", () => {
    const handlers: MockHandlers = {
      "browser.click": (payload, ctx) => {
        expectTypeOf(payload).toEqualTypeOf<PayloadOf<"browser.click">>();
        expectTypeOf(ctx).toEqualTypeOf<MockCallContext>();
        if (payload.expectedRevision !== 3) throw mockError("staleRevision", "the page is at revision 3");
        return { executionId: "exec-1" };
      },
      "browser.getText": async () => ({ text: "hello" }),
    };
    createMockGlass({ handlers });
    expectTypeOf<MockHandler<"browser.getText">>().returns.toEqualTypeOf<
      ResultOf<"browser.getText"> | Promise<ResultOf<"browser.getText">>
    >();
  });

  it("does not compile a handler that returns the wrong shape", () => {
    createMockGlass({
      handlers: {
        // @ts-expect-error — getText returns { text: string }, not a number
        "browser.getText": () => ({ text: 42 }),
      },
    });
    createMockGlass({
      handlers: {
        // @ts-expect-error — getText's result needs text
        "browser.getText": () => ({ body: "hello" }),
      },
    });
    createMockGlass({
      handlers: {
        // @ts-expect-error — an async handler is checked the same way
        "browser.getText": async () => ({ text: false }),
      },
    });
    createMockGlass({
      handlers: {
        // @ts-expect-error — executionId is a string
        "browser.click": () => ({ executionId: 7 }),
      },
    });
  });

  it("does not compile a handler that reads a payload field the operation does not have", () => {
    createMockGlass({
      handlers: {
        "browser.click": (payload) => {
          // @ts-expect-error — a click payload has target and expectedRevision, no selector
          const selector: string = payload.selector;
          return { executionId: selector };
        },
        "browser.observe": (payload) => {
          // @ts-expect-error — level is a closed set of names, not a number
          const level: number = payload.level;
          throw mockError("target.notFound", String(level));
        },
      },
    });
  });

  it("does not compile a handler keyed by an operation outside the catalog", () => {
    createMockGlass({
      handlers: {
        // @ts-expect-error — there is no browser.observ
        "browser.observ": () => ({}),
      },
    });
  });

  it("types mockError's init: the phase and the retry classification are the protocol's", () => {
    mockError("target.notFound", "gone", {
      phase: "dispatch",
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    });
    // @ts-expect-error — no such phase
    mockError("target.notFound", "gone", { phase: "later" });
    mockError("target.notFound", "gone", {
      // @ts-expect-error — no such retry classification
      retry: { classification: "whenever", recommendedOperation: "inspect_page" },
    });
  });
});
