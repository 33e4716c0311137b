import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GOLDEN_FIXTURE_PATH } from "./golden-fixture.js";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "glass-sdk/testing/node";
import type { GlassTransport } from "glass-sdk";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "src/cli/main.ts");

/** A stdio transport to a mock daemon child process (the CLI, run from source). */
export function mockDaemonOverStdio(args: string[] = []): GlassTransport {
  return stdioTransport({
    command: process.execPath,
    args: ["--import", "tsx", CLI, "mock-daemon", ...args],
    cwd: ROOT,
  });
}

/** An in-process mock daemon on a Unix socket in a fresh temp directory. */
export interface SocketMock {
  daemon: MockDaemon;
  path: string;
  /** A new transport to it. */
  transport(): GlassTransport;
  stop(): Promise<void>;
}

/** Starts a socket-mode mock daemon in-process. */
export async function mockDaemonOnSocket(options: Omit<MockDaemonOptions, "socket"> = {}): Promise<SocketMock> {
  const dir = mkdtempSync(join(tmpdir(), "glass-it-"));
  const path = join(dir, "glass.sock");
  const daemon = await startMockDaemon({ site: false, fixture: GOLDEN_FIXTURE_PATH, ...options, socket: path });
  return {
    daemon,
    path,
    transport: () => socketTransport({ path }),
    async stop() {
      await daemon.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
