import { describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";
import { operations } from "../../src/operations/catalog.js";

/**
 * Tools the mock lists that the catalog deliberately does not type, each with the reason. Empty:
 * every tool the mock lists has a typed method.
 */
const DELIBERATELY_UNTYPED: Readonly<Record<string, string>> = {};

describe("the mock daemon's tools/list", () => {
  it("lists exactly the typed catalog's tools, so every tool it answers has a typed method", async () => {
    const glass = await Glass.connect(createMockGlass().transport());
    const listed = (await glass.listTools()).map((tool) => tool.name).sort();
    const typed = Object.values(operations).map((operation) => operation.tool);
    expect(listed.filter((tool) => !typed.includes(tool) && !Object.hasOwn(DELIBERATELY_UNTYPED, tool))).toEqual([]);
    expect(typed.filter((tool) => !listed.includes(tool))).toEqual([]);
    expect(listed).toHaveLength(typed.length);
    for (const tool of [
      "extractWebIr",
      "preflightNavigation",
      "resolveIntentWithKnowledge",
      "workspaceStatus",
      "memoryPrune",
      "backendTest",
      "replayDiff",
    ]) {
      expect(listed, tool).toContain(tool);
    }
    await glass.close();
  });

  it("lets the client check every typed operation against the list it read at connect", async () => {
    const glass = await Glass.connect(createMockGlass().transport());
    const unsupported = Object.keys(operations).filter((operation) => !glass.supports(operation));
    // Without an agreement on them, capability-gated operations follow the manifest; none is switched off in the mock.
    expect(unsupported).toEqual([]);
    await glass.close();
  });
});
