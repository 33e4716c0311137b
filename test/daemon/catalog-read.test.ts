/**
 * The typed catalog against the real daemon, part 2: reading the page. One daemon over stdio drives
 * headless Chromium on the lab page (and the shop's sign-in page); every observation, inspection,
 * storage, intent and snapshot operation is called through the typed client, its result checked by
 * the SDK's result schema and its content against what the page holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { CATALOG_FILES, type RecordedClient, recordCalls } from "./support/catalog-coverage.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { requireInstalledDaemon, type StdioDaemon, stdioDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

const LAB_TITLE = "Lab · glass-sdk daemon suite";

describe("the page-reading operations of the catalog on the real daemon", () => {
  let lab: LabServer;
  let daemon: StdioDaemon;
  let client: RecordedClient;
  let glass: Glass;
  /** The lab page's tab, as navigate reported it. */
  let tab: string;
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
    client = recordCalls(await Glass.connect(daemon.transport));
    glass = client.glass;
    const loaded = await glass.browser.navigate({ url: lab.url("/lab") });
    tab = loaded.target_id ?? "";
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
    await lab?.close();
  });

  it("navigate loads the lab page and reports its URL, title and tab", async () => {
    const loaded = await glass.browser.navigate({ url: lab.url("/lab") });
    expect(loaded).toMatchObject({
      url: lab.url("/lab"),
      title: LAB_TITLE,
      ready_state: "complete",
      target_id: tab,
      frame_id: tab,
    });
  });

  it("observe at the interactive level lists the consent dialog and the lab's controls; without a level it returns the page's text", async () => {
    const page = await glass.browser.observe({ level: "interactive" });
    expect(page).toMatchObject({
      schemaVersion: 1,
      level: "interactive",
      page: { title: LAB_TITLE, url: lab.url("/lab") },
    });
    const dialog = page.regions.find((region) => region.kind === "dialog");
    expect(dialog).toMatchObject({ label: "Cookie consent" });
    const names = page.regions.flatMap((region) => region.targets ?? []).map((target) => target.name);
    expect(names).toEqual(expect.arrayContaining(["Accept all", "Count", "Double me", "Name", "Subscribe"]));
    const context = await glass.browser.observe({});
    expect(context.page).toMatchObject({ url: lab.url("/lab"), title: LAB_TITLE });
    expect(context.text).toContain("Clicks: 0");
  });

  it("observeBootstrap classifies the lab as a normal page and counts its frame", async () => {
    const bootstrap = await glass.browser.observeBootstrap();
    expect(bootstrap.page).toMatchObject({ url: lab.url("/lab"), title: LAB_TITLE });
    expect(bootstrap.classification.state).toBe("normal");
    expect(bootstrap.boundaries.child_frames).toBe(1);
    expect(bootstrap.text).toContain("Tall content");
  });

  it("observeDelta reports no change between two observations of an unchanged page", async () => {
    await glass.browser.observe({ level: "interactive" });
    const delta = await glass.browser.observeDelta();
    expect(delta.fromRevision).toBe(delta.toRevision);
    expect(delta).toMatchObject({
      added: [],
      removed: [],
      changed: [],
      mutation_summary: { urlChanged: false, titleChanged: false, revisionDelta: 0 },
    });
  });

  it("getDOM returns the document tree with the page's title text", async () => {
    const dom = await glass.browser.getDOM();
    expect(dom.node_name).toBe("#document");
    expect(JSON.stringify(dom)).toContain(`"node_value":"${LAB_TITLE}"`);
  });

  it("getText returns the page's visible text", async () => {
    const { text } = await glass.browser.getText();
    expect(text).toContain("We use cookies.");
    expect(text).toContain("The bottom");
  });

  it("inspectPage describes the page and its regions, with where the full result is kept", async () => {
    const inspection = await glass.browser.inspectPage();
    expect(inspection.page).toMatchObject({ title: LAB_TITLE, kind: "form" });
    expect(inspection.regions.map((region) => region.kind)).toContain("dialog");
    expect(inspection.detailAvailability).toMatchObject({
      detailsAvailable: true,
      resultId: expect.stringMatching(/^mcp_\d+_\d+$/),
    });
  });

  it("screenshot captures the viewport as a PNG", async () => {
    const shot = await glass.browser.screenshot({ format: "png" });
    expect(shot).toMatchObject({ format: "png", width: 1280, full_page: false, target_id: tab });
    expect(shot.image.mimeType).toBe("image/png");
    expect(Buffer.from(shot.image.data, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(Buffer.from(shot.image.data, "base64").length).toBe(shot.encoded_bytes);
  });

  it("diagnostics collects the page's console for the requested window", async () => {
    const report = await glass.browser.diagnostics({ durationMs: 200 });
    expect(report).toMatchObject({ target_id: tab, frame_id: tab, dropped_events: 0 });
    expect(report.duration_ms).toBeGreaterThanOrEqual(200);
  });

  it("listTargets lists the one tab and listFrames the page with its iframe", async () => {
    const targets = await glass.browser.listTargets();
    expect(targets.result).toEqual([
      expect.objectContaining({ id: tab, url: lab.url("/lab"), title: LAB_TITLE, active: true }),
    ]);
    const frames = await glass.browser.listFrames();
    expect(frames.result).toEqual([
      expect.objectContaining({ id: tab, url: lab.url("/lab"), active: true }),
      expect.objectContaining({ parent_id: tab, url: lab.url("/frame"), active: false }),
    ]);
  });

  it("cookies lists a cookie the page set; localStorage and sessionStorage hold what the page stored", async () => {
    expect((await glass.browser.cookies()).result).toEqual([]);
    await glass.browser.evaluate({ expression: "document.cookie = 'flavour=oat; path=/'" });
    expect((await glass.browser.cookies()).result).toEqual([
      expect.objectContaining({ name: "flavour", value: "oat", domain: "127.0.0.1", path: "/" }),
    ]);
    expect(await glass.browser.localStorage()).toEqual({
      items: [{ key: "lab", value: "local" }],
      truncated: false,
      count: 1,
    });
    expect(await glass.browser.sessionStorage()).toEqual({
      items: [{ key: "lab", value: "session" }],
      truncated: false,
      count: 1,
    });
  });

  it("preflight finds a unique target for a CSS locator and reports one that does not resolve as data", async () => {
    const found = await glass.browser.preflight({ target: "css=#counter" });
    expect(found).toMatchObject({ action: "click", unique: true, element: { label: "css=#counter" }, target_id: tab });
    const missing = await glass.browser.preflight({ target: "css=#no-such-element", action: "hover" });
    expect(missing).toMatchObject({ action: "hover", unique: false, error_kind: "not_found" });
  });

  it("verify confirms a predicate that holds; wait returns once the awaited text is on the page", async () => {
    expect(await glass.browser.verify({ predicate: { titleContains: "Lab" } })).toMatchObject({
      status: "satisfied",
      predicate: { titleContains: "Lab" },
      state: `title=${LAB_TITLE}`,
    });
    expect(await glass.browser.wait({ condition: "text=The bottom", timeoutMs: 5000 })).toMatchObject({
      condition: "text",
      last_state: "present=true",
      target_id: tab,
    });
  });

  it("evaluate returns the expression's value", async () => {
    expect(await glass.browser.evaluate({ expression: "document.querySelectorAll('button').length" })).toEqual({
      result: 5,
    });
  });

  it("extractStructured reads a field of the current observation", async () => {
    const extraction = await glass.browser.extractStructured({
      fields: [{ name: "title", path: "$.page.title", kind: "string" }],
    });
    expect(extraction.records).toEqual([{ title: LAB_TITLE }]);
    expect(extraction.sourceRoute).toMatchObject({ targetId: tab, url: lab.url("/lab") });
  });

  it("resolveIntent and findTarget rank the lab's buttons for an intent", async () => {
    const request = {
      schemaVersion: 1 as const,
      intent: "Double me",
      action: "click" as const,
      resolutionPolicy: "reportOnly" as const,
    };
    const resolved = await glass.browser.resolveIntent(request);
    expect(resolved).toMatchObject({
      schemaVersion: 1,
      intent: "Double me",
      action: "click",
      policyDecision: "reportOnly",
    });
    expect(resolved.candidates?.map((candidate) => candidate.name)).toContain("Double me");
    const found = await glass.browser.findTarget(request);
    expect(JSON.stringify(found)).toContain('"name":"Double me"');
  });

  it("observeKnowledge observes the page at the summary level, assessing the (empty) store unless asked for fresh evidence only", async () => {
    const assessed = await glass.browser.observeKnowledge({});
    expect(assessed.observation).toMatchObject({ schemaVersion: 1, level: "summary", page: { title: LAB_TITLE } });
    expect(assessed).toMatchObject({ mode: "assessed" });
    expect(assessed.assessments ?? []).toEqual([]);
    const fresh = await glass.browser.observeKnowledge({ freshOnly: true, level: "interactive" });
    expect(fresh).toMatchObject({ mode: "freshOnly", observation: { level: "interactive" } });
  });

  it("sessionSnapshot creates, lists, inspects, compares and purges snapshots of the page", async () => {
    const created = await glass.browser.sessionSnapshot({ operation: "create" });
    expect(created.snapshotId).toMatch(/^snap-\d+-[0-9a-f]{12}$/);
    expect(created.observation.page.title).toBe(LAB_TITLE);
    const listed = await glass.browser.sessionSnapshot({ operation: "list" });
    expect(listed.result.map((snapshot) => snapshot.snapshotId)).toEqual([created.snapshotId]);
    const inspected = await glass.browser.sessionSnapshot({ operation: "inspect", from: created.snapshotId });
    expect(inspected.snapshotId).toBe(created.snapshotId);
    const diffed = await glass.browser.sessionSnapshot({
      operation: "diff",
      from: created.snapshotId,
      to: created.snapshotId,
    });
    expect(diffed).toMatchObject({
      fromSnapshot: created.snapshotId,
      toSnapshot: created.snapshotId,
      sameRoute: true,
      revisionDelta: 0,
      changedRegions: 0,
      changedTargets: 0,
    });
    expect(await glass.browser.sessionSnapshot({ operation: "purge" })).toMatchObject({ removed: 1 });
    expect((await glass.browser.sessionSnapshot({ operation: "list" })).result).toEqual([]);
  });

  it("task.execute inspects the sign-in form read-only, and stops in preflight at a revision that is not the current one", async () => {
    await glass.browser.navigate({ url: lab.url("/login") });
    const { revision } = await glass.browser.observe({ level: "summary" });
    const task = {
      schemaVersion: 1 as const,
      task: "form.inspect" as const,
      scope: { regionName: "Sign in" },
      limits: { maxActions: 4, timeoutMs: 5000, maxItems: 10 },
      risk: "readOnly" as const,
    };
    const run = await glass.task.execute({ task, expectedRevision: revision });
    expect(run).toMatchObject({
      task: "form.inspect",
      status: "succeeded",
      mutationPossible: false,
      sourceRevision: revision,
      currentRevision: revision,
    });
    expect(run.steps.map((step) => step.operation)).toEqual(["observeScope", "inspectForm"]);
    const stale = await glass.task.execute({ task, expectedRevision: revision + 1000 });
    expect(stale).toMatchObject({
      task: "form.inspect",
      status: "preflight-failed",
      phase: "preflight",
      mutationPossible: false,
    });
  });

  it("called every operation this file covers", () => {
    expect([...client.called]).toEqual(expect.arrayContaining([...CATALOG_FILES["catalog-read"]]));
  });
});
