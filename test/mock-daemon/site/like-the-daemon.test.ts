/**
 * The simulated shop answers as glass-browser 0.3.14 answered on examples/shop/ in headless
 * Chromium: the values below are the daemon's (recorded with test/daemon/support/journeys.ts and
 * compared call by call by test/daemon/differential.test.ts), apart from what differs between any
 * two runs of the daemon — revisions, the document id in a reference, the tab id.
 */
import { describe, expect, it } from "vitest";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import { createSimulatedSite, type SimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { call } from "./site-support.js";

const VIEWPORT = { scrollX: 0, scrollY: 0, width: 1280, height: 577, documentWidth: 1280, documentHeight: 577 };
const FLAGS = { readOnly: false, required: false, empty: false };

/** The references of the current document: `r<revision>:c<document>:b<node>`. */
async function references(site: SimulatedSite): Promise<(node: number) => string> {
  const observed = (await call(site, "browser.observe", { level: "interactive" })) as BrowserSemanticObservation;
  const [sample] = observed.regions.flatMap((region) => region.targets ?? []);
  const prefix = /^(r\d+:c[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}):b\d+$/.exec(
    sample?.reference ?? "",
  )?.[1];
  if (prefix === undefined) throw new Error(`not a daemon reference: ${sample?.reference}`);
  return (node) => `${prefix}:b${node}`;
}

describe("the sign-in page, as the daemon observes it", () => {
  it("has a main region and the form, which holds every target (the page itself first)", async () => {
    const site = createSimulatedSite();
    const ref = await references(site);
    const observed = (await call(site, "browser.observe", { level: "interactive" })) as BrowserSemanticObservation;
    const route = {
      targetId: observed.route.targetId,
      frameId: observed.route.targetId,
      url: "https://shop.example/login",
    };
    expect(observed.route.targetId).toMatch(/^[0-9A-F]{32}$/);
    expect(observed).toEqual({
      schemaVersion: 1,
      revision: 1,
      level: "interactive",
      route,
      page: {
        kind: "authentication",
        title: "Sign in · Simulated Shop",
        url: route.url,
        targetId: route.targetId,
        frameId: route.frameId,
        confidence: "high",
        evidence: ["title-or-url-signature=authentication"],
      },
      regions: [
        {
          id: "region_main_1",
          kind: "main",
          label: "Main content",
          interactiveCount: 3,
          confidence: "exact",
          evidence: ["aria-role=main"],
          expansion: { regionId: "region_main_1", revision: 1, route },
        },
        {
          id: "region_form_1",
          kind: "form",
          label: "Sign in",
          interactiveCount: 3,
          confidence: "exact",
          evidence: ["aria-role=form"],
          targets: [
            { reference: ref(6), role: "RootWebArea", name: "Sign in · Simulated Shop", ...FLAGS },
            { reference: ref(3), role: "textbox", name: "Email", ...FLAGS },
            { reference: ref(4), role: "textbox", name: "Password", ...FLAGS },
            { reference: ref(5), role: "button", name: "Sign in", ...FLAGS },
          ],
          expansion: { regionId: "region_form_1", revision: 1, route },
        },
      ],
      limits: {
        truncated: false,
        omittedRegions: 0,
        omittedTargets: 0,
        omittedStructuredRecords: 0,
        viewport: VIEWPORT,
      },
    });
    expect((await call(site, "browser.getText", {})).text).toBe(
      "Sign in\n\nSign in to see your orders\n\nEmail\nPassword\n Sign in",
    );
  });

  it("scopes an observation to the form: its own text (every name of its part of the tree), the other region omitted", async () => {
    const site = createSimulatedSite();
    const scoped = (await call(site, "browser.observe", {
      level: "structured",
      region: "region_form_1",
    })) as BrowserSemanticObservation;
    expect(scoped.text).toBe(
      "Sign in\nSign in\nSign in\nSign in\nSign in to see your orders\nSign in to see your orders\nEmail\nEmail\nPassword\nPassword\nSign in\nSign in",
    );
    expect(scoped.limits).toEqual({
      truncated: true,
      omittedRegions: 1,
      omittedTargets: 0,
      omittedStructuredRecords: 0,
      structuredBytes: 0,
      omittedBytes: 0,
      textBytes: 131,
      viewport: VIEWPORT,
    });
  });

  it("finds every target for an intent, in page order, the one whose name has the intent's terms the most confident", async () => {
    const site = createSimulatedSite();
    const ref = await references(site);
    const found = await call(site, "browser.findTarget", {
      schemaVersion: 1,
      intent: "Email",
      action: "type",
      resolutionPolicy: "reportOnly",
      expectedRevision: 1,
    });
    const route = {
      frameId: found.candidates[0]?.fingerprint?.route.frameId,
      targetId: found.candidates[0]?.fingerprint?.route.targetId,
      url: "https://shop.example/login",
    };
    const candidate = (index: number, node: number, role: string, name: string, confidence: string) => ({
      confidence,
      evidence: [
        { category: "routeMatch", detail: "candidate belongs to the observed target and frame route" },
        ...(confidence === "medium"
          ? [{ category: "semanticName", detail: "bounded intent terms match the accessible name" }]
          : []),
      ],
      fingerprint: {
        invalidatedBy: ["revisionChanged", "routeChanged", "roleChanged", "nameChanged", "regionChanged"],
        name,
        purpose: "enter",
        regionId: "region_form_1",
        regionKind: "form",
        revision: 1,
        role,
        route,
      },
      id: `candidate_${index}`,
      name,
      reference: ref(node),
      regionId: "region_form_1",
      regionKind: "form",
      role,
    });
    expect(found).toEqual({
      ambiguity: "ambiguous",
      candidates: [
        candidate(1, 6, "RootWebArea", "Sign in · Simulated Shop", "low"),
        candidate(2, 3, "textbox", "Email", "medium"),
        candidate(3, 4, "textbox", "Password", "low"),
        candidate(4, 5, "button", "Sign in", "low"),
      ],
      detailAvailability: {
        detailsAvailable: true,
        detailsTruncated: false,
        resultId: expect.stringMatching(/^mcp_\d+_1$/),
      },
      normalizedIntent: "email",
      revision: 1,
      suggestedConstraints: [{ role: "RootWebArea" }, { role: "textbox" }, { role: "button" }],
    });
  });
});

describe("the orders page, as the daemon observes it", () => {
  it("has the navigation, the main region and the table, whose rows are structured records keyed by the column headers", async () => {
    const site = createSimulatedSite({ startPath: "/orders" });
    const ref = await references(site);
    const observed = (await call(site, "browser.observe", { level: "structured" })) as BrowserSemanticObservation;
    expect(observed.page).toMatchObject({
      kind: "generic",
      confidence: "unknown",
      evidence: ["no-high-confidence-page-signature"],
    });
    expect(
      observed.regions.map(({ id, kind, label, interactiveCount, itemCount }) => ({
        id,
        kind,
        label,
        interactiveCount,
        itemCount,
      })),
    ).toEqual([
      {
        id: "region_navigation_1",
        kind: "navigation",
        label: "Site navigation",
        interactiveCount: 2,
        itemCount: undefined,
      },
      { id: "region_main_1", kind: "main", label: "Main content", interactiveCount: 0, itemCount: undefined },
      { id: "region_table_1", kind: "table", label: "Recent orders", interactiveCount: 0, itemCount: 0 },
    ]);
    expect(
      observed.regions.map((region) =>
        (region.targets ?? []).map((target) => `${target.role} ${target.name} ${target.reference}`),
      ),
    ).toEqual([
      [`link Orders ${ref(42)}`, `link Sign out ${ref(43)}`],
      [],
      [`RootWebArea Orders · Simulated Shop ${ref(33)}`],
    ]);
    expect(observed.regions[2]?.structuredRecords).toEqual([
      { fields: { Customer: "Ada Lovelace", Order: "1001", Status: "Shipped", Total: "€42.00" } },
      { fields: { Customer: "Alan Turing", Order: "1002", Status: "Processing", Total: "€17.50" } },
      { fields: { Customer: "Grace Hopper", Order: "1003", Status: "Delivered", Total: "€128.90" } },
    ]);
    const text =
      "Simulated Shop Orders Sign out\nRecent orders\nOrder\tCustomer\tTotal\tStatus\n1001\tAda Lovelace\t€42.00\tShipped\n1002\tAlan Turing\t€17.50\tProcessing\n1003\tGrace Hopper\t€128.90\tDelivered";
    expect(observed.text).toBe(text);
    expect(observed.limits).toEqual({
      truncated: false,
      omittedRegions: 0,
      omittedTargets: 0,
      omittedStructuredRecords: 0,
      structuredBytes: 278,
      textBytes: 182,
      viewport: VIEWPORT,
    });
    expect((await call(site, "browser.getText", {})).text).toBe(text);
    const inspected = await call(site, "browser.inspectPage", {});
    expect(inspected).toMatchObject({
      alerts: [],
      focusedTarget: null,
      regions: observed.regions,
      limits: observed.limits,
    });
  });
});

describe("a path the shop does not have", () => {
  it("is its server's untitled `No page at <path>` text, one unclassified region holding the page itself", async () => {
    const site = createSimulatedSite({ startPath: "/nowhere" });
    const ref = await references(site);
    const observed = (await call(site, "browser.observe", { level: "structured" })) as BrowserSemanticObservation;
    expect(observed.page).toMatchObject({ kind: "generic", title: "" });
    expect(observed.regions).toEqual([
      {
        id: "region_main",
        kind: "unknown",
        label: "Unclassified page content",
        interactiveCount: 1,
        confidence: "unknown",
        evidence: ["no recognized landmark role"],
        targets: [{ reference: ref(93), role: "RootWebArea", ...FLAGS }],
        expansion: { regionId: "region_main", revision: 1, route: observed.route },
      },
    ]);
    expect(observed.text).toBe("No page at /nowhere\n");
  });
});
