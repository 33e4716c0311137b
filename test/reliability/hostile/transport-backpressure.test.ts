/**
 * A hostile daemon that stops reading: every message the client writes then waits in the
 * transport's memory (Node buffers a stream's writes without limit). The stdio and socket
 * transports now bound what waits for the peer at 32 MiB: a send past it fails at once with
 * OverloadedError (nothing sent, nothing may have happened) instead of piling up.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { OverloadedError, type GlassTransport } from "glass-sdk";
import type { JsonRpcMessage } from "glass-sdk/protocol";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { TransportLimits } from "../../../src/transport/transport.js";

const HOSTILE_DAEMON = fileURLToPath(new URL("../support/hostile-daemon.mjs", import.meta.url));
const MIB = 1024 * 1024;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A transport to the hostile daemon that stops reading after the handshake. */
async function deafDaemon(kind: "stdio" | "socket"): Promise<GlassTransport> {
  if (kind === "stdio")
    return stdioTransport({
      command: process.execPath,
      args: [HOSTILE_DAEMON, "--behaviour", "deaf"],
      closeTimeoutMs: 100,
    });
  const dir = mkdtempSync(join(tmpdir(), "glass-hostile-"));
  const path = join(dir, "glass.sock");
  const child = spawn(process.execPath, [HOSTILE_DAEMON, "--behaviour", "deaf", "--socket", path], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  return socketTransport({ path, closeTimeoutMs: 100 });
}

/** Starts `transport` and does the MCP handshake by hand; the hostile daemon stops reading after it. */
async function handshake(transport: GlassTransport): Promise<void> {
  let answered!: () => void;
  const initialized = new Promise<void>((resolve) => (answered = resolve));
  await transport.start({
    onMessage: (message) => "id" in message && message.id === 1 && answered(),
    onClose: () => undefined,
  });
  cleanups.push(() => transport.close());
  await transport.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await initialized;
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

describe("hostile daemon: it stops reading", () => {
  it.each(["stdio", "socket"] as const)(
    "over %s: at most 32 MiB wait for it; every send past that fails at once with OverloadedError, and nothing piles up",
    async (kind) => {
      const transport = await deafDaemon(kind);
      await handshake(transport);
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the daemon stop reading
      const pad = "x".repeat(MIB);
      const message: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/message", params: { pad } };
      const messageBytes = JSON.stringify(message).length + 1;
      const outcomes: ("written" | "pending" | OverloadedError | Error)[] = [];
      for (let index = 0; index < 64; index++) {
        const slot = outcomes.push("pending") - 1;
        transport.send(message).then(
          () => (outcomes[slot] = "written"),
          (error: Error) => (outcomes[slot] = error),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = outcomes.filter((outcome): outcome is OverloadedError => outcome instanceof OverloadedError);
      const accepted = outcomes.length - refused.length;
      // What was taken fits the bound (the kernel's pipe or socket buffer took a little of it).
      expect(accepted * messageBytes).toBeLessThanOrEqual(TransportLimits.maxQueuedSendBytes + 8 * MIB);
      expect(refused.length).toBeGreaterThanOrEqual(
        64 - Math.ceil((TransportLimits.maxQueuedSendBytes + 8 * MIB) / messageBytes),
      );
      expect(outcomes.filter((outcome) => outcome instanceof Error && !(outcome instanceof OverloadedError))).toEqual(
        [],
      );
      for (const error of refused) {
        expect(error).toMatchObject({
          code: "overloaded",
          mutationPossible: false,
          phase: "preflight",
          details: { maxQueuedBytes: TransportLimits.maxQueuedSendBytes },
        });
        expect(error.rawMessage).toMatch(
          /is not reading what it is sent: \d+ bytes already wait to be written to it, and at most 33554432 may; the message was NOT sent/,
        );
      }
    },
  );
});
