import { describe, expect, it } from "vitest";
import { validatePayload } from "glass-sdk";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import { createSimulatedSite, type SimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { webIrDocument } from "../../../src/operations/web-ir-document.js";
import { call, failure, intent } from "./site-support.js";

async function interactive(site: SimulatedSite): Promise<BrowserSemanticObservation> {
  return (await call(site, "browser.observe", { level: "interactive" })) as BrowserSemanticObservation;
}

function reference(observation: BrowserSemanticObservation, name: string): string {
  const target = observation.regions.flatMap((region) => region.targets ?? []).find((t) => t.name === name);
  if (target === undefined) throw new Error(`no target named ${name}`);
  return target.reference;
}

const limits = { maxActions: 4, timeoutMs: 10_000, maxItems: 20 };

describe("a user drives the simulated shop from sign-in to its orders", () => {
  it("observes, finds, types, meets a stale revision and a stale reference, re-observes, signs in, reads the orders and compiles a task against their Web IR", async () => {
    const site = createSimulatedSite();
    const login = await interactive(site);
    expect(login.page).toMatchObject({ kind: "authentication", url: "https://shop.example/login" });

    // As the daemon: every target on the route is a candidate, the name's terms make Email the most confident.
    const found = await call(site, "browser.findTarget", intent("Email", "type", login.revision));
    expect(found.ambiguity).toBe("ambiguous");
    expect(found.candidates.map((candidate) => [candidate.name, candidate.confidence])).toEqual([
      ["Sign in · Simulated Shop", "low"],
      ["Email", "medium"],
      ["Password", "low"],
      ["Sign in", "low"],
    ]);
    const email = reference(login, "Email");
    expect(found.candidates[1]?.reference).toBe(email);

    const typed = await call(site, "browser.type", {
      target: email,
      text: "ada@example.com",
      expectedRevision: login.revision,
    });
    // A type with a target clicks it first: two action attempts, act_1 and act_2.
    expect(typed.executionId).toBe("act_2");
    expect(site.state()).toMatchObject({ revision: login.revision + 1, values: { email: "ada@example.com" } });

    const stale = await failure(site, "browser.type", {
      target: reference(login, "Password"),
      text: "correct horse",
      expectedRevision: login.revision,
    });
    expect(stale.code).toBe("staleRevision");
    expect(stale.init.details).toMatchObject({
      kind: "stale_revision",
      executionId: "act_3",
      expectedRevision: login.revision,
      currentRevision: login.revision + 1,
    });
    const old = await failure(site, "browser.type", { target: reference(login, "Password"), text: "correct horse" });
    expect(old.code).toBe("target.staleReference");
    expect(old.init.details).toEqual({
      kind: "stale_reference",
      failureKind: "stale_revision",
      recovery: {
        suggestion: "reconcileReferences",
        fromRevision: login.revision,
        staleRef: reference(login, "Password"),
      },
    });
    expect(site.state().values.password).toBeUndefined();

    const again = await interactive(site);
    expect(again.revision).toBe(login.revision + 1);
    const filled = await call(site, "browser.fillForm", {
      fields: [{ target: reference(again, "Password"), value: "correct horse" }],
      expectedRevision: again.revision,
    });
    expect(filled).toMatchObject({
      status: "succeeded",
      filled: 1,
      previousRevision: again.revision,
      currentRevision: again.revision + 1,
    });
    const ready = await interactive(site);
    const clicked = await call(site, "browser.click", {
      target: reference(ready, "Sign in"),
      expectedRevision: ready.revision,
    });
    expect(clicked.verification).toMatchObject({ urlChanged: true, titleChanged: true });
    expect(site.state()).toMatchObject({ signedIn: true, url: "https://shop.example/orders" });
    // A reference of the sign-in page's document names nothing on the orders page's.
    expect((await failure(site, "browser.click", { target: reference(ready, "Sign in") })).init.details).toMatchObject({
      recovery: { suggestion: "reobserve" },
    });

    const { text } = await call(site, "browser.getText", {});
    expect(text).toContain("1001\tAda Lovelace\t€42.00\tShipped");
    expect(text).toContain("1003\tGrace Hopper\t€128.90\tDelivered");

    const orders = (await call(site, "browser.observe", { level: "structured" })) as BrowserSemanticObservation;
    expect(orders.regions.map((region) => region.id)).toEqual([
      "region_navigation_1",
      "region_main_1",
      "region_table_1",
    ]);
    const ir = webIrDocument(await call(site, "browser.extractWebIr", {}));
    const valid = validatePayload("webIr.validate", { ir });
    expect(valid.ok ? [] : valid.issues).toEqual([]);
    const task: TaskDocument = {
      schemaVersion: 1,
      task: "table.extract",
      scope: { regionName: "Recent orders" },
      limits,
      risk: "readOnly",
    };
    const { plan } = await call(site, "task.compile", { task, ir });
    expect(plan).toMatchObject({
      sourceIrRevision: orders.revision,
      selectedEntityIds: ["entity_table_recent-orders"],
      confirmationRequired: false,
    });
    expect(plan.steps).toEqual([
      { ordinal: 1, operation: "observeScope", requiresConfirmation: false },
      { ordinal: 2, operation: "extractTable", entityIds: ["entity_table_recent-orders"], requiresConfirmation: false },
    ]);

    await call(site, "browser.click", { target: reference(orders, "Sign out") });
    expect(site.state().url).toBe("https://shop.example/login");
  });
});

describe("mutations", () => {
  it("refuse a target the page does not have as the daemon does, and change nothing", async () => {
    const site = createSimulatedSite();
    const page = await interactive(site);
    for (const target of ["css=#nowhere", "the email box", "text=Nowhere"])
      expect((await failure(site, "browser.click", { target })).code).toBe("target.notFound");
    expect((await failure(site, "browser.click", { target: "css=input" })).init.details).toEqual({
      kind: "ambiguous",
      failureKind: "ambiguous_target",
      candidates: [{ label: "css match 1" }, { label: "css match 2" }],
    });
    expect((await failure(site, "browser.click", { target: "text=Sign in" })).code).toBe("target.ambiguous");
    // `ref=` is no locator of the daemon's: it fails without saying why; so does a reference it cannot parse.
    for (const target of ["ref=r1:b1", "r1:cbad!:b3"])
      expect((await failure(site, "browser.click", { target })).code).toBe("tool.failed");
    const missing = reference(page, "Email").replace(/:b\d+$/, ":b999");
    expect((await failure(site, "browser.click", { target: missing })).init.details).toEqual({
      kind: "not_actionable",
      failureKind: "verification_failed",
      reason: "node_unavailable",
    });
    // A reference without its document is one from another page.
    expect((await failure(site, "browser.click", { target: "r1:b3" })).init.details).toMatchObject({
      recovery: { suggestion: "reobserve", staleRef: "r1:b3" },
    });
    expect((await failure(site, "browser.select", { target: "css=#email", value: "x" })).code).toBe("target.notFound");
    expect(site.state()).toMatchObject({ revision: 1, values: {} });
  });

  it("fill one field per reference: a CSS target has none, and the second reference is stale once the first field is typed", async () => {
    const site = createSimulatedSite();
    const page = await interactive(site);
    const both = await call(site, "browser.fillForm", {
      fields: [
        { target: reference(page, "Email"), value: "ada@example.com" },
        { target: reference(page, "Password"), value: "pw" },
      ],
    });
    expect(both).toMatchObject({
      status: "completed_with_verification_failure",
      failureKind: "verification_failed",
      filled: 1,
      total: 2,
    });
    expect(both.fields?.[1]).toMatchObject({ action: "type", success: false, error: "element reference is stale" });
    const css = await call(site, "browser.fillForm", {
      fields: [
        { target: "css=#password", value: "pw" },
        { target: "name=Password", value: "pw" },
      ],
    });
    expect(css.fields).toEqual([
      {
        target: "css=#password",
        action: "none",
        label: "css=#password",
        success: false,
        error: "element has no reference",
      },
      { target: "name=Password", action: "type", label: "textbox Password", success: true },
    ]);
    expect(site.state().values).toEqual({ email: "ada@example.com", password: "pw" });
  });

  it("check expectedRevision before anything else, number every attempt, and advance the revision once each", async () => {
    const site = createSimulatedSite();
    expect(
      (await failure(site, "browser.navigate", { url: "https://shop.example/orders", expectedRevision: 0 } as never))
        .code,
    ).toBe("staleRevision");
    expect((await call(site, "browser.click", { target: "css=#email", expectedRevision: 1 })).executionId).toBe(
      "act_2",
    );
    expect((await call(site, "browser.type", { text: "ada@example.com" })).executionId).toBe("act_3");
    expect((await call(site, "browser.type", { target: "css=#password", text: "pw" })).executionId).toBe("act_5");
    // A key press is a keydown alone: Enter submits nothing.
    expect(await call(site, "browser.key", { key: "Enter", expectedRevision: 4 })).toMatchObject({
      action: "key_press",
      executionId: "act_6",
    });
    expect(site.state()).toMatchObject({
      revision: 5,
      signedIn: false,
      url: "https://shop.example/login",
      values: { email: "ada@example.com", password: "pw" },
    });
    const navigated = await call(site, "browser.navigate", {
      url: "https://shop.example/",
      expectedRevision: 5,
    } as never);
    expect(navigated).toMatchObject({
      status: "succeeded",
      action: "navigate",
      executionId: "act_7",
      identity: { redirectCount: 1, sameOrigin: true },
    });
    expect(site.state()).toMatchObject({ revision: 6, url: "https://shop.example/login", values: {} });
  });

  it("show the shop's alert when signing in with an empty field; its orders page is open to all", async () => {
    const site = createSimulatedSite();
    await call(site, "browser.click", { target: "css=button[type=submit]" });
    expect((await call(site, "browser.getText", {})).text).toBe(
      "Sign in\n\nSign in to see your orders\n\nEmail\nPassword\n Sign in\n\nEnter your email and password to sign in.",
    );
    const observed = (await call(site, "browser.observe", { level: "summary" })) as BrowserSemanticObservation;
    expect(observed.regions.map((region) => region.id)).toEqual(["region_main_1", "region_form_1", "region_alert_1"]);
    await call(site, "browser.navigate", { url: "https://shop.example/orders" });
    expect(site.state()).toMatchObject({ signedIn: false, url: "https://shop.example/orders" });
  });
});
