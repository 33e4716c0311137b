import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const CHILD = fileURLToPath(new URL("./support/ws-handlers-child.ts", import.meta.url));

/** Runs the child script under Node with `flag` (and no NODE_OPTIONS); resolves with the JSON line it printed. */
function runChild(flag: "--experimental-websocket" | "--no-experimental-websocket"): Promise<Record<string, unknown>> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [flag, "--import", "tsx", CHILD],
      { cwd: ROOT, env, timeout: 25_000 },
      (error, stdout, stderr) => {
        const line = stdout.trim().split("\n").at(-1) ?? "";
        try {
          resolve(JSON.parse(line) as Record<string, unknown>);
        } catch {
          reject(new Error(`the child printed no JSON line (${error?.message ?? "exit 0"}): ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

// The vitest project "websocket" gives its workers --experimental-websocket; the runtime that lacks
// the global WebSocket is a child process started without it.
describe("createGlassWsHandlers without a global WebSocket (Node 20 without --experimental-websocket)", () => {
  it("throws at once, saying what is missing and the three ways out, instead of MSW's HTTP 500 on every upgrade", async () => {
    const outcome = await runChild("--no-experimental-websocket");
    expect(outcome).toEqual({
      threw: expect.stringContaining(
        "createGlassWsHandlers needs the global WebSocket, which MSW intercepts, and this runtime has none",
      ),
    });
    const message = outcome.threw as string;
    for (const way of [
      "NODE_OPTIONS=--experimental-websocket",
      "Node 22 or later",
      "createGlassHandlers and httpTransport",
    ])
      expect(message).toContain(way);
  });

  it("with the flag, the same script connects through the handlers", async () => {
    expect(await runChild("--experimental-websocket")).toEqual({ connected: "glass-sdk-mock-daemon" });
  });
});
