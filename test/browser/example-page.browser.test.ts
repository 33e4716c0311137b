import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningExample, startExample } from "../../examples/browser-page/serve.js";
import { CHROMIUM, launchChromium } from "./support/chromium.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BROWSER_BUILD = join(ROOT, "dist/browser/index.js");

/** What the page printed, once its status line says it is done (or failed). */
interface PageRun {
  outcome: string | undefined;
  status: string;
  lines: string[];
  consoleErrors: string[];
  /** The operations whose validator chunks the page fetched, in order. */
  validatorChunks: string[];
}

/** An operation's validators as the page's bundle names their chunk: `/chunks/browser.observe-<hashes>.js`. */
const VALIDATOR_CHUNK = /^\/chunks\/([a-z][A-Za-z]*\.[A-Za-z]+)-[\w-]+\.js$/;

describe.skipIf(!existsSync(BROWSER_BUILD) || !existsSync(CHROMIUM))(
  "the browser-page example in headless Chromium",
  () => {
    let example: RunningExample;
    let browser: Browser;
    const bridgeLog: string[] = [];

    beforeAll(async () => {
      example = await startExample({ log: (line) => bridgeLog.push(line) });
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await example?.close();
    });

    async function openPage(url: string, screenshot: string): Promise<PageRun> {
      const tab = await browser.newPage({ viewport: { width: 900, height: 600 } });
      const consoleErrors: string[] = [];
      tab.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
      tab.on("pageerror", (error) => consoleErrors.push(error.message));
      const validatorChunks: string[] = [];
      tab.on("request", (request) => {
        const chunk = VALIDATOR_CHUNK.exec(new URL(request.url()).pathname);
        if (chunk !== null) validatorChunks.push(chunk[1]!);
      });
      try {
        await tab.goto(url);
        await tab.waitForSelector("#status[data-outcome]", { timeout: 30_000 });
        mkdirSync(join(ROOT, "test-results/browser"), { recursive: true });
        await tab.screenshot({ path: join(ROOT, "test-results/browser", screenshot), fullPage: true });
        return {
          outcome: (await tab.getAttribute("#status", "data-outcome")) ?? undefined,
          status: (await tab.textContent("#status")) ?? "",
          lines: await tab.locator("#story li").allTextContents(),
          consoleErrors,
          validatorChunks,
        };
      } finally {
        await tab.close();
      }
    }

    it("bundles the page with glass-sdk's browser build, resolved through the package's exports", () => {
      expect(example.glassSdkFile).toBe("dist/browser/index.js");
    });

    it("observes the shop, finds the Email field, types at the observed revision and reads the text, over WebSocket then HTTP", async () => {
      const overWebSocket = await openPage(example.url, "example-page-websocket.png");
      expect(overWebSocket.outcome, overWebSocket.lines.join("\n")).toBe("done");
      expect(overWebSocket.lines).toEqual([
        `connected over WebSocket to ${example.bridge.wsUrl}, answered by glass-sdk-mock-daemon`,
        'observed https://shop.example/login — "Sign in · Simulated Shop" at revision 1',
        expect.stringMatching(/^found the Email field: Email, reference \S+ \(confidence \w+\)$/),
        expect.stringMatching(
          /^typed ada@example\.com into Email at revision 1 under the mutation lease: execution \S+$/,
        ),
        "read the page's text: Sign in · Sign in to see your orders · Email · Password ·  Sign in",
      ]);
      expect(overWebSocket.consoleErrors).toEqual([]);
      // The page loads the validators of the operations it calls, each on its first call, and no others.
      expect(overWebSocket.validatorChunks).toEqual([
        "browser.observe",
        "browser.findTarget",
        "browser.type",
        "browser.getText",
      ]);

      // The daemon's one browser has moved on: typing advanced its page to revision 2.
      const overHttp = await openPage(`${example.url}&transport=http`, "example-page-http.png");
      expect(overHttp.outcome, overHttp.lines.join("\n")).toBe("done");
      expect(overHttp.lines[0]).toBe(`connected over HTTP to ${example.bridge.url}, answered by glass-sdk-mock-daemon`);
      expect(overHttp.lines[1]).toBe('observed https://shop.example/login — "Sign in · Simulated Shop" at revision 2');
      expect(overHttp.lines[3]).toMatch(
        /^typed ada@example\.com into Email at revision 2 under the mutation lease: execution \S+$/,
      );
      expect(overHttp.consoleErrors).toEqual([]);

      // The bridge let the page's origin in and refused nothing: its log holds only session starts and ends.
      expect(bridgeLog.filter((line) => !/^session \S+ (started|ended) /.test(line))).toEqual([]);
      expect(bridgeLog.filter((line) => / started /.test(line))).toHaveLength(2);
    }, 60_000);

    it("says what is missing when opened without the bridge's URL and token", async () => {
      const bare = await openPage(`${example.origin}/`, "example-page-no-fragment.png");
      expect(bare.outcome).toBe("failed");
      expect(bare.status).toMatch(/needs #bridge=.*&token=.* open the URL serve\.ts printed/);
    }, 30_000);
  },
);
