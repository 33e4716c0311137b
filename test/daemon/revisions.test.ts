/**
 * Revisions and references against the real daemon (stdio): a mutation guarded by
 * `expectedRevision`, the error a stale revision becomes, the format of the references an
 * observation hands out, and what an old reference does once the page has changed.
 */
import { describe, expect, it } from "vitest";
import type { Glass } from "glass-sdk";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import type { LabServer } from "./support/lab-server.js";
import { failure } from "../support/glass-failure.js";
import { stdioLabClient } from "./support/lab-client.js";

requireInstalledDaemon();

/** The reference the daemon gave a named target in an interactive observation, and the revision. */
async function targetNamed(glass: Glass, name: string): Promise<{ reference: string; revision: number }> {
  const page = await glass.browser.observe({ level: "interactive" });
  const target = page.regions.flatMap((region) => region.targets ?? []).find((candidate) => candidate.name === name);
  if (target === undefined) throw new Error(`no target named ${name} at revision ${page.revision}`);
  return { reference: target.reference, revision: page.revision };
}

describe("revisions and references on the real daemon", () => {
  let glass: Glass;
  let lab: LabServer;
  stdioLabClient((client) => {
    ({ glass, lab } = client);
  }, "/lab");

  it("hands out references of the form r<revision>:c<document id>:b<node> that carry the revision they were taken at", async () => {
    const { reference, revision } = await targetNamed(glass, "Count");
    expect(reference).toMatch(/^r(\d+):c[0-9a-f-]{36}:b\d+$/);
    expect(Number(/^r(\d+):/.exec(reference)?.[1])).toBe(revision);
  });

  it("runs a mutation whose expectedRevision is the current one, and moves the page to the next revision", async () => {
    const { reference, revision } = await targetNamed(glass, "Count");
    const clicked = await glass.browser.click({ target: reference, expectedRevision: revision });
    expect(clicked).toMatchObject({
      status: "succeeded",
      action: "click",
      previousRevision: revision,
      currentRevision: revision + 1,
      revision: revision + 1,
    });
    expect(clicked.executionId).toMatch(/^act_\d+$/);
  });

  it("refuses a mutation at a stale revision with staleRevision: nothing happened, re-observe and retry", async () => {
    const { reference, revision } = await targetNamed(glass, "Count");
    await glass.browser.click({ target: reference, expectedRevision: revision });
    const text = (await glass.browser.getText({})).text;
    const error = await failure(glass.browser.click({ target: reference, expectedRevision: revision }));
    expect(error).toMatchObject({
      code: "staleRevision",
      phase: "preflight",
      mutationPossible: false,
      retryable: true,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      operation: "browser.click",
    });
    expect(error.rawMessage).toBe(
      `expected revision ${revision} but the page is at revision ${revision + 1}; observe again before acting`,
    );
    // The daemon's own object: {kind: "stale_revision", phase, recoveryStrategy, executionId, expectedRevision, currentRevision, recovery}.
    expect(error.details).toMatchObject({
      kind: "stale_revision",
      phase: "preflight",
      recoveryStrategy: "report",
      expectedRevision: revision,
      currentRevision: revision + 1,
      recovery: "observe",
    });
    expect((await glass.browser.getText({})).text).toBe(text); // read-only calls keep the revision and the page
  });

  it("refuses a reference from an older revision of the same document with target.staleReference, suggesting reconcileReferences", async () => {
    const { reference } = await targetNamed(glass, "Count");
    const before = await glass.browser.evaluate({ expression: "document.getElementById('count').textContent" });
    await glass.browser.click({ target: "css=#counter" });
    const error = await failure(glass.browser.click({ target: reference }));
    expect(error).toMatchObject({
      code: "target.staleReference",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve" },
    });
    expect(error.details).toMatchObject({
      kind: "stale_reference",
      failureKind: "stale_revision",
      recovery: { suggestion: "reconcileReferences", staleRef: reference },
    });
    // the refused click did not count: only the css click did
    expect(await glass.browser.evaluate({ expression: "document.getElementById('count').textContent" })).not.toEqual(
      before,
    );
  });

  it("refuses a reference from a page navigated away from with target.staleReference, suggesting to observe again", async () => {
    const { reference } = await targetNamed(glass, "Count");
    await glass.browser.navigate({ url: lab.url("/orders") });
    const error = await failure(glass.browser.click({ target: reference }));
    expect(error).toMatchObject({ code: "target.staleReference", mutationPossible: false });
    expect(error.details).toMatchObject({
      kind: "stale_reference",
      recovery: { suggestion: "reobserve", staleRef: reference },
    });
    await glass.browser.navigate({ url: lab.url("/lab") });
  });

  it("reports a target that matches nothing as target.notFound, and nothing happened", async () => {
    const error = await failure(glass.browser.click({ target: "css=#no-such-element" }));
    expect(error).toMatchObject({
      code: "target.notFound",
      phase: "preflight",
      mutationPossible: false,
      details: { kind: "not_found", failureKind: "target_not_found" },
    });
  });
});
