import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBridge } from "glass-sdk/node";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";
import { GOLDEN_FIXTURE_PATH } from "../support/golden-fixture.js";
import { CHROMIUM, launchChromium } from "./support/chromium.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLE = join(ROOT, "dist/browser/glass-sdk.browser.min.js");
const SCREENSHOT = join(ROOT, "test-results/browser/golden-operations.png");

/** Serves the test page, the browser bundle and the golden fixture on 127.0.0.1. */
function servePage(): Promise<{ server: Server; origin: string }> {
  const files: Record<string, [string, string]> = {
    "/index.html": [join(ROOT, "test/browser/page/index.html"), "text/html; charset=utf-8"],
    "/app.js": [join(ROOT, "test/browser/page/app.js"), "text/javascript"],
    "/glass-sdk.browser.min.js": [BUNDLE, "text/javascript"],
    "/fixture.json": [join(ROOT, "fixtures/protocol-golden-v1.json"), "application/json"],
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (path === "/favicon.ico") {
      response.writeHead(204).end();
      return;
    }
    const file = files[path];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": file[1] });
    createReadStream(file[0]).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

describe.skipIf(!existsSync(BUNDLE) || !existsSync(CHROMIUM))(
  "the browser bundle in headless Chromium, through the bridge",
  () => {
    let dir: string;
    let daemon: MockDaemon;
    let bridge: Awaited<ReturnType<typeof startBridge>>;
    let page: Awaited<ReturnType<typeof servePage>>;
    let browser: Browser;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "glass-browser-"));
      daemon = await startMockDaemon({ socket: join(dir, "glass.sock"), fixture: GOLDEN_FIXTURE_PATH, site: true });
      page = await servePage();
      bridge = await startBridge({
        port: 0,
        upstream: { socket: join(dir, "glass.sock") },
        allowedOrigins: [page.origin],
        log: () => undefined,
      });
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await bridge?.close();
      await new Promise((resolve) => page?.server.close(resolve));
      await daemon?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("runs every golden operation over HTTP and over WebSocket and gets the fixture's answers", async () => {
      const tab = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
      const consoleErrors: string[] = [];
      tab.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
      await tab.goto(
        `${page.origin}/index.html#bridge=${encodeURIComponent(bridge.url.replace(/\/mcp$/, ""))}&token=${encodeURIComponent(bridge.token)}`,
      );
      await tab.waitForFunction(
        () => (window as unknown as { __glassOutcome?: unknown }).__glassOutcome !== undefined,
        undefined,
        { timeout: 60_000 },
      );
      const outcome = (await tab.evaluate(() => (window as unknown as { __glassOutcome: unknown }).__glassOutcome)) as {
        outcomes?: { transport: string; requestId: string; ok: boolean }[];
        error?: string;
      };
      mkdirSync(join(ROOT, "test-results/browser"), { recursive: true });
      await tab.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(outcome.error).toBeUndefined();
      const fixture = JSON.parse(readFileSync(join(ROOT, "fixtures/protocol-golden-v1.json"), "utf8")) as {
        requests: unknown[];
      };
      expect(outcome.outcomes).toHaveLength(fixture.requests.length * 2);
      expect(outcome.outcomes!.filter((o) => !o.ok)).toEqual([]);
      expect(new Set(outcome.outcomes!.map((o) => o.transport))).toEqual(new Set(["HTTP", "WebSocket"]));
      expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
    }, 90_000);
  },
);
