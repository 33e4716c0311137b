import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { validatePayload } from "glass-sdk";
import type { BrowserPageContext } from "../../../generated/types/operations/browser-observation.js";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import type { WebIrDocument } from "../../../generated/types/web-ir-v1.js";
import { createSimulatedSite, type SimulatedSite } from "../../../src/mock-daemon/site/index.js";
import { webIrDocument } from "../../../src/operations/web-ir-document.js";
import { call, failure, intent } from "./site-support.js";

/** The site in each of its page states. */
const states: Record<string, () => Promise<SimulatedSite>> = {
  "the sign-in page": async () => createSimulatedSite(),
  "the sign-in page filled in": async () => {
    const site = createSimulatedSite();
    await call(site, "browser.fillForm", { fields: [{ target: "name=Email", value: "ada@example.com" }] });
    await call(site, "browser.fillForm", { fields: [{ target: "name=Password", value: "correct horse" }] });
    return site;
  },
  "the sign-in page with its alert": async () => {
    const site = createSimulatedSite();
    await call(site, "browser.click", { target: "css=button[type=submit]" });
    return site;
  },
  "the orders page": async () => createSimulatedSite({ startPath: "/orders" }),
  "the not-found page": async () => {
    const site = createSimulatedSite();
    await call(site, "browser.navigate", { url: "https://shop.example/nowhere" });
    return site;
  },
};

/** The page's Web IR, extracted through the site's typed handler and passed on as a document. */
async function extract(site: SimulatedSite): Promise<WebIrDocument> {
  return webIrDocument(await call(site, "browser.extractWebIr", {}));
}

describe.each(Object.entries(states))("every read handler's result validates on %s", (_name, make) => {
  it("observe at every level, and without one (with the DOM, a screenshot and form values)", async () => {
    const site = await make();
    for (const level of ["summary", "interactive", "structured", "detailed", "raw"] as const) {
      const observation = (await call(site, "browser.observe", { level })) as BrowserSemanticObservation;
      expect(observation.level).toBe(level);
      expect(observation.revision).toBe(site.state().revision);
      const targets = observation.regions.flatMap((region) => region.targets ?? []);
      expect(targets.length > 0).toBe(level !== "summary");
      expect(observation.text !== undefined).toBe(["structured", "detailed", "raw"].includes(level));
      const region = observation.regions.at(-1)?.id ?? "region_main";
      const scoped = (await call(site, "browser.observe", { level, region })) as BrowserSemanticObservation;
      expect(scoped.regions.map((r) => r.id)).toEqual([region]);
    }
    const context = (await call(site, "browser.observe", {
      includeDom: true,
      includeScreenshot: true,
    })) as BrowserPageContext;
    expect(context.level).toBeUndefined();
    expect(context.image?.mimeType).toBe("image/png");
    expect(context.accessibility.revision).toBe(site.state().revision);
    const values = (await call(site, "browser.observe", { includeFormValues: true })) as BrowserPageContext;
    for (const page of [context, values, await extract(site)])
      expect(JSON.stringify(page)).not.toContain("correct horse");
  });

  it("inspectPage, getText, getDOM and screenshot", async () => {
    const site = await make();
    const inspected = await call(site, "browser.inspectPage", {});
    expect(inspected.revision).toBe(site.state().revision);
    const { text } = await call(site, "browser.getText", {});
    expect(text).toBe((await call(site, "browser.observe", { level: "structured" })).text);
    const dom = await call(site, "browser.getDOM", {});
    expect(dom.node_name).toBe("#document");
    await call(site, "browser.screenshot", {});
  });

  it("findTarget and resolveIntent, found or not", async () => {
    const site = await make();
    for (const [text, action] of [
      ["Email", "type"],
      ["Sign in", "click"],
      ["Orders", "click"],
      ["close", "click"],
      ["no such thing", "click"],
    ]) {
      await call(site, "browser.findTarget", intent(text ?? "", action ?? "click"));
      await call(site, "browser.resolveIntent", intent(text ?? "", action ?? "click"));
    }
    expect((await call(site, "browser.resolveIntent", intent("do it", "click"))).resolution).toBe("unsupportedIntent");
    expect((await call(site, "browser.findTarget", intent("Email", "type", 999))).ambiguity).toBe("stale_revision");
  });

  it("extractWebIr gives a document webIr.validate accepts, and the webIr operations answer on it", async () => {
    const site = await make();
    const before = await extract(site);
    const checked = validatePayload("webIr.validate", { ir: before });
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    expect(before.revision).toBe(site.state().revision);
    await call(site, "webIr.validate", { ir: before });
    const inspected = await call(site, "webIr.inspect", { ir: before });
    expect(inspected.entityCount).toBe(before.entities.length);
    // Every entity of the site's IR has details listing its actions: all are actionable.
    expect(inspected.actionableEntities?.map((entity) => entity.id)).toEqual(
      before.entities.map((entity) => entity.id).slice(0, 16),
    );
    await call(site, "browser.navigate", { url: "https://shop.example/login" });
    const after = await extract(site);
    await call(site, "webIr.diff", { before, after });
    for (const entity of before.entities) await call(site, "webIr.continuity", { before, after, entityId: entity.id });
  });
});

describe("webIr.inspect, as the daemon answers it", () => {
  it("lists the first 16 entities whose details list an action (sensitivity `unknown` when not given), and sends coverage back without empty reasons", async () => {
    const site = createSimulatedSite({ startPath: "/nowhere" });
    const ir = structuredClone(site.webIr());
    ir.coverage = {
      reasons: [],
      opaqueRegions: 0,
      semantic: "partial",
      structural: "strong",
      interactiveEntitiesObserved: 1,
    };
    for (let i = 0; i < 20; i += 1) {
      ir.entities.push({ id: `b${i}`, kind: "action", name: `B ${i}`, quality: "strong", evidenceSources: ["dom"] });
      ir.relationships.push({ from: "page", to: `b${i}`, kind: "contains" });
      ir.entityDetails![`b${i}`] = {
        supportedActions: ["click"],
        ...(i === 0 ? { sensitivity: "public" as const } : {}),
      };
    }
    const inspected = await call(site, "webIr.inspect", { ir });
    expect(JSON.stringify(inspected.coverage)).toBe(
      '{"structural":"strong","semantic":"partial","interactiveEntitiesObserved":1,"opaqueRegions":0}',
    );
    expect(inspected.entityKindCounts).toEqual({ action: 20, page: 1 });
    expect(Object.keys(inspected.entityKindCounts ?? {})).toEqual(["action", "page"]);
    expect(inspected.actionableEntities).toHaveLength(16);
    // The shop server's not-found page is untitled.
    expect(inspected.actionableEntities?.[0]).toEqual({
      id: "page",
      kind: "page",
      name: "",
      sensitivity: "unknown",
      supportedActions: ["read", "navigate"],
    });
    expect(inspected.actionableEntities?.[1]).toMatchObject({ id: "b0", sensitivity: "public" });
  });
});

describe("the screenshot", () => {
  it("is a real PNG: signature, IHDR of the stated size, and IDAT that inflates to the pixels", async () => {
    const site = createSimulatedSite();
    const shot = await call(site, "browser.screenshot", {});
    const bytes = Buffer.from(shot.image.data, "base64");
    expect(bytes.length).toBe(shot.encoded_bytes);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.toString("latin1", 12, 16)).toBe("IHDR");
    expect(bytes.readUInt32BE(16)).toBe(shot.width);
    expect(bytes.readUInt32BE(20)).toBe(shot.height);
    const idatLength = bytes.readUInt32BE(33);
    expect(bytes.toString("latin1", 37, 41)).toBe("IDAT");
    const pixels = inflateSync(bytes.subarray(41, 41 + idatLength));
    expect(pixels.length).toBe(shot.height * (1 + shot.width * 3));
  });

  it("differs between pages", async () => {
    const site = createSimulatedSite({ startPath: "/orders" });
    const orders = await call(site, "browser.screenshot", {});
    await call(site, "browser.navigate", { url: "https://shop.example/login" });
    const login = await call(site, "browser.screenshot", {});
    expect(login.image.data).not.toBe(orders.image.data);
  });
});

describe("the site is deterministic", () => {
  it("gives the same results for the same calls", async () => {
    const run = async (): Promise<unknown[]> => {
      const site = createSimulatedSite();
      return [
        await call(site, "browser.observe", { level: "raw" }),
        await call(site, "browser.fillForm", {
          fields: [
            { target: "name=Email", value: "ada@example.com" },
            { target: "name=Password", value: "pw" },
          ],
        }),
        await call(site, "browser.inspectPage", {}),
        extract(site),
      ];
    };
    expect(await run()).toEqual(await run());
  });

  it("starts where the options say, `/` on the sign-in page as the shop's server redirects it", () => {
    expect(createSimulatedSite({ startPath: "/orders" }).state().url).toBe("https://shop.example/orders");
    expect(
      createSimulatedSite({ signedIn: true, startPath: "/", revision: 7, origin: "http://localhost:3000/" }).state(),
    ).toMatchObject({ url: "http://localhost:3000/login", revision: 7, signedIn: true });
  });

  it("resolves a startPath as a browser does before choosing the page: dot segments resolved, query and fragment kept in the URL but not part of the route", async () => {
    for (const startPath of ["/./", "/?x=1", "/#top", "/x/../", "/orders/.."]) {
      const site = createSimulatedSite({ startPath });
      expect(site.state().url, startPath).toBe("https://shop.example/login");
      expect((await call(site, "browser.getText", {})).text, startPath).toMatch(/^Sign in\n/);
    }
    for (const [startPath, url] of [
      ["/./orders", "https://shop.example/orders"],
      ["/x/../orders", "https://shop.example/orders"],
      ["/orders?tab=1", "https://shop.example/orders?tab=1"],
      ["/orders#top", "https://shop.example/orders#top"],
      ["/x/./../orders?tab=1#top", "https://shop.example/orders?tab=1#top"],
    ] as const) {
      const site = createSimulatedSite({ startPath });
      expect(site.state().url, startPath).toBe(url);
      expect((await call(site, "browser.getText", {})).text, startPath).toMatch(
        /^Simulated Shop Orders Sign out\nRecent orders/,
      );
    }
    // A path is always a path of the site's origin, never another host.
    expect(createSimulatedSite({ startPath: "//elsewhere.example/orders" }).state().url).toBe(
      "https://shop.example//elsewhere.example/orders",
    );
  });

  it("routes a navigation within the site by its path alone, keeping its query and fragment in the URL as a browser does", async () => {
    const site = createSimulatedSite();
    const kept = (await call(site, "browser.navigate", {
      url: "https://shop.example/x/../orders?tab=1#top",
      expectedRevision: 1,
    } as never)) as {
      page: { url: string; title: string };
      identity: { observedFinalUrl: string; redirectCount: number };
    };
    expect(kept.page).toMatchObject({ url: "https://shop.example/orders?tab=1#top", title: "Orders · Simulated Shop" });
    expect(kept.identity).toMatchObject({
      observedFinalUrl: "https://shop.example/orders?tab=1#top",
      redirectCount: 0,
    });
    const redirected = (await call(site, "browser.navigate", {
      url: "https://shop.example/./?next=orders",
      expectedRevision: 2,
    } as never)) as {
      page: { url: string };
      identity: { redirectCount: number };
    };
    expect(redirected.page.url).toBe("https://shop.example/login");
    expect(redirected.identity.redirectCount).toBe(1);
  });

  it("fails an observation of a region the page does not have as the daemon does, without saying why", async () => {
    const error = await failure(createSimulatedSite(), "browser.observe", {
      level: "summary",
      region: "region_nowhere",
    });
    expect(error.code).toBe("tool.failed");
  });
});
