/**
 * The debug log switch: GLASS_DEBUG=1 (or DEBUG=glass-sdk) makes a client write its log events to
 * stderr, one line each, with the secrets it knows scrubbed; without it, nothing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";
import { debugLogRequested, formatLogEvent } from "../../src/client/debug-log.js";
import { GOLDEN_FIXTURE_PATH } from "../support/golden-fixture.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SESSION = join(ROOT, "test/client/support/debug-log-session.ts");
const TYPED_TEXT = "correct-horse-battery-staple-9431";

/** Runs the session script with `env` added (GLASS_DEBUG and DEBUG are never inherited from the test process). */
function runSession(
  socket: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { GLASS_DEBUG: _glassDebug, DEBUG: _debug, ...base } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", SESSION], {
      cwd: ROOT,
      env: { ...base, GLASS_SOCKET: socket, TYPED_TEXT, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the debug log (GLASS_DEBUG=1, DEBUG=glass-sdk)", () => {
  let dir: string;
  let daemon: MockDaemon;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-debug-"));
    daemon = await startMockDaemon({ socket: join(dir, "glass.sock"), fixture: GOLDEN_FIXTURE_PATH, site: true });
  });
  afterAll(async () => {
    await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("with GLASS_DEBUG=1, writes every call and wire event of a leased session to stderr, without the lease token or the typed text", async () => {
    const { code, stdout, stderr } = await runSession(daemon.socketPath!, { GLASS_DEBUG: "1" });
    expect(code, stderr).toBe(0);
    const { token } = JSON.parse(stdout) as { token: string };
    expect(token.length).toBeGreaterThan(8);
    const lines = stderr.trimEnd().split("\n");
    expect(lines.every((line) => line.startsWith("glass-sdk "))).toBe(true);
    // The calls: each request and its response.
    for (const operation of ["browser.observe", "browser.findTarget", "browser.type"]) {
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^glass-sdk request operation=${operation} requestId=\\S+ attempt=0$`)),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^glass-sdk response operation=${operation} requestId=\\S+ ok=true ms=\\d+$`)),
      );
    }
    // The wire: the handshake and the end of the connection; the lease.
    expect(lines).toContainEqual(
      expect.stringMatching(/^glass-sdk connection detail="initialized: MCP \S+ with .+, Glass protocol 1"$/),
    );
    expect(lines).toContainEqual('glass-sdk connection detail="connection closed: the client was closed"');
    expect(lines).toContainEqual(
      expect.stringMatching(/^glass-sdk lease action=acquired sessionId=\S+ expiresAtMs=\d+$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^glass-sdk lease action=released sessionId=\S+$/));
    // Never the secrets.
    expect(stderr).not.toContain(token);
    expect(stderr).not.toContain(TYPED_TEXT);
  });

  it("with DEBUG=glass-sdk* as well; with neither, or DEBUG excluding it, writes nothing", async () => {
    const socket = daemon.socketPath!;
    expect((await runSession(socket, { DEBUG: "express,glass-sdk*" })).stderr).toMatch(
      /^glass-sdk request operation=initialize /m,
    );
    expect((await runSession(socket, {})).stderr).toBe("");
    expect((await runSession(socket, { DEBUG: "*,-glass-sdk", GLASS_DEBUG: "0" })).stderr).toBe("");
  });

  it("reads the switch the way its documentation says", () => {
    expect(debugLogRequested({ GLASS_DEBUG: "1" })).toBe(true);
    expect(debugLogRequested({ GLASS_DEBUG: "true" })).toBe(true);
    for (const off of ["", "0", "false", " FALSE "]) expect(debugLogRequested({ GLASS_DEBUG: off })).toBe(false);
    for (const on of ["glass-sdk", "glass-sdk*", "glass*", "*", "app, glass-sdk", "app glass-sdk*"])
      expect(debugLogRequested({ DEBUG: on }), on).toBe(true);
    for (const off of ["", "glass", "glass-sdk-other", "express*", "*,-glass-sdk", "-glass-sdk,glass-sdk"])
      expect(debugLogRequested({ DEBUG: off }), off).toBe(false);
    expect(debugLogRequested(undefined)).toBe(false);
  });

  it("writes an event as one line, quoting a value that is not a plain word and escaping control characters", () => {
    expect(formatLogEvent({ type: "request", operation: "browser.click", requestId: "r-1", attempt: 0 })).toBe(
      "glass-sdk request operation=browser.click requestId=r-1 attempt=0",
    );
    expect(formatLogEvent({ type: "wire", detail: "badFrame\nglass-sdk forged \u001b[31m" })).toBe(
      'glass-sdk wire detail="badFrame\\nglass-sdk forged \\u001b[31m"',
    );
  });
});
