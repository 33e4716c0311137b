/**
 * The typed catalog against the real daemon, part 3: the operations that change the page or the
 * browser. They run on the socket daemon (`glass-browser daemon serve`), holding its mutation lease,
 * which the client sends with every mutating call; each result is checked by the SDK's result schema
 * and each effect by reading the page back. The operations the daemon cannot carry out here are
 * called too, and must answer exactly as NOT_RUNNABLE records.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";
import { CATALOG_FILES, failure, NOT_RUNNABLE, type RecordedClient, recordCalls } from "./support/catalog-coverage.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { requireInstalledDaemon, type SocketDaemon, startSocketDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

/**
 * The file upload sends. The daemon uploads only files under its working directory (the test's),
 * which holds this repository.
 */
const ATTACHMENT = fileURLToPath(new URL("./pages/attachment.txt", import.meta.url));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("the page- and browser-changing operations of the catalog on the real socket daemon, under its lease", () => {
  let lab: LabServer;
  let daemon: SocketDaemon;
  let client: RecordedClient;
  let glass: Glass;
  /** The lab page's tab. */
  let tab: string;
  /** Where download saves files: a directory inside the daemon's working directory, as it requires. */
  let downloads: string;

  /** The value of a page expression. */
  const read = async (expression: string): Promise<unknown> => (await glass.browser.evaluate({ expression })).result;
  /** Loads a lab page afresh. */
  const open = async (path: string): Promise<void> => {
    await glass.browser.navigate({ url: lab.url(path) });
  };

  beforeAll(async () => {
    lab = await serveLab();
    daemon = await startSocketDaemon();
    client = recordCalls(await Glass.connect(socketTransport({ path: daemon.path })));
    glass = client.glass;
    await glass.acquireLease({ ttlMs: 600_000 });
    const loaded = await glass.browser.navigate({ url: lab.url("/lab") });
    tab = loaded.target_id ?? "";
    mkdirSync(join(process.cwd(), "test-results"), { recursive: true });
    downloads = mkdtempSync(join(process.cwd(), "test-results", "catalog-downloads-"));
  });
  afterAll(async () => {
    if (process.env.GLASS_DAEMON_STDERR === "1") console.log(daemon?.stderr());
    await glass?.close();
    await daemon?.stop();
    await lab?.close();
    if (downloads !== undefined) rmSync(downloads, { recursive: true, force: true });
  });

  it("a mutating call carries the lease: click counts a click on the lab's button", async () => {
    expect(glass.lease?.token).toMatch(/^lease-\d+$/);
    await open("/lab");
    const clicked = await glass.browser.click({ target: "css=#counter" });
    expect(clicked).toMatchObject({
      status: "succeeded",
      action: "click",
      executionId: expect.stringMatching(/^act_\d+$/),
      target_id: tab,
    });
    expect(clicked.currentRevision).toBeGreaterThan(clicked.previousRevision ?? Number.POSITIVE_INFINITY);
    expect(await read("document.getElementById('count').textContent")).toBe("1");
  });

  it("doubleClick, hover and drag fire the page's dblclick, mouseover and drop handlers", async () => {
    expect(await glass.browser.doubleClick({ target: "css=#doubler" })).toMatchObject({
      status: "succeeded",
      action: "double_click",
    });
    expect(await read("document.getElementById('doubles').textContent")).toBe("1");
    expect(await glass.browser.hover({ target: "css=#hover-target" })).toMatchObject({
      status: "succeeded",
      action: "hover",
    });
    expect(await read("document.getElementById('hovered').textContent")).toBe("yes");
    expect(await glass.browser.drag({ source: "css=#drag-source", destination: "css=#drop-zone" })).toMatchObject({
      status: "succeeded",
      action: "drag",
    });
    expect(await read("document.getElementById('dropped').textContent")).toBe("dropped");
  });

  it("type fills the name field and clear empties it", async () => {
    expect(await glass.browser.type({ target: "css=#name", text: "Ada Lovelace" })).toMatchObject({
      status: "succeeded",
      action: "type",
    });
    expect(await read("document.getElementById('name').value")).toBe("Ada Lovelace");
    expect(await glass.browser.clear({ target: "css=#name" })).toMatchObject({ status: "succeeded", action: "clear" });
    expect(await read("document.getElementById('name').value")).toBe("");
  });

  it("check and uncheck set the checkbox; select picks an option", async () => {
    expect(await glass.browser.check({ target: "css=#subscribe" })).toMatchObject({
      status: "succeeded",
      action: "check",
    });
    expect(await read("document.getElementById('subscribe').checked")).toBe(true);
    expect(await glass.browser.uncheck({ target: "css=#subscribe" })).toMatchObject({
      status: "succeeded",
      action: "uncheck",
    });
    expect(await read("document.getElementById('subscribe').checked")).toBe(false);
    expect(await glass.browser.select({ target: "css=#size", value: "l" })).toMatchObject({
      status: "succeeded",
      action: "select",
    });
    expect(await read("document.getElementById('size').value")).toBe("l");
  });

  it("upload attaches a file under the daemon's working directory to the file input", async () => {
    const uploaded = await glass.browser.upload({ target: "css=#attachment", files: [ATTACHMENT] });
    expect(uploaded).toMatchObject({ status: "succeeded", action: "upload", evidence: { file_count: 1 } });
    expect(await read("Array.from(document.getElementById('attachment').files, (file) => file.name).join()")).toBe(
      "attachment.txt",
    );
  });

  it("fillForm fills a field named by an observed reference", async () => {
    const page = await glass.browser.observe({ level: "interactive" });
    const name = page.regions.flatMap((region) => region.targets ?? []).find((target) => target.name === "Name");
    expect(name).toBeDefined();
    const filled = await glass.browser.fillForm({
      fields: [{ target: name?.reference ?? "", value: "Grace Hopper" }],
      expectedRevision: page.revision,
    });
    expect(filled).toMatchObject({ status: "succeeded", filled: 1, total: 1, previousRevision: page.revision });
    expect(await read("document.getElementById('name').value")).toBe("Grace Hopper");
  });

  it("key, keyDown, keyUp and shortcut send key events to the focused field", async () => {
    await glass.browser.click({ target: "css=#name" });
    await glass.browser.evaluate({
      expression:
        "window.pressed = []; document.addEventListener('keydown', (event) => window.pressed.push((event.ctrlKey ? 'Control+' : '') + event.key)); 'listening'",
    });
    expect(await glass.browser.key({ key: "x" })).toMatchObject({ status: "succeeded", action: "key_press" });
    expect(await glass.browser.keyDown({ key: "Shift" })).toMatchObject({ status: "succeeded", action: "key_down" });
    expect(await glass.browser.keyUp({ key: "Shift" })).toMatchObject({ status: "succeeded", action: "key_up" });
    expect(await glass.browser.shortcut({ shortcut: "Control+a" })).toMatchObject({
      status: "succeeded",
      action: "shortcut",
    });
    expect(await read("window.pressed")).toEqual(["x", "Shift", "Control+a"]);
    expect(await read("document.getElementById('name').value")).toBe("Grace Hopperx");
    expect(
      await read(
        "(() => { const field = document.getElementById('name'); return [field.selectionStart, field.selectionEnd]; })()",
      ),
    ).toEqual([0, 13]);
  });

  it("scroll moves the page down and clickAt clicks what is under a point", async () => {
    await open("/lab");
    expect(await glass.browser.scroll({ dy: 400 })).toMatchObject({ status: "succeeded", action: "scroll" });
    expect(await read("window.scrollY")).toBe(400);
    await open("/lab");
    const box = (await read(
      "(() => { const r = document.getElementById('counter').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
    )) as number[];
    const [x = 0, y = 0] = box;
    const clicked = await glass.browser.clickAt({ x, y });
    expect(clicked).toMatchObject({ x, y, hit: { tag: "button", name: "Count" } });
    expect(await read("document.getElementById('count').textContent")).toBe("1");
  });

  it("batch runs its steps in order and reports each", async () => {
    const batch = await glass.browser.batch({
      steps: [
        { action: "click", target: "css=#counter" },
        { action: "type", target: "css=#name", text: "batched" },
      ],
      atomic: false,
    });
    expect(batch).toMatchObject({ mode: "unguarded", completed: 2, failed: 0, total: 2, success: true });
    expect(batch.steps).toEqual([
      expect.objectContaining({ status: "success", index: 0, action: "click" }),
      expect.objectContaining({ status: "success", index: 1, action: "type" }),
    ]);
    expect(await read("document.getElementById('count').textContent")).toBe("2");
    expect(await read("document.getElementById('name').value")).toBe("batched");
  });

  it("executeIntent clicks the one candidate resolveIntent allowed; actAndVerify does it again and checks a predicate", async () => {
    await open("/lab");
    const request = {
      schemaVersion: 1 as const,
      intent: "Count",
      action: "click" as const,
      constraints: { name: "Count", role: "button" },
      resolutionPolicy: "requireUniqueHighConfidence" as const,
    };
    const resolved = await glass.browser.resolveIntent(request);
    expect(resolved).toMatchObject({ resolution: "exact", policyDecision: "allowed" });
    const executed = await glass.browser.executeIntent({ ...request, candidateId: resolved.selectedCandidate ?? "" });
    expect(executed).toMatchObject({ status: "executed", candidateId: resolved.selectedCandidate });
    expect(await read("document.getElementById('count').textContent")).toBe("1");
    const again = await glass.browser.resolveIntent(request);
    const acted = await glass.browser.actAndVerify({
      request,
      candidateId: again.selectedCandidate ?? "",
      predicate: { titleContains: "Lab" },
      timeoutMs: 5000,
    });
    expect(acted).toMatchObject({
      execution: { status: "executed", candidateId: again.selectedCandidate },
      verification: { status: "satisfied" },
    });
    expect(await read("document.getElementById('count').textContent")).toBe("2");
  });

  it("reconcileReferences maps references of an earlier revision onto the current page", async () => {
    const before = await glass.browser.observe({ level: "interactive" });
    const refs = before.regions
      .flatMap((region) => region.targets ?? [])
      .slice(0, 3)
      .map((target) => target.reference);
    await glass.browser.click({ target: "css=#counter" });
    const reconciled = await glass.browser.reconcileReferences({
      fromRevision: before.revision,
      refs,
      hints: ["Count"],
    });
    expect(reconciled.mappings).toHaveLength(refs.length);
    expect((reconciled.preserved ?? 0) + (reconciled.relocated ?? 0) + (reconciled.lost ?? 0)).toBe(refs.length);
    expect(reconciled.toRevision).toBeGreaterThan(before.revision);
  });

  it("exportCheckpoint describes the session and importCheckpoint restores from it", async () => {
    const checkpoint = await glass.browser.exportCheckpoint();
    expect(checkpoint).toMatchObject({
      schemaVersion: 1,
      glassVersion: "0.3.14",
      profile: "default",
      topology: { targetId: tab, url: lab.url("/lab") },
    });
    expect(await glass.browser.importCheckpoint({ checkpoint })).toEqual({ status: "checkpoint_imported" });
  });

  it("acceptDialog accepts an open alert (and fails when none is open); dismissDialog answers a confirm with false", async () => {
    await glass.browser.evaluate({ expression: "setTimeout(() => alert('Saved'), 50); 'scheduled'" });
    await sleep(300);
    expect(await glass.browser.acceptDialog()).toEqual({ dialog: "accepted" });
    const none = await failure(glass.browser.acceptDialog());
    expect(none).toMatchObject({
      code: "browser.transport",
      rawMessage: "No dialog is showing",
      details: { kind: "transport", code: -32602, message: "No dialog is showing" },
    });
    await glass.browser.evaluate({
      expression:
        "setTimeout(() => { document.getElementById('confirmed').textContent = String(confirm('Really?')); }, 50); 'scheduled'",
    });
    await sleep(300);
    expect(await glass.browser.dismissDialog()).toEqual({ dialog: "dismissed" });
    expect(await read("document.getElementById('confirmed').textContent")).toBe("false");
  });

  it("download saves the file a click starts into the given directory", async () => {
    await glass.browser.evaluate({
      expression: "setTimeout(() => document.getElementById('download').click(), 500); 'scheduled'",
    });
    const download = await glass.browser.download({ destination: downloads, timeoutMs: 10_000 });
    expect(download).toMatchObject({
      suggested_filename: "report.txt",
      state: "completed",
      received_bytes: 7,
      target_id: tab,
    });
    const saved = readdirSync(downloads);
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(downloads, saved[0] ?? ""), "utf8")).toBe("report\n");
  });

  it("clipboardWrite and clipboardRead answer, but headless Chromium keeps the clipboard from the page: the text does not come back", async () => {
    await glass.browser.click({ target: "css=#name" });
    expect(await glass.browser.clipboardWrite({ text: "copied by the daemon" })).toEqual({ ok: true });
    expect(await glass.browser.clipboardRead()).toEqual({ text: "" });
  });

  it("createTarget opens a tab, selectTarget switches to it and back, closeTarget closes it", async () => {
    const created = await glass.browser.createTarget({ url: lab.url("/orders") });
    expect(created).toMatchObject({ url: lab.url("/orders"), active: false });
    const id = created.id ?? "";
    expect((await glass.browser.listTargets()).result.map((target) => target.id).sort()).toEqual([tab, id].sort());
    expect(await glass.browser.selectTarget({ id })).toMatchObject({ id, active: true });
    expect((await glass.browser.getText()).text).toContain("Orders");
    expect(await glass.browser.selectTarget({ id: tab })).toMatchObject({ id: tab, active: true });
    expect(await glass.browser.closeTarget({ id })).toEqual({ closed: id });
    // Chromium drops the closed tab from its list a moment after the daemon answers.
    await expect
      .poll(async () => (await glass.browser.listTargets()).result.map((target) => target.id), {
        timeout: 5000,
        interval: 100,
      })
      .toEqual([tab]);
  });

  it("clickExpectPopup clicks a link that opens a tab and names the new tab", async () => {
    await open("/lab");
    const popup = await glass.browser.clickExpectPopup({ target: "css=#popup" });
    expect(popup).toMatchObject({ causally_verified_popup: true, opener_id: tab });
    const targets = (await glass.browser.listTargets()).result;
    expect(targets).toContainEqual(expect.objectContaining({ id: popup.popup_id, opener_id: tab }));
    await glass.browser.closeTarget({ id: popup.popup_id ?? "" });
  });

  it("selectFrame makes the iframe the page the session reads", async () => {
    await open("/lab");
    const child = (await glass.browser.listFrames()).result.find((frame) => frame.parent_id === tab);
    expect(child).toBeDefined();
    expect(await glass.browser.selectFrame({ id: child?.id ?? "" })).toMatchObject({
      id: child?.id,
      parent_id: tab,
      active: true,
    });
    expect((await glass.browser.getText()).text).toBe("Inside the frame\n\nFrame button");
    expect(await glass.browser.selectFrame({ id: tab })).toMatchObject({ id: tab, active: true });
    expect((await glass.browser.getText()).text).toContain("The bottom");
  });

  it("setCookies sets a cookie the page then sees; clearCookies removes it", async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const cookie = {
      name: "flavour",
      value: "oat",
      domain: "127.0.0.1",
      path: "/",
      expires,
      sameSite: "Lax" as const,
      priority: "Medium" as const,
    };
    expect(await glass.browser.setCookies({ cookies: [cookie] })).toEqual({ ok: true });
    expect((await glass.browser.cookies()).result).toEqual([
      expect.objectContaining({ name: "flavour", value: "oat", domain: "127.0.0.1", path: "/", expires }),
    ]);
    expect(await read("document.cookie")).toBe("flavour=oat");
    expect(await glass.browser.clearCookies()).toEqual({ ok: true });
    expect((await glass.browser.cookies()).result).toEqual([]);
  });

  it("setNetworkConditions takes the page offline until clearNetworkConditions", async () => {
    const fetchFrame = "fetch('/frame', { cache: 'no-store' }).then(() => 'fetched', () => 'failed')";
    expect(
      await glass.browser.setNetworkConditions({
        offline: true,
        latencyMs: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      }),
    ).toEqual({ ok: true });
    expect(await read("navigator.onLine")).toBe(false);
    expect(await read(fetchFrame)).toBe("failed");
    expect(await glass.browser.clearNetworkConditions()).toEqual({ ok: true });
    expect(await read(fetchFrame)).toBe("fetched");
  });

  it("setUserAgent changes what the page reports until clearUserAgent; setTimezone changes its time zone", async () => {
    const identity = "navigator.userAgent + '|' + navigator.platform + '|' + navigator.language";
    expect(
      await glass.browser.setUserAgent({ userAgent: "GlassCatalog/1.0", acceptLanguage: "fr-FR", platform: "GlassOS" }),
    ).toEqual({ ok: true });
    expect(await read(identity)).toBe("GlassCatalog/1.0|GlassOS|fr-FR");
    expect(await glass.browser.clearUserAgent()).toEqual({ ok: true });
    expect(await read("navigator.userAgent")).toContain("HeadlessChrome");
    expect(await glass.browser.setTimezone({ timezoneId: "Asia/Tokyo" })).toEqual({ ok: true });
    expect(await read("Intl.DateTimeFormat().resolvedOptions().timeZone")).toBe("Asia/Tokyo");
  });

  it("setCpuThrottling, clearCpuThrottling, setGeolocation and clearGeolocation are applied (the page's geolocation stays denied without a permission)", async () => {
    expect(await glass.browser.setCpuThrottling({ rate: 4 })).toEqual({ ok: true });
    expect(await glass.browser.clearCpuThrottling()).toEqual({ ok: true });
    expect(await glass.browser.setGeolocation({ latitude: 48.8566, longitude: 2.3522 })).toEqual({ ok: true });
    const position =
      "new Promise((resolve) => navigator.geolocation.getCurrentPosition((p) => resolve(p.coords.latitude), (e) => resolve('error: ' + e.message)))";
    expect(await read(position)).toBe("error: User denied Geolocation");
    expect(await glass.browser.clearGeolocation()).toEqual({ ok: true });
  });

  it("printToPdf renders the page as a PDF", async () => {
    const printed = await glass.browser.printToPdf({});
    expect(Buffer.from(String(printed.result), "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("workflow runs a one-step definition and proves its terminal condition", async () => {
    const run = await glass.browser.workflow({
      workflow: {
        schemaVersion: 1,
        name: "open-orders",
        workflowVersion: "1.0.0",
        inputs: {},
        budgets: { maxSteps: 1, maxDurationMs: 30_000, maxRetries: 0, maxExtractedBytes: 4096 },
        steps: [
          {
            id: "open",
            action: "navigate",
            url: lab.url("/orders"),
            timeoutMs: 20_000,
            expect: { titleContains: "Orders" },
          },
        ],
        terminalCondition: { titleContains: "Orders" },
        outputs: {},
      },
      inputs: {},
    });
    expect(run).toMatchObject({
      name: "open-orders",
      workflowVersion: "1.0.0",
      status: "completed",
      steps: [expect.objectContaining({ id: "open", state: "committed" })],
    });
    expect((await glass.browser.getText()).text).toContain("Orders");
  });

  for (const entry of NOT_RUNNABLE) {
    it(`${entry.operation} cannot run on glass-browser 0.3.14 and answers exactly as recorded`, async () => {
      await open(entry.page);
      const refused = await failure(entry.call(glass));
      expect({ code: refused.code, details: refused.details }).toEqual(entry.answer);
    });
  }

  it("dismissConsent leaves the OneTrust banner in place (its page script never runs)", async () => {
    await open("/consent");
    await failure(glass.browser.dismissConsent());
    expect(await read("document.getElementById('onetrust-banner-sdk') !== null")).toBe(true);
  });

  it("called every operation this file covers", () => {
    expect([...client.called]).toEqual(expect.arrayContaining([...CATALOG_FILES["catalog-actions"]]));
  });
});
