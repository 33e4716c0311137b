import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "../../src/testing/node/start-mock-daemon.js";
import { GOLDEN_FIXTURE_PATH } from "./golden-fixture.js";
import { handshake, RawPeer } from "./raw-mcp-peer.js";

/** A mock daemon on a socket in a fresh temp directory, and the peers connected to it. */
export interface SocketHarness {
  daemon: MockDaemon;
  path: string;
  /** Connects a raw peer (closed by `stop`). */
  connect(): Promise<RawPeer>;
  /** Connects a raw peer and completes the handshake. */
  connectReady(glass?: unknown): Promise<RawPeer>;
  /** Closes every peer connected so far and waits until the daemon has seen them go. */
  disconnectAll(): Promise<void>;
  /** Closes every peer and the daemon, and removes the temp directory. */
  stop(): Promise<void>;
}

/** Starts a socket-mode mock daemon in-process. */
export async function startSocketHarness(options: Omit<MockDaemonOptions, "socket"> = {}): Promise<SocketHarness> {
  const dir = mkdtempSync(join(tmpdir(), "glass-mock-"));
  const path = join(dir, "glass.sock");
  const daemon = await startMockDaemon({ site: false, fixture: GOLDEN_FIXTURE_PATH, ...options, socket: path });
  const peers: RawPeer[] = [];
  const connect = async (): Promise<RawPeer> => {
    const peer = await RawPeer.connect(path);
    peers.push(peer);
    return peer;
  };
  return {
    daemon,
    path,
    connect,
    async connectReady(glass) {
      const peer = await connect();
      await handshake(peer, glass);
      return peer;
    },
    async disconnectAll() {
      const closing = peers.splice(0);
      for (const peer of closing) peer.close();
      await Promise.all(closing.map((peer) => peer.closed));
      while (daemon.clientCount() > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    },
    async stop() {
      for (const peer of peers) peer.close();
      await daemon.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
