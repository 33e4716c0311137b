import { describe, expectTypeOf, it } from "vitest";
import type { BrowserClickPayload, BrowserGetTextResult } from "glass-sdk";
import type { MockGlass, RecordedCall } from "glass-sdk/testing";
import type { MockDaemon } from "glass-sdk/testing/node";

declare const mock: MockGlass;
declare const daemon: MockDaemon;

describe("recorded calls, typed by operation", () => {
  it("callsTo gives the operation's payload and result types", () => {
    const [click] = mock.callsTo("browser.click");
    expectTypeOf(click!.operation).toEqualTypeOf<"browser.click">();
    expectTypeOf(click!.payload).toEqualTypeOf<BrowserClickPayload | undefined>();
    const [read] = daemon.callsTo("browser.getText");
    const outcome = read!.outcome;
    if (outcome?.ok === true) expectTypeOf(outcome.result).toEqualTypeOf<BrowserGetTextResult>();
  });

  it("takes only catalog operations", () => {
    // @ts-expect-error "browser.clik" is not a catalog operation
    mock.callsTo("browser.clik");
  });

  it("calls, every operation together, keep the payload unknown", () => {
    expectTypeOf(mock.calls).toEqualTypeOf<readonly RecordedCall[]>();
    expectTypeOf<RecordedCall["payload"]>().toEqualTypeOf<unknown>();
  });
});
