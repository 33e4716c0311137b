import { describe, expect, it } from "vitest";
import { leaseExemptTools } from "glass-sdk/protocol";
import { operations, type OperationDescriptor } from "glass-sdk";

/**
 * The browser tools of §7 of the protocol page and the daemon's newer ones (the page-bound
 * extractWebIr, preflightNavigation and resolveIntentWithKnowledge, the workspace, replay, surface,
 * backend and memory tools), and which of them accept expectedRevision (ER).
 */
const BROWSER_TOOLS = `navigate click clickExpectPopup doubleClick hover clear check uncheck drag type key keyDown keyUp
shortcut select upload fillForm scroll batch clickAt workflow wait evaluate screenshot observe observeBootstrap
observeDelta getDOM getText inspectPage observeKnowledge resolveIntent findTarget executeIntent actAndVerify
extractStructured recoverRun preflight verify reconcileReferences sessionSnapshot exportCheckpoint importCheckpoint
diagnostics acceptDialog dismissDialog dismissConsent download listTargets listFrames cookies localStorage
sessionStorage clearCookies clearNetworkConditions clearCpuThrottling clearUserAgent clearGeolocation clipboardRead
createTarget selectTarget closeTarget selectFrame setCookies setNetworkConditions setCpuThrottling setUserAgent
setGeolocation setTimezone printToPdf clipboardWrite knowledgeList knowledgeStats knowledgeShow knowledgeInvalidate
knowledgePurge extractWebIr preflightNavigation resolveIntentWithKnowledge workspaceStatus workspaceInspect
replayInspect replayDiff replayAttach surfaceInspect backendStatus backendTest memoryStatus memoryInspect memoryExplain
memoryExport memoryReindex memoryForget memoryPrune`.split(/\s+/);
const EXPECTED_REVISION =
  `navigate click clickExpectPopup doubleClick hover clear check uncheck drag type key keyDown keyUp
shortcut select upload fillForm scroll batch`.split(/\s+/);
/** The browser-free tools of §2 and their canonical operations. */
const BROWSER_FREE: Record<string, string> = {
  inspectWebIr: "webIr.inspect",
  validateWebIr: "webIr.validate",
  diffWebIr: "webIr.diff",
  continuityWebIr: "webIr.continuity",
  validateTask: "task.validate",
  compileTask: "task.compile",
  executeTask: "task.execute",
};

const table = Object.values(operations) as OperationDescriptor[];

describe("the operation catalog", () => {
  it("has one entry per §7 browser tool and per §2 browser-free tool, and nothing else", () => {
    expect(table.map((op) => op.tool).sort()).toEqual([...BROWSER_TOOLS, ...Object.keys(BROWSER_FREE)].sort());
    expect(table).toHaveLength(101);
  });

  it("names browser tools browser.<tool> and browser-free tools by their canonical names", () => {
    for (const op of table) {
      const expected = BROWSER_FREE[op.tool] ?? `browser.${op.tool}`;
      expect(op.operation).toBe(expected);
      expect(`${op.namespace}.${op.method}`).toBe(expected);
      expect(operations[op.operation as keyof typeof operations]).toBe(op);
    }
  });

  it("marks exactly the §4 read-only tools lease-exempt and retry-safe; everything else mutates", () => {
    for (const op of table) {
      if (op.tool === "sessionSnapshot") {
        expect(op.lease).toEqual({ requiredWhen: { field: "operation", in: ["create", "purge"] } });
      } else if (op.tool === "executeTask") {
        expect(op.lease).toEqual({
          requiredUnless: {
            field: "task.task",
            in: [
              "form.inspect",
              "form.validate",
              "field.read",
              "table.extract",
              "collection.extract",
              "region.extract",
              "dialog.inspect",
            ],
          },
        });
      } else {
        expect(op.lease, op.tool).toBe(leaseExemptTools.has(op.tool) ? "none" : "required");
      }
      expect(op.retrySafe, op.tool).toBe(op.lease === "none");
    }
  });

  it("flags exactly the tools that accept expectedRevision", () => {
    expect(
      table
        .filter((op) => op.expectedRevision)
        .map((op) => op.tool)
        .sort(),
    ).toEqual([...EXPECTED_REVISION].sort());
  });

  it("lists every read-only tool of §4, including those outside the catalog, for the generic request path", () => {
    for (const tool of ["observe", "inspectWebIr", "project.read", "agent.hello", "workspaceStatus", "replayDiff"])
      expect(leaseExemptTools.has(tool)).toBe(true);
    for (const tool of ["click", "navigate", "executeTask", "evaluate", "project.edit"])
      expect(leaseExemptTools.has(tool)).toBe(false);
  });
});
