import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassTransport } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { createMockGlass, goldenFixture } from "glass-sdk/testing";
import { startMockDaemon } from "glass-sdk/testing/node";
import { webIrDocument } from "../../src/operations/web-ir-document.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = ["--import", "tsx", "src/cli/main.ts", "mock-daemon"];
const dir = mkdtempSync(join(tmpdir(), "glass-site-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A script written only from the README: observe, find the email field, type into it with the
 * revision observed (the daemon numbers the click and the typing: the typing is act_2), meet
 * staleRevision with that revision again, re-observe, read the text. It does not know which daemon
 * it talks to.
 */
async function signInScript(glass: Glass): Promise<string[]> {
  const story: string[] = [];
  const page = await glass.browser.observe({ level: "interactive" });
  story.push(`observed ${page.page.url} at revision ${page.revision}`);
  const found = await glass.browser.findTarget({
    schemaVersion: 1,
    intent: "Email",
    action: "type",
    resolutionPolicy: "reportOnly",
    expectedRevision: page.revision,
  });
  // Every target of the page is a candidate, in page order: take the one named Email.
  const email = found.candidates.find((candidate) => candidate.name === "Email");
  if (email === undefined) throw new Error("no Email field");
  story.push(`found ${email.name} (confidence ${email.confidence}) among ${found.candidates.length}`);
  const typed = await glass.browser.type({
    target: email.reference,
    text: "ada@example.com",
    expectedRevision: page.revision,
  });
  story.push(`typed: ${typed.executionId}`);
  // A summary in the middle of the session (the golden fixture has this exact payload): the site answers it.
  const summary = await glass.browser.observe({ level: "summary" });
  story.push(`summary of ${summary.page.url} at revision ${summary.revision - page.revision} past the first`);
  try {
    await glass.browser.type({ target: email.reference, text: "again", expectedRevision: page.revision });
    story.push("typed twice with one revision");
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    story.push(`${error.code}, retryable ${error.retryable}`);
  }
  const again = await glass.browser.observe({ level: "interactive" });
  story.push(`re-observed at revision ${again.revision - page.revision} past the first`);
  const { text } = await glass.browser.getText();
  story.push(text.includes("Sign in") ? "the page reads Sign in" : `the page reads ${text}`);
  return story;
}

const STORY = [
  "observed https://shop.example/login at revision 1",
  "found Email (confidence medium) among 4",
  "typed: act_2",
  "summary of https://shop.example/login at revision 1 past the first",
  "staleRevision, retryable true",
  "re-observed at revision 1 past the first",
  "the page reads Sign in",
];

async function run(transport: GlassTransport, withLease = false): Promise<string[]> {
  const glass = await Glass.connect(transport);
  try {
    return withLease ? await glass.withLease(() => signInScript(glass), { ttlMs: 30_000 }) : await signInScript(glass);
  } finally {
    await glass.close();
  }
}

describe("the mock daemon serves the simulated site by default", () => {
  it("a README script runs against glass-sdk mock-daemon over stdio", async () => {
    expect(await run(stdioTransport({ command: process.execPath, args: CLI, cwd: ROOT }))).toEqual(STORY);
  });

  it("the same script runs against glass-sdk mock-daemon --socket, holding the lease", async () => {
    const { spawn } = await import("node:child_process");
    const path = join(dir, "cli.sock");
    const child = spawn(process.execPath, [...CLI, "--socket", path], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("listening on")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`mock daemon exited with ${code}`)));
      });
      expect(await run(socketTransport({ path }), true)).toEqual(STORY);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("the same script runs against createMockGlass() in memory", async () => {
    expect(await run(createMockGlass().transport())).toEqual(STORY);
  });

  it("on the socket, a mutation without the lease is refused before the site sees it", async () => {
    const daemon = await startMockDaemon({ socket: join(dir, "lease.sock") });
    const glass = await Glass.connect(socketTransport({ path: daemon.socketPath }));
    try {
      const page = await glass.browser.observe({ level: "interactive" });
      const error = await glass.browser
        .click({ target: "ref=1", expectedRevision: page.revision })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "leaseRequired" });
      expect((await glass.browser.observe({ level: "interactive" })).revision).toBe(page.revision);
    } finally {
      await glass.close();
      await daemon.close();
    }
  });

  it("with no options, the daemon answers every call from the site, the golden fixture's exact payloads too (one site behind every mock)", async () => {
    const golden = await goldenFixture();
    const summary = golden.requests.find(
      (request) =>
        request.operation === "browser.observe" && (request.payload as { level?: unknown }).level === "summary",
    );
    expect(summary?.payload).toEqual({ level: "summary" });
    const daemon = await startMockDaemon({ socket: join(dir, "golden.sock") });
    const memory = createMockGlass();
    const glass = await Glass.connect(socketTransport({ path: daemon.socketPath }));
    const inMemory = await Glass.connect(memory.transport());
    try {
      const observed = await glass.browser.observe({ level: "summary" });
      expect(observed.page.url).toBe("https://shop.example/login");
      expect(observed).toEqual(await inMemory.browser.observe({ level: "summary" }));
    } finally {
      await inMemory.close();
      await glass.close();
      await daemon.close();
    }
  });

  it("given the golden fixture with site: true, its exact payloads are answered from the fixture and everything else by the site", async () => {
    const daemon = await startMockDaemon({
      socket: join(dir, "golden-site.sock"),
      fixture: await goldenFixture(),
      site: true,
    });
    const glass = await Glass.connect(socketTransport({ path: daemon.socketPath }));
    try {
      expect((await glass.browser.observe({ level: "summary" })).page.url).toContain("library.example");
      expect((await glass.browser.observe({ level: "interactive" })).page.url).toBe("https://shop.example/login");
    } finally {
      await glass.close();
      await daemon.close();
    }
  });

  it("each daemon and each mock serves a fresh site", async () => {
    const first = createMockGlass();
    await run(first.transport());
    expect(await run(createMockGlass().transport())).toEqual(STORY);
  });

  it("user handlers sit on top of the site: they answer their operation, the site the rest", async () => {
    const mock = createMockGlass({ handlers: { "browser.getText": () => ({ text: "from the handler" }) } });
    const glass = await Glass.connect(mock.transport());
    try {
      expect(await glass.browser.getText()).toEqual({ text: "from the handler" });
      expect((await glass.browser.observe({ level: "interactive" })).page.url).toBe("https://shop.example/login");
    } finally {
      await glass.close();
    }
  });

  it("answers the typed browser.extractWebIr with the page's projected Web IR, which webIr.validate takes once passed through webIrDocument", async () => {
    const glass = await Glass.connect(createMockGlass().transport());
    try {
      const extracted = await glass.browser.extractWebIr();
      expect(extracted.detailAvailability).toMatchObject({ detailsAvailable: true, detailsTruncated: false });
      expect(await glass.webIr.validate({ ir: webIrDocument(extracted) })).toMatchObject({
        valid: true,
        revision: extracted.revision,
      });
    } finally {
      await glass.close();
    }
  });

  it("an operation the site does not answer is mock.unmatched, saying no handler answers it", async () => {
    const glass = await Glass.connect(createMockGlass().transport());
    try {
      const error = await glass.browser.cookies().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "mock.unmatched" });
      expect((error as GlassError).rawMessage).toMatch(/^no handler for browser\.cookies; /);
    } finally {
      await glass.close();
    }
  });
});
