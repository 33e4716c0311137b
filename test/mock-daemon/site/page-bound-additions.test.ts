/**
 * The simulated site answers extractWebIr, preflightNavigation and resolveIntentWithKnowledge as
 * the daemon does, through the real client: the typed methods, the client's own checks before
 * sending, the mock daemon's acceptance rules, then the site's handlers. The extracted Web IR goes
 * on to webIr.* and task.compile through `webIrDocument`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";
import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { BrowserWebIrExtractionRequest } from "../../../generated/types/operations/browser-observation.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import type { WebIrDocument } from "../../../generated/types/web-ir-v1.js";
import { createSimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { FRAME_ID } from "../../../src/mock-daemon/site/site-context.js";
import { DEFAULT_EXTRACTION_REQUEST } from "../../../src/mock-daemon/site/web-ir.js";
import { webIrDocument } from "../../../src/operations/web-ir-document.js";
import { failure } from "../../support/glass-failure.js";

let open: Glass[] = [];
afterEach(async () => {
  await Promise.all(open.map((glass) => glass.close()));
  open = [];
});

/** A client on a fresh mock daemon serving the simulated shop, started at `startPath`. */
async function shop(startPath = "/login"): Promise<Glass> {
  const glass = await Glass.connect(createMockGlass({ site: { startPath } }).transport());
  open.push(glass);
  return glass;
}

/** The default request with other budgets, sources or scope. */
function request(
  change: Partial<Omit<BrowserWebIrExtractionRequest, "budgets">> & {
    budgets?: Partial<BrowserWebIrExtractionRequest["budgets"]>;
  },
): BrowserWebIrExtractionRequest {
  return {
    ...DEFAULT_EXTRACTION_REQUEST,
    ...change,
    budgets: { ...DEFAULT_EXTRACTION_REQUEST.budgets, ...change.budgets },
  };
}

/** A Web IR document's size as compact JSON, in UTF-8 bytes. */
const bytesOf = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

describe("browser.extractWebIr on the simulated site", () => {
  it("answers the page's Web IR v1 document, projected: the document and a detailAvailability with an mcp_<epoch-ms>_<seq> result id", async () => {
    const glass = await shop("/orders");
    const first = await glass.browser.extractWebIr();
    const second = await glass.browser.extractWebIr({});
    expect(webIrDocument(first)).toEqual(createSimulatedSite({ startPath: "/orders" }).webIr());
    expect(first.detailAvailability).toEqual({
      resultId: expect.stringMatching(/^mcp_\d+_\d+$/),
      detailsAvailable: true,
      detailsTruncated: false,
    });
    const sequence = (id: string): number => Number(id.split("_")[2]);
    expect(sequence(second.detailAvailability.resultId)).toBe(sequence(first.detailAvailability.resultId) + 1);
    expect(first).not.toHaveProperty("diagnostics");
  });

  it("reads the whole document from every source within the default budgets when the request is the default one", async () => {
    const glass = await shop("/orders");
    expect(webIrDocument(await glass.browser.extractWebIr({ request: DEFAULT_EXTRACTION_REQUEST }))).toEqual(
      webIrDocument(await glass.browser.extractWebIr()),
    );
  });

  it("passes on through webIrDocument to webIr.inspect, webIr.validate, webIr.diff and task.compile", async () => {
    const glass = await shop("/orders");
    const extracted = await glass.browser.extractWebIr();
    const ir = webIrDocument(extracted);
    expect(ir).not.toHaveProperty("detailAvailability");
    expect(await glass.webIr.validate({ ir })).toEqual({ valid: true, schemaVersion: 1, revision: extracted.revision });
    expect(await glass.webIr.inspect({ ir })).toMatchObject({
      revision: extracted.revision,
      entityCount: extracted.entities.length,
      relationshipCount: extracted.relationships.length,
    });
    const task: TaskDocument = {
      schemaVersion: 1,
      task: "table.extract",
      scope: { regionName: "Recent orders" },
      limits: { maxActions: 4, timeoutMs: 10_000, maxItems: 20 },
      risk: "readOnly",
    };
    const { plan } = await glass.task.compile({ task, ir });
    expect(plan).toMatchObject({
      sourceIrRevision: extracted.revision,
      selectedEntityIds: ["entity_table_recent-orders"],
    });
    await glass.browser.navigate({ url: "https://shop.example/login" });
    const after = webIrDocument(await glass.browser.extractWebIr());
    expect(await glass.webIr.diff({ before: ir, after })).toMatchObject({
      fromRevision: extracted.revision,
      toRevision: after.revision,
    });
  });

  it("is refused by the SDK when passed on with its detailAvailability: a Web IR document is checked as a closed object", async () => {
    const glass = await shop();
    const extracted = await glass.browser.extractWebIr();
    const refused = await failure(glass.webIr.validate({ ir: extracted as unknown as WebIrDocument }));
    expect(refused.code).toBe("webIr.invalid");
    expect(refused.rawMessage).toMatch(/detailAvailability: is not allowed \(unknown field\)/);
  });

  it("leaves out the entities past maxNodes, in document order, and says so in limits and coverage", async () => {
    const glass = await shop("/orders");
    const whole = await glass.browser.extractWebIr();
    const cut = await glass.browser.extractWebIr({ request: request({ budgets: { maxNodes: 3 } }) });
    expect(cut.entities).toEqual(whole.entities.slice(0, 3));
    expect(cut.limits).toEqual({
      truncated: true,
      omittedFacts: whole.entities.length - 3,
      textBytes: whole.limits.textBytes,
      missingSources: [],
    });
    expect(cut.coverage).toMatchObject({ structural: "partial", semantic: "partial", reasons: ["budgetTruncated"] });
    const kept = new Set(cut.entities.map((entity) => entity.id));
    expect(cut.relationships.every((relationship) => kept.has(relationship.from) && kept.has(relationship.to))).toBe(
      true,
    );
    expect(Object.keys(cut.entityDetails ?? {}).sort()).toEqual([...kept].sort());
    expect(await glass.webIr.validate({ ir: webIrDocument(cut) })).toMatchObject({ valid: true });
  });

  it("reads the page and its regions alone at maxDepth 1", async () => {
    const glass = await shop("/orders");
    const shallow = await glass.browser.extractWebIr({ request: request({ budgets: { maxDepth: 1 } }) });
    expect(shallow.entities.map((entity) => entity.kind)).toEqual(["page", "region", "table"]);
    expect(shallow.limits).toMatchObject({ truncated: true, omittedFacts: 5 });
    expect(shallow.coverage.interactiveEntitiesObserved).toBe(0);
  });

  it("keeps at most maxTextBytes of page text, and at most maxOutputBytes of document", async () => {
    const glass = await shop("/orders");
    const whole = await glass.browser.extractWebIr();
    const text = await glass.browser.extractWebIr({ request: request({ budgets: { maxTextBytes: 10 } }) });
    expect(text.limits).toEqual({ truncated: true, omittedFacts: 0, textBytes: 10, missingSources: [] });
    expect(text.entities).toEqual(whole.entities);
    const small = await glass.browser.extractWebIr({ request: request({ budgets: { maxOutputBytes: 1500 } }) });
    const document = webIrDocument(small);
    expect(bytesOf(document)).toBeLessThanOrEqual(1500);
    expect(bytesOf(webIrDocument(whole))).toBeGreaterThan(1500);
    expect(small.entities).toEqual(whole.entities.slice(0, small.entities.length));
    expect(small.limits).toMatchObject({
      truncated: true,
      omittedFacts: whole.entities.length - small.entities.length,
    });
  });

  it("keeps only the evidence of the sources read, and leaves out an entity none of them saw", async () => {
    const glass = await shop("/orders");
    const accessibility = await glass.browser.extractWebIr({ request: request({ sources: ["accessibility"] }) });
    // The rows come from the DOM and the table alone.
    expect(accessibility.entities.map((entity) => entity.kind)).toEqual(["page", "region", "link", "link", "table"]);
    expect(new Set(accessibility.entities.flatMap((entity) => entity.evidenceSources))).toEqual(
      new Set(["accessibility"]),
    );
    expect(accessibility.coverage).toMatchObject({
      structural: "partial",
      semantic: "strong",
      interactiveEntitiesObserved: 2,
    });
    expect(accessibility.limits).toEqual({
      truncated: false,
      omittedFacts: 0,
      textBytes: expect.any(Number),
      missingSources: [],
    });
    const dom = await glass.browser.extractWebIr({ request: request({ sources: ["dom"] }) });
    expect(dom.coverage).toMatchObject({ structural: "confirmed", semantic: "opaque" });
    expect(await glass.webIr.validate({ ir: webIrDocument(accessibility) })).toMatchObject({ valid: true });
  });

  it("reads one region of the observation when scoped to it: the DOM and layout are then missing sources, and the details name the scope", async () => {
    const glass = await shop("/orders");
    const observed = await glass.browser.observe({ level: "summary" });
    expect(observed.regions.map((region) => region.id)).toContain("region_table_1");
    const table = await glass.browser.extractWebIr({
      request: request({ scope: { region: { region_id: "region_table_1" } } }),
    });
    expect(table.entities.map((entity) => entity.kind)).toEqual(["page", "table", "row", "row", "row"]);
    expect(table.limits.missingSources).toEqual(["dom", "layout"]);
    expect(table.coverage).toMatchObject({
      structural: "partial",
      semantic: "strong",
      reasons: ["missingSource:Dom", "missingSource:Layout"],
    });
    expect(table.entities.every((entity) => !entity.evidenceSources.includes("dom"))).toBe(true);
    expect(table.entityDetails?.["entity_table_recent-orders"]).toMatchObject({
      scope: "region",
      scopeId: "region_table_1",
    });
    // The main landmark holds the table, not the site navigation.
    const main = await glass.browser.extractWebIr({
      request: request({ scope: { region: { region_id: "region_main_1" } } }),
    });
    expect(main.entities.map((entity) => entity.id)).toEqual(table.entities.map((entity) => entity.id));
  });

  it("reads the whole page for the frame the page is in and for region_main; another frame or a region the page lacks fails as the daemon fails", async () => {
    const glass = await shop("/login");
    const whole = webIrDocument(await glass.browser.extractWebIr());
    const frame = await glass.browser.extractWebIr({ request: request({ scope: { frame: { frame_id: FRAME_ID } } }) });
    expect(frame.entities).toEqual(whole.entities);
    expect(frame.entityDetails?.["entity_field_email"]).toMatchObject({ scope: "frame", scopeId: FRAME_ID });
    const main = await glass.browser.extractWebIr({
      request: request({ scope: { region: { region_id: "region_main" } } }),
    });
    expect(main.entities).toEqual(whole.entities);
    expect(main.limits.missingSources).toEqual([]);
    for (const scope of [{ frame: { frame_id: "another-frame" } }, { region: { region_id: "region_table_1" } }]) {
      const refused = await failure(glass.browser.extractWebIr({ request: request({ scope }) }));
      expect(refused).toMatchObject({
        code: "tool.failed",
        details: { kind: "opaqueToolFailure", tool: "extractWebIr", text: "browser tool failed" },
      });
    }
  });

  it("is refused by the SDK before sending when the request breaks its bounds, or when the payload carries responseMode", async () => {
    const glass = await shop();
    const bad: PayloadOf<"browser.extractWebIr">[] = [
      { request: request({ budgets: { maxNodes: 0 } }) },
      { request: request({ budgets: { maxNodes: 8193 } }) },
      { request: request({ budgets: { maxOutputBytes: 262_145 } }) },
      { request: request({ sources: [] }) },
      { request: request({ sources: ["dom", "dom"] }) },
      { request: request({ scope: { region: { region_id: "" } } }) },
      { request: { ...request({}), schemaVersion: 2 as 1 } },
      { responseMode: "minimal" } as PayloadOf<"browser.extractWebIr">,
    ];
    for (const payload of bad)
      expect((await failure(glass.browser.extractWebIr(payload))).code, JSON.stringify(payload)).toBe(
        "payload.invalid",
      );
  });

  it("takes the response mode as a call option (the simulated document has no diagnostics in any mode)", async () => {
    const glass = await shop();
    const diagnostic = await glass.browser.extractWebIr({}, { responseMode: "diagnostic" });
    expect(webIrDocument(diagnostic)).toEqual(webIrDocument(await glass.browser.extractWebIr()));
  });
});

/**
 * URLs and the decision glass-browser 0.3.14 answers for each (its default `development` policy
 * allows every URL that parses). test/daemon/catalog-page-additions.test.ts asks the daemon itself.
 */
const DECISIONS: ReadonlyArray<[url: string, normalizedUrl: string | null, host: string | null, reason?: string]> = [
  ["https://example.com/a?b=c#d", "https://example.com/a", "example.com"],
  ["http://example.com", "http://example.com/", "example.com"],
  ["example.com/path", "https://example.com/path", "example.com"],
  ["  example.com/path\u00a0", "https://example.com/path", "example.com"],
  ["https://user:secret@example.com:8443/p?x#y", "https://example.com:8443/p", "example.com"],
  ["localhost:3000", "https://localhost:3000/", "localhost"],
  ["http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x", "127.0.0.1"],
  ["http://10.0.0.1/", "http://10.0.0.1/", "10.0.0.1"],
  ["http://0x7f.1/", "http://127.0.0.1/", "127.0.0.1"],
  ["http://[::1]:8080/p", "http://[::1]:8080/p", "[::1]"],
  ["https://bücher.example/", "https://xn--bcher-kva.example/", "xn--bcher-kva.example"],
  ["http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/", "xn--r8jz45g.xn--zckzah"],
  ["http://example.com./", "http://example.com./", "example.com"],
  ["file:///etc/passwd", "file:///etc/passwd", null],
  ["file://host/share", "file://host/share", "host"],
  ["data:text/html,hi#frag", "data:text/html,hi", null],
  ["about:blank", "about:blank", null],
  ["HTTPS://EXAMPLE.COM/", "https://https//EXAMPLE.COM/", "https"],
  ["mailto:a@b.c", "https://b.c/", "b.c"],
  ["ftp://example.com/", "https://ftp//example.com/", "ftp"],
  ["javascript:alert(1)", null, null, "invalid port number"],
  ["ABOUT:blank", null, null, "invalid port number"],
  ["http://a:99999", null, null, "invalid port number"],
  ["http://[", null, null, "invalid IPv6 address"],
  ["http://256.1.1.1/", null, null, "invalid IPv4 address"],
  ["http://example.123/", null, null, "invalid IPv4 address"],
  ["http://user@/", null, null, "empty host"],
  ["garbage with spaces", null, null, "invalid international domain name"],
  ["http://xn--a.com/", null, null, "invalid international domain name"],
  ["about://\\", null, null, "invalid domain character"],
];

/** The decision a row of {@link DECISIONS} stands for. */
function decision([
  ,
  normalizedUrl,
  host,
  failure,
]: (typeof DECISIONS)[number]): ResultOf<"browser.preflightNavigation"> {
  return failure === undefined
    ? {
        schemaVersion: 1,
        normalizedUrl,
        host,
        decision: "allow",
        reason: "URL passes the active navigation policy",
        confirmationRequired: false,
      }
    : {
        schemaVersion: 1,
        normalizedUrl: null,
        host: null,
        decision: "deny",
        reason: `URL is invalid: ${failure}`,
        confirmationRequired: false,
      };
}

describe("browser.preflightNavigation on the mock daemon", () => {
  it.each(DECISIONS)("decides %j as the daemon does", async (...row) => {
    const glass = await shop();
    expect(await glass.browser.preflightNavigation({ url: row[0] })).toEqual(decision(row));
  });

  it("loads nothing: the page and its revision stay as they were", async () => {
    const glass = await shop();
    const before = await glass.browser.observe({ level: "summary" });
    await glass.browser.preflightNavigation({ url: "https://shop.example/orders" });
    const after = await glass.browser.observe({ level: "summary" });
    expect([after.page.url, after.revision]).toEqual([before.page.url, before.revision]);
  });

  it("is refused by the SDK before sending for a blank URL or one over 8192 UTF-8 bytes, which the daemon fails", async () => {
    const glass = await shop();
    const longest = `https://a.com/${"é".repeat(4089)}`;
    expect(new TextEncoder().encode(longest).length).toBe(8192);
    expect((await glass.browser.preflightNavigation({ url: longest })).decision).toBe("allow");
    for (const url of ["", " \t ", `${longest}a`])
      expect((await failure(glass.browser.preflightNavigation({ url }))).code).toBe("payload.invalid");
  });

  it("fails, sent anyway, with any argument besides the URL, as the daemon does", async () => {
    const glass = await shop();
    for (const extra of [{ responseMode: "minimal" }, { includeTrace: true }, { leaseToken: "t" }]) {
      const response = await glass.send(
        {
          protocolVersion: 1,
          requestId: `extra-${Object.keys(extra)[0]}`,
          operation: "browser.preflightNavigation",
          payload: { url: "example.com", ...extra },
        },
        { validate: false },
      );
      expect(response).toMatchObject({
        ok: false,
        error: { code: "tool.failed", details: { tool: "preflightNavigation", text: "browser tool failed" } },
      });
    }
  });
});

describe("browser.resolveIntentWithKnowledge on the simulated site", () => {
  const intent = {
    schemaVersion: 1,
    intent: "Sign in",
    action: "click",
    resolutionPolicy: "requireUniqueHighConfidence",
  } as const;

  it("answers resolveIntent's resolution: the site has no stored knowledge, whatever the lookup options", async () => {
    const glass = await shop();
    const plain = await glass.browser.resolveIntent(intent);
    expect(await glass.browser.resolveIntentWithKnowledge(intent)).toEqual(plain);
    const scoped = await glass.browser.resolveIntentWithKnowledge({
      ...intent,
      profileScope: "anonymous",
      profileKey: "shopper",
      locale: "en-GB",
      tenantKey: "shop",
      browserFamily: "chromium",
      browserVersion: "140",
    });
    expect(scoped).toEqual(plain);
    expect(JSON.stringify(scoped)).not.toContain("historicalMatch");
  });

  it("is refused by the SDK before sending for a blank lookup option or a profile scope the daemon does not know", async () => {
    const glass = await shop();
    for (const payload of [
      { ...intent, locale: " " },
      { ...intent, profileScope: "everyone" },
      { ...intent, responseMode: "minimal" },
    ]) {
      expect(
        (
          await failure(
            glass.browser.resolveIntentWithKnowledge(payload as PayloadOf<"browser.resolveIntentWithKnowledge">),
          )
        ).code,
      ).toBe("payload.invalid");
    }
  });

  it("fails, sent anyway, with an argument that is neither the intent request's nor a lookup option, as the daemon does", async () => {
    const glass = await shop();
    const ok = await glass.send(
      {
        protocolVersion: 1,
        requestId: "lookup",
        operation: "browser.resolveIntentWithKnowledge",
        payload: { ...intent, tenantKey: "shop" },
      },
      { validate: false },
    );
    expect(ok.ok).toBe(true);
    for (const extra of [{ responseMode: "minimal" }, { workspaceId: "w" }, { leaseToken: "t" }]) {
      const response = await glass.send(
        {
          protocolVersion: 1,
          requestId: `extra-${Object.keys(extra)[0]}`,
          operation: "browser.resolveIntentWithKnowledge",
          payload: { ...intent, ...extra },
        },
        { validate: false },
      );
      expect(response).toMatchObject({
        ok: false,
        error: { code: "tool.failed", details: { tool: "resolveIntentWithKnowledge", text: "browser tool failed" } },
      });
    }
  });

  it("is listed by the mock daemon, with extractWebIr and preflightNavigation, so the client sends them", async () => {
    const glass = await shop();
    for (const operation of [
      "browser.extractWebIr",
      "browser.preflightNavigation",
      "browser.resolveIntentWithKnowledge",
    ])
      expect(glass.supports(operation)).toBe(true);
  });
});
