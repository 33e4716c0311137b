/**
 * A hostile local process squats the socket path (say in /tmp): `socketTransport` connected to a
 * socket owned by another user with no warning, and that user's process received every call —
 * and what was typed into pages. The transport now checks the socket's owner after connecting and
 * before sending anything, as the daemon checks its peers (same user only), and refuses with a
 * TransportUnavailableError saying whose socket it is and what to do; `allowForeignOwner: true`
 * lets a trusted one through.
 *
 * Only root can give a socket to another user (chown), so these run as root and are skipped
 * otherwise.
 */
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Glass, TransportUnavailableError } from "glass-sdk";
import type { JsonRpcMessage } from "glass-sdk/protocol";
import { socketTransport } from "glass-sdk/node";

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A squatter: a socket in a world-writable directory, owned by user nobody, recording every byte it receives. */
async function squatter(): Promise<{ path: string; received: () => string; connections: () => number }> {
  const dir = mkdtempSync(join(tmpdir(), "glass-squat-"));
  chmodSync(dir, 0o1777);
  const path = join(dir, "glass.sock");
  const chunks: Buffer[] = [];
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o777);
  chownSync(path, NOBODY, NOBODY);
  cleanups.push(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
  return { path, received: () => Buffer.concat(chunks).toString("utf8"), connections: () => connections };
}

const handlers = { onMessage: (_message: JsonRpcMessage) => undefined, onClose: () => undefined };

describe.skipIf(!isRoot)("hostile local process: a socket owned by another user at the path", () => {
  it("start() refuses it with a TransportUnavailableError naming its owner and what to do; nothing is sent", async () => {
    const squat = await squatter();
    const error = await socketTransport({ path: squat.path })
      .start(handlers)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error).toMatchObject({
      mutationPossible: false,
      details: { path: squat.path, socketUid: NOBODY, processUid: 0 },
    });
    expect((error as TransportUnavailableError).rawMessage).toMatch(
      /^the socket at .*glass\.sock belongs to another user \(uid 65534; this process runs as uid 0\), so it is not your Glass daemon's: .* Nothing was sent\. .*glass daemon start.* pass socketTransport\(\{ path, allowForeignOwner: true \}\)$/,
    );
    await expect.poll(() => squat.connections()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(squat.received()).toBe("");
  });

  it("Glass.connect fails the same way, and the squatter never sees the initialize", async () => {
    const squat = await squatter();
    const error = await Glass.connect(socketTransport({ path: squat.path }), { deadlineMs: 3_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TransportUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(squat.received()).toBe("");
  });

  it("allowForeignOwner: true connects to it, as asked", async () => {
    const squat = await squatter();
    const transport = socketTransport({ path: squat.path, allowForeignOwner: true, closeTimeoutMs: 100 });
    await transport.start(handlers);
    cleanups.push(() => transport.close());
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await expect.poll(() => squat.received()).toContain("notifications/initialized");
  });
});
