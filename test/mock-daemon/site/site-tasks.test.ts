import { describe, expect, it } from "vitest";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import { createSimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { call, failure } from "./site-support.js";

const limits = { maxActions: 4, timeoutMs: 10_000, maxItems: 20 };
const fill: TaskDocument = {
  schemaVersion: 1,
  task: "form.fill",
  scope: { regionName: "Sign in" },
  inputs: { Password: "correct horse", Email: "ada@example.com" },
  limits,
  risk: "localMutation",
};
const submit: TaskDocument = {
  schemaVersion: 1,
  task: "form.submit",
  scope: { regionName: "Sign in" },
  inputs: { submit: "Sign in" },
  limits,
  risk: "authentication",
  postconditions: [{ kind: "navigationOccurred" }, { kind: "pageKind", expected: "generic" }],
};
const table: TaskDocument = {
  schemaVersion: 1,
  task: "table.extract",
  scope: { regionName: "Recent orders" },
  limits,
  risk: "readOnly",
};

describe("task.compile on the shop's Web IR, the daemon's entity ids", () => {
  it("binds form.fill to the form and its fields, by input name, without the values", async () => {
    const site = createSimulatedSite();
    expect(await call(site, "task.validate", { task: fill })).toEqual({
      valid: true,
      schemaVersion: 1,
      task: "form.fill",
    });
    const { plan } = await call(site, "task.compile", { task: fill, ir: site.webIr() });
    expect(plan).toMatchObject({
      sourceIrRevision: 1,
      risk: "localMutation",
      confirmationRequired: false,
      selectedEntityIds: ["entity_field_email", "entity_field_password", "entity_form_sign-in"],
      evidenceRequirements: {
        minimumQuality: "strong",
        requiredSources: ["accessibility", "forms"],
        requireComplete: true,
      },
      entityBindingKeys: [
        { entityId: "entity_field_email", kind: "field", role: "textbox", name: "Email" },
        { entityId: "entity_field_password", kind: "field", role: "textbox", name: "Password" },
        { entityId: "entity_form_sign-in", kind: "form", role: "form", name: "Sign in" },
      ],
      requiredRuntimeCapabilities: ["observe", "mutate"],
      postconditions: [{ kind: "pageKind" }],
    });
    expect(plan.steps[1]).toEqual({
      ordinal: 2,
      operation: "fillInputs",
      inputNames: ["Email", "Password"],
      entityIds: plan.selectedEntityIds,
      requiresConfirmation: false,
    });
    expect(plan.preconditions).toContainEqual({
      kind: "actionSupported",
      entityId: "entity_field_email",
      action: "type",
    });
    expect(JSON.stringify(plan)).not.toContain("correct horse");
  });

  it("binds form.submit to the form and its submit action, and asks for confirmation", async () => {
    const site = createSimulatedSite();
    const { plan } = await call(site, "task.compile", { task: submit, ir: site.webIr() });
    expect(plan).toMatchObject({
      risk: "authentication",
      confirmationRequired: true,
      selectedEntityIds: ["entity_action_sign-in", "entity_form_sign-in"],
    });
    // A lower declared risk is raised to the family's least: form.submit is remoteIrreversible.
    const { plan: raised } = await call(site, "task.compile", {
      task: { ...submit, risk: "readOnly" },
      ir: site.webIr(),
    });
    expect(raised.risk).toBe("remoteIrreversible");
  });

  it("fingerprints the plan as glass-browser 0.3.14 does (the fingerprints it gave these tasks on these documents)", async () => {
    const site = createSimulatedSite();
    const { plan } = await call(site, "task.compile", { task: fill, ir: site.webIr() });
    expect(plan.taskFingerprint).toBe("b9fdb17f1efc3065ec9928b97656052dbc5110896bc738cb1a9d76c3e229e6da");
    const otherValues = await call(site, "task.compile", {
      task: { ...fill, inputs: { Email: "grace@example.com", Password: "hopper" } },
      ir: site.webIr(),
    });
    expect(otherValues.plan.taskFingerprint).toBe(plan.taskFingerprint);
    const otherLimits = await call(site, "task.compile", {
      task: { ...fill, limits: { ...limits, maxItems: 21 } },
      ir: site.webIr(),
    });
    expect(otherLimits.plan.taskFingerprint).toBe("8b9e33274b31bfaf3ff24c2de951752a84db56347fef9051675db8ffcaa4f7fc");
    expect((await call(site, "task.compile", { task: submit, ir: site.webIr() })).plan.taskFingerprint).toBe(
      "9a49b2cde699f6dfe73033eacda7ac2e106c5e9b10138686097a2137826642d0",
    );
    const orders = createSimulatedSite({ startPath: "/orders" });
    expect((await call(orders, "task.compile", { task: table, ir: orders.webIr() })).plan.taskFingerprint).toBe(
      "4488fc7418ee9a4ae501903e66152b672d4ed4ea034fe997c4639d15196b1e64",
    );
  });

  it("fails as task.invalid (taskCompilation) with the daemon's path and reason", async () => {
    const site = createSimulatedSite();
    const ir = site.webIr();
    const refusal = async (task: TaskDocument, document = ir) =>
      (await failure(site, "task.compile", { task, ir: document })).init.details;
    expect(await refusal({ ...fill, scope: { regionName: "Checkout" } })).toEqual({
      kind: "taskCompilation",
      path: "scope",
      reason: "no compatible entity exists in the source Glass Web IR",
    });
    expect(await refusal({ ...fill, inputs: { Phone: "1" } })).toEqual({
      kind: "taskCompilation",
      path: "inputs.Phone",
      reason:
        "form input must resolve to exactly one source Web IR field (found 0; scope entity_form_sign-in; candidates )",
    });
    expect(await refusal({ ...submit, inputs: { submit: "Log in" } })).toMatchObject({
      path: "inputs.submit",
      reason: "submit target must resolve to exactly one source Web IR action",
    });
    const withoutAccessibility = structuredClone(ir);
    withoutAccessibility.entities[1]!.evidenceSources = ["dom", "forms"];
    expect(await refusal(fill, withoutAccessibility)).toMatchObject({
      path: "ir.entities.entity_form_sign-in.evidenceSources",
      reason: "selected entity lacks required Accessibility evidence",
    });
    expect(await refusal({ ...fill, limits: { ...limits, maxActions: 1 } })).toMatchObject({
      path: "steps",
      reason: "execution plan exceeds the maxActions bound",
    });
  });
});

describe("task.execute on the live page, as the daemon runs it", () => {
  it("fills one field per run (the second field's reference is stale once the first is typed), then submits once confirmed", async () => {
    const site = createSimulatedSite();
    const both = await call(site, "task.execute", { task: fill, expectedRevision: 1 });
    expect(both).toMatchObject({
      status: "indeterminate",
      phase: "mutation-verification",
      sourceRevision: 1,
      mutationPossible: true,
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "recover_run" },
    });
    expect(both.steps.at(-1)).toEqual({
      ordinal: 2,
      operation: "fillInputs",
      status: "indeterminate",
      detail: "form values did not match requested values",
    });
    expect(both.form).toMatchObject({ filled: 1, total: 2, status: "completed_with_verification_failure" });
    const one = await call(site, "task.execute", {
      task: { ...fill, inputs: { Password: "correct horse" } },
      expectedRevision: site.state().revision,
    });
    expect(one).toMatchObject({
      status: "succeeded",
      retry: { classification: "safeImmediate", recommendedOperation: "inspect_page" },
      receipt: { postconditions: [{ kind: "pageKind", held: true }] },
    });
    expect(site.state().values).toEqual({ email: "ada@example.com", password: "correct horse" });

    const stale = await call(site, "task.execute", { task: submit, expectedRevision: 1 });
    expect(stale).toMatchObject({
      status: "preflight-failed",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve" },
    });
    expect(stale.steps[0]?.detail).toMatch(
      /^compiled Web IR revision \d+ is not safe for caller-observed revision 1 under Exact policy/,
    );
    const unconfirmed = await call(site, "task.execute", { task: submit, expectedRevision: site.state().revision });
    expect(unconfirmed.steps[0]).toMatchObject({
      status: "not-run",
      detail: "confirmation is required before this task can mutate the browser",
    });
    expect(site.state().signedIn).toBe(false);
    const submitted = await call(site, "task.execute", {
      task: submit,
      expectedRevision: site.state().revision,
      confirmed: true,
    });
    expect(submitted).toMatchObject({
      status: "succeeded",
      phase: "submit-verification",
      receipt: {
        postconditions: [
          { kind: "navigationOccurred", held: true },
          { kind: "pageKind", held: true },
        ],
      },
    });
    expect(site.state()).toMatchObject({ signedIn: true, url: "https://shop.example/orders" });
  });

  it("extracts the orders table's rows as the daemon's extraction does, without changing the page", async () => {
    const site = createSimulatedSite({ startPath: "/orders" });
    const run = await call(site, "task.execute", {
      task: { ...table, limits: { ...limits, maxItems: 2 } },
      expectedRevision: 1,
    });
    const rows = [
      { fields: { Customer: "Ada Lovelace", Order: "1001", Status: "Shipped", Total: "€42.00" } },
      { fields: { Customer: "Alan Turing", Order: "1002", Status: "Processing", Total: "€17.50" } },
    ];
    expect(run).toMatchObject({
      status: "succeeded",
      phase: "extraction",
      mutationPossible: false,
      currentRevision: 1,
      receipt: { selectedEntityIds: ["entity_table_recent-orders"] },
    });
    expect(run.extraction).toMatchObject({
      records: [{ rows }],
      recordItems: rows.map((value, index) => ({ field: "rows", index, value })),
      fieldProvenance: [{ field: "rows", path: "$.structuredRecords", regionId: "region_table_1" }],
      provenance: ["$.structuredRecords"],
      truncated: true,
      continuation: { nextIndex: 2, sourceRevision: 1, regionId: "region_table_1" },
      limits: { maxItems: 2, maxBytes: 65536, observedItems: 3, truncated: true },
    });
    expect(run.extraction?.limits.serializedBytes).toBe(
      new TextEncoder().encode(JSON.stringify(run.extraction)).length,
    );
    // A scope the page has no table by that name for: the daemon's compiler refuses it, without saying why.
    expect(
      (
        await failure(site, "task.execute", {
          task: { ...table, scope: { regionName: "Site navigation" } },
          expectedRevision: 1,
        })
      ).code,
    ).toBe("tool.failed");
  });
});

describe("webIr.diff and webIr.continuity on the shop's Web IR", () => {
  it("follow the sign-in form across a fill", async () => {
    const site = createSimulatedSite();
    const before = site.webIr();
    await call(site, "browser.fillForm", { fields: [{ target: "name=Email", value: "ada@example.com" }] });
    const after = site.webIr();
    expect(await call(site, "webIr.diff", { before, after })).toMatchObject({
      fromRevision: 1,
      toRevision: 2,
      entityAddedCount: 0,
      entityRemovedCount: 0,
    });
    expect(await call(site, "webIr.continuity", { before, after, entityId: "entity_field_email" })).toEqual({
      requestedId: "entity_field_email",
      status: "unchanged",
      currentId: "entity_field_email",
      reason: "semantic identity remains compatible",
    });
    expect(await call(site, "webIr.continuity", { before, after, entityId: "entity_field_phone" })).toEqual({
      requestedId: "entity_field_phone",
      status: "removed",
      reason: "entity was not present in the source revision",
    });
  });
});
