import { describe, expect, it } from "vitest";
import { responseModeOperations, traceOperations } from "../../generated/operations.js";
import { callOptionArguments, RESPONSE_MODES } from "../../src/operations/response-mode.js";

describe("callOptionArguments", () => {
  it("sends no argument when the call gives no option, or includeTrace false, whatever the operation", () => {
    expect(callOptionArguments("browser.getText", true, {})).toEqual({ arguments: {} });
    expect(callOptionArguments("browser.getText", true, { includeTrace: false })).toEqual({ arguments: {} });
  });

  it("sends each response mode, and includeTrace true, to an operation whose tool takes it", () => {
    for (const responseMode of RESPONSE_MODES)
      expect(callOptionArguments("browser.inspectPage", true, { responseMode })).toEqual({
        arguments: { responseMode },
      });
    expect(callOptionArguments("browser.click", true, { includeTrace: true })).toEqual({
      arguments: { includeTrace: true },
    });
  });

  it("refuses the pair on any catalog operation: no tool takes both, so one of them is always refused", () => {
    for (const operation of [...responseModeOperations, ...traceOperations])
      expect(
        callOptionArguments(operation, true, { responseMode: "normal", includeTrace: true }),
        operation,
      ).toHaveProperty("problem");
  });

  it("names the operations that do take an option when refusing it", () => {
    const refused = callOptionArguments("browser.getText", true, { responseMode: "minimal" });
    expect(refused).toHaveProperty("problem");
    const problem = (refused as { problem: string }).problem;
    for (const operation of responseModeOperations) expect(problem).toContain(operation);
    const untraced = (callOptionArguments("task.execute", true, { includeTrace: true }) as { problem: string }).problem;
    expect(untraced).toContain("task.execute does not take includeTrace");
    for (const operation of traceOperations) expect(untraced).toContain(operation);
  });

  it("describes a wrong value by its type, or a string cut to 32 characters, never more of it", () => {
    expect(callOptionArguments("x.y", false, { responseMode: 3 as never })).toEqual({
      problem: 'responseMode must be "minimal", "normal" or "diagnostic", not number',
    });
    expect(callOptionArguments("x.y", false, { responseMode: `${"v".repeat(40)}tail` as never })).toEqual({
      problem: `responseMode must be "minimal", "normal" or "diagnostic", not "${"v".repeat(32)}"`,
    });
    expect(callOptionArguments("browser.click", true, { includeTrace: "yes" as never })).toEqual({
      problem: 'includeTrace must be true or false, not "yes"',
    });
    expect(callOptionArguments("browser.click", true, { includeTrace: 1 as never })).toEqual({
      problem: "includeTrace must be true or false, not number",
    });
  });

  it("passes either option to an operation outside the catalog, but still checks its value", () => {
    expect(callOptionArguments("vendor.probe", false, { responseMode: "diagnostic", includeTrace: true })).toEqual({
      arguments: { responseMode: "diagnostic", includeTrace: true },
    });
    expect(callOptionArguments("vendor.probe", false, { includeTrace: 1 as never })).toHaveProperty("problem");
  });
});
