import { describe, expect, it } from "vitest";
import { validatePayload } from "glass-sdk";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import { createSimulatedSite, type SimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { call, context, failure, intent } from "./site-support.js";

async function interactive(site: SimulatedSite): Promise<BrowserSemanticObservation> {
  return (await call(site, "browser.observe", { level: "interactive" })) as BrowserSemanticObservation;
}

function reference(observation: BrowserSemanticObservation, name: string): string {
  const target = observation.regions.flatMap((region) => region.targets ?? []).find((t) => t.name === name);
  if (target === undefined) throw new Error(`no target named ${name}`);
  return target.reference;
}

const limits = { maxActions: 4, timeoutMs: 10_000, maxItems: 20 };

describe("a user drives the simulated site from sign-in to an order's dialog", () => {
  it("observes, finds, types, meets a stale revision, re-observes, signs in, reads the orders, opens one and compiles a task against its Web IR", async () => {
    const site = createSimulatedSite();
    const login = await interactive(site);
    expect(login.page).toMatchObject({ kind: "authentication", url: "https://shop.example/login" });

    const found = await call(site, "browser.findTarget", intent("Email", "type", login.revision));
    expect(found.ambiguity).toBe("none");
    const email = found.candidates[0];
    expect(email).toMatchObject({ name: "Email", inputType: "email", confidence: "exact" });

    const typed = await call(site, "browser.type", { target: email?.reference ?? "", text: "ada@example.com", expectedRevision: login.revision });
    expect(typed.executionId).toBe("exec-1");
    expect(site.state()).toMatchObject({ revision: login.revision + 1, values: { email: "ada@example.com" } });

    const stale = await failure(site, "browser.type", { target: reference(login, "Password"), text: "correct horse", expectedRevision: login.revision });
    expect(stale.code).toBe("staleRevision");
    expect(stale.message).toContain(`expected revision ${login.revision}`);
    expect(site.state().values.password).toBeUndefined();

    const again = await interactive(site);
    expect(again.revision).toBe(login.revision + 1);
    const filled = await call(site, "browser.fillForm", {
      fields: [{ target: reference(again, "Email"), value: "ada@example.com" }, { target: reference(again, "Password"), value: "correct horse" }],
      expectedRevision: again.revision,
    });
    expect(filled).toMatchObject({ status: "succeeded", filled: 2, previousRevision: again.revision, currentRevision: again.revision + 1 });
    await call(site, "browser.click", { target: reference(again, "Sign in"), expectedRevision: again.revision + 1 });
    expect(site.state()).toMatchObject({ signedIn: true, url: "https://shop.example/orders" });

    await call(site, "browser.navigate", { url: "https://shop.example/orders" });
    const { text } = await call(site, "browser.getText", {});
    expect(text).toContain("1001 Ada Lovelace €42.00 Shipped");
    expect(text).toContain("1003 Grace Hopper €128.90 Delivered");

    const orders = await interactive(site);
    await call(site, "browser.click", { target: reference(orders, "Order 1002"), expectedRevision: orders.revision });
    const withDialog = (await call(site, "browser.observe", { level: "structured" })) as BrowserSemanticObservation;
    const dialog = withDialog.regions.find((region) => region.kind === "dialog");
    expect(dialog).toMatchObject({ label: "Order 1002", targets: [{ role: "button", name: "Close" }] });
    expect(withDialog.text).toContain("Customer: Alan Turing");

    const ir = site.handlers["browser.extractWebIr"]({}, context("browser.observe"));
    const valid = validatePayload("webIr.validate", { ir });
    expect(valid.ok ? [] : valid.issues).toEqual([]);
    const task: TaskDocument = { schemaVersion: 1, task: "table.extract", scope: { regionName: "Recent orders" }, limits, risk: "readOnly" };
    const { plan } = await call(site, "task.compile", { task, ir });
    expect(plan).toMatchObject({ sourceIrRevision: withDialog.revision, selectedEntityIds: ["region-orders"], confirmationRequired: false });
    expect(plan.steps).toEqual([
      { ordinal: 1, operation: "observeScope", requiresConfirmation: false },
      { ordinal: 2, operation: "extractTable", entityIds: ["region-orders"], requiresConfirmation: false },
    ]);
    const ids = ir.entities.map((entity) => entity.id);
    expect(plan.selectedEntityIds.every((id) => ids.includes(id))).toBe(true);

    await call(site, "browser.click", { target: reference(withDialog, "Close") });
    expect(site.state().openOrder).toBeNull();
  });
});

describe("mutations", () => {
  it("refuse an unknown target with a targeting error and change nothing", async () => {
    const site = createSimulatedSite();
    for (const target of ["ref=r1:b999", "css=#nowhere", "the email box"]) {
      const error = await failure(site, "browser.click", { target });
      expect(error.code).toBe("target.notFound");
    }
    expect((await failure(site, "browser.fillForm", { fields: [{ target: "css=#email", value: "a" }, { target: "css=#submit", value: "b" }] })).code).toBe("target.notEditable");
    expect(site.state()).toMatchObject({ revision: 1, values: {} });
  });

  it("check expectedRevision before anything else, and advance the revision once each", async () => {
    const site = createSimulatedSite();
    expect((await failure(site, "browser.navigate", { url: "https://shop.example/orders", expectedRevision: 0 })).code).toBe("staleRevision");
    await call(site, "browser.click", { target: "css=#email", expectedRevision: 1 });
    await call(site, "browser.type", { text: "ada@example.com" });
    await call(site, "browser.type", { target: "#password", text: "pw" });
    await call(site, "browser.key", { key: "Enter", expectedRevision: 4 });
    expect(site.state()).toMatchObject({ revision: 5, signedIn: true, url: "https://shop.example/orders" });
    expect((await failure(site, "browser.select", { target: "css=#nav-orders", value: "x" })).code).toBe("target.notSelectable");
  });

  it("show an alert when signing in with an empty field, and sign out again", async () => {
    const site = createSimulatedSite();
    await call(site, "browser.click", { target: "css=#submit" });
    expect((await call(site, "browser.inspectPage", {})).alerts).toEqual(["Enter your email and password to sign in."]);
    const signedIn = createSimulatedSite({ signedIn: true, startPath: "/orders" });
    await call(signedIn, "browser.click", { target: "css=#nav-signout" });
    expect(signedIn.state()).toMatchObject({ signedIn: false, url: "https://shop.example/login" });
  });
});

describe("tasks on the sign-in page", () => {
  const fill: TaskDocument = { schemaVersion: 1, task: "form.fill", scope: { regionName: "Sign in" }, inputs: { Password: "correct horse", Email: "ada@example.com" }, limits, risk: "localMutation" };
  const submit: TaskDocument = {
    schemaVersion: 1,
    task: "form.submit",
    scope: { regionName: "Sign in" },
    inputs: { submit: "Sign in" },
    limits,
    risk: "authentication",
    postconditions: [{ kind: "navigationOccurred" }, { kind: "pageKind", expected: "listing" }],
  };

  it("task.compile binds form.fill to the form and its fields, by input name, without the values", async () => {
    const site = createSimulatedSite();
    expect(await call(site, "task.validate", { task: fill })).toEqual({ valid: true, schemaVersion: 1, task: "form.fill" });
    const { plan } = await call(site, "task.compile", { task: fill, ir: site.webIr() });
    expect(plan).toMatchObject({
      sourceIrRevision: 1,
      risk: "localMutation",
      confirmationRequired: false,
      selectedEntityIds: ["field-email", "field-password", "region-signin"],
      evidenceRequirements: { minimumQuality: "strong", requiredSources: ["accessibility", "forms"], requireComplete: true },
      entityBindingKeys: [
        { entityId: "field-email", kind: "field", role: "textbox", name: "Email" },
        { entityId: "field-password", kind: "field", role: "textbox", name: "Password" },
        { entityId: "region-signin", kind: "form", role: "form", name: "Sign in" },
      ],
      requiredRuntimeCapabilities: ["observe", "mutate"],
      postconditions: [{ kind: "pageKind" }],
    });
    expect(plan.steps[1]).toEqual({ ordinal: 2, operation: "fillInputs", inputNames: ["Email", "Password"], entityIds: plan.selectedEntityIds, requiresConfirmation: false });
    expect(plan.preconditions).toContainEqual({ kind: "actionSupported", entityId: "field-email", action: "type" });
    expect(JSON.stringify(plan)).not.toContain("correct horse");
  });

  it("task.compile binds form.submit to the form and its submit action, and asks for confirmation", async () => {
    const site = createSimulatedSite();
    const { plan } = await call(site, "task.compile", { task: submit, ir: site.webIr() });
    expect(plan).toMatchObject({ risk: "authentication", confirmationRequired: true, selectedEntityIds: ["action-submit", "region-signin"] });
    expect(plan.steps[1]).toEqual({ ordinal: 2, operation: "submitForm", inputNames: ["submit"], entityIds: ["action-submit", "region-signin"], requiresConfirmation: true });
    // A lower declared risk is raised to the family's least: form.submit is remoteIrreversible.
    const { plan: raised } = await call(site, "task.compile", { task: { ...submit, risk: "readOnly" }, ir: site.webIr() });
    expect(raised.risk).toBe("remoteIrreversible");
  });

  it("task.compile fingerprints the plan as glass-browser 0.3.14 does: the task without its input values, the revision and the entities", async () => {
    // The fingerprints the real daemon gave these tasks on these documents.
    const site = createSimulatedSite();
    const { plan } = await call(site, "task.compile", { task: fill, ir: site.webIr() });
    expect(plan.taskFingerprint).toBe("932563235e0b7f82cbe8b56b3fc587daf07e2479cd5ab8779df1d446393dbf24");
    const otherValues = await call(site, "task.compile", { task: { ...fill, inputs: { Email: "grace@example.com", Password: "hopper" } }, ir: site.webIr() });
    expect(otherValues.plan.taskFingerprint).toBe(plan.taskFingerprint);
    const otherLimits = await call(site, "task.compile", { task: { ...fill, limits: { ...limits, maxItems: 21 } }, ir: site.webIr() });
    expect(otherLimits.plan.taskFingerprint).not.toBe(plan.taskFingerprint);
    const orders = createSimulatedSite({ signedIn: true, startPath: "/orders" });
    const table: TaskDocument = { schemaVersion: 1, task: "table.extract", scope: { regionName: "Recent orders" }, limits, risk: "readOnly" };
    const extract = await call(orders, "task.compile", { task: table, ir: orders.webIr() });
    expect(extract.plan.taskFingerprint).toBe("629b18dc89356533086676e29e8f40b9367f001a148d29cbd7b142278874b3fb");
  });

  it("task.compile fails as task.invalid (taskCompilation) with the daemon's path and reason", async () => {
    const site = createSimulatedSite();
    const ir = site.webIr();
    const refusal = async (task: TaskDocument, document = ir) => (await failure(site, "task.compile", { task, ir: document })).init.details;
    expect(await refusal({ ...fill, scope: { regionName: "Checkout" } })).toEqual({
      kind: "taskCompilation",
      path: "scope",
      reason: "no compatible entity exists in the source Glass Web IR",
    });
    expect(await refusal({ ...fill, inputs: { Phone: "1" } })).toEqual({
      kind: "taskCompilation",
      path: "inputs.Phone",
      reason: "form input must resolve to exactly one source Web IR field (found 0; scope region-signin; candidates )",
    });
    expect(await refusal({ ...submit, inputs: { submit: "Log in" } })).toMatchObject({ path: "inputs.submit", reason: "submit target must resolve to exactly one source Web IR action" });
    const withoutAccessibility = structuredClone(ir);
    withoutAccessibility.entities[1]!.evidenceSources = ["dom", "forms"];
    expect(await refusal(fill, withoutAccessibility)).toMatchObject({ path: "ir.entities.region-signin.evidenceSources", reason: "selected entity lacks required Accessibility evidence" });
    expect(await refusal({ ...fill, limits: { ...limits, maxActions: 1 } })).toMatchObject({ path: "steps", reason: "execution plan exceeds the maxActions bound" });
  });

  it("task.execute fills the form, then submits it once confirmed and lands on the orders, each run one revision", async () => {
    const site = createSimulatedSite();
    const filled = await call(site, "task.execute", { task: fill, expectedRevision: 1 });
    expect(filled).toMatchObject({ status: "succeeded", sourceRevision: 1, currentRevision: 2, mutationPossible: true });
    expect(filled.receipt).toMatchObject({ selectedEntityIds: ["field-email", "field-password", "region-signin"], bindingCandidateEntityIds: ["field-email", "field-password"] });
    expect(site.state().values).toEqual({ email: "ada@example.com", password: "correct horse" });
    expect((await failure(site, "task.execute", { task: submit, expectedRevision: 1 })).code).toBe("staleRevision");
    const unconfirmed = await call(site, "task.execute", { task: submit, expectedRevision: 2 });
    expect(unconfirmed).toMatchObject({ status: "preflight-failed", phase: "preflight", mutationPossible: false, currentRevision: 2 });
    expect(site.state().signedIn).toBe(false);
    const submitted = await call(site, "task.execute", { task: submit, expectedRevision: 2, confirmed: true });
    expect(submitted).toMatchObject({ status: "succeeded", currentRevision: 3, receipt: { postconditions: [{ kind: "navigationOccurred", held: true }, { kind: "pageKind", held: true }] } });
    expect(site.state()).toMatchObject({ signedIn: true, url: "https://shop.example/orders" });
  });

  it("task.execute extracts the orders table without changing the page", async () => {
    const site = createSimulatedSite({ signedIn: true, startPath: "/orders" });
    const task: TaskDocument = { schemaVersion: 1, task: "table.extract", scope: { regionName: "Recent orders" }, limits: { ...limits, maxItems: 2 }, risk: "readOnly" };
    const run = await call(site, "task.execute", { task, expectedRevision: 1 });
    expect(run.extraction?.records).toEqual([
      { Order: "1001", Customer: "Ada Lovelace", Total: "€42.00", Status: "Shipped" },
      { Order: "1002", Customer: "Alan Turing", Total: "€17.50", Status: "Processing" },
    ]);
    expect(run).toMatchObject({ mutationPossible: false, currentRevision: 1 });
  });

  it("webIr.diff and webIr.continuity follow the sign-in form across a fill", async () => {
    const site = createSimulatedSite();
    const before = site.webIr();
    await call(site, "browser.fillForm", { fields: [{ target: "css=#email", value: "ada@example.com" }] });
    const after = site.webIr();
    const diff = await call(site, "webIr.diff", { before, after });
    expect(diff).toMatchObject({ fromRevision: 1, toRevision: 2, entityAddedCount: 0, entityRemovedCount: 0 });
    expect(await call(site, "webIr.continuity", { before, after, entityId: "field-email" })).toEqual({
      requestedId: "field-email",
      status: "unchanged",
      currentId: "field-email",
      reason: "semantic identity remains compatible",
    });
    expect(await call(site, "webIr.continuity", { before, after, entityId: "field-phone" })).toEqual({
      requestedId: "field-phone",
      status: "removed",
      reason: "entity was not present in the source revision",
    });
  });
});
