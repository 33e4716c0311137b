/**
 * A hostile daemon on a Unix socket, for the bridge's hostile-input tests: it answers `initialize`
 * like a plain MCP server (no `glass` manifest, so the bridge keeps sending it JSON lines) and hands
 * every other message to the test's script, which can answer with anything — a line of text it
 * builds itself (a 50,000-level nesting, a huge result), a request or a notification of its own —
 * stop reading, or never answer. It counts every message it receives.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One connection from the bridge (one client session) as the script sees it. */
export interface HostileConnection {
  /** Writes one message: an object as its JSON line, or a string as the line itself (no validation). */
  send(message: Record<string, unknown> | string): void;
  /** Stops reading from the bridge (its writes then pile up on its side). */
  stopReading(): void;
  /** Reads again. */
  resumeReading(): void;
}

/** The script: called for every message but `initialize` (requests, notifications and responses). */
export type HostileScript = (message: Record<string, unknown>, connection: HostileConnection) => void;

/** A running hostile daemon. */
export interface HostileDaemon {
  /** The socket path to give the bridge. */
  readonly path: string;
  /** Messages received, all connections together (`initialize` included). */
  received(): number;
  /** Connections open now. */
  connections(): number;
  /** Stops listening, closes every connection and removes the socket's directory. */
  close(): Promise<void>;
}

/** Starts a hostile daemon whose behaviour is `script`. */
export async function startHostileDaemon(script: HostileScript): Promise<HostileDaemon> {
  const dir = mkdtempSync(join(tmpdir(), "glass-hostile-"));
  const path = join(dir, "glass.sock");
  const sockets = new Set<Socket>();
  let received = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const connection: HostileConnection = {
      send: (message) => {
        if (!socket.destroyed) socket.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
      },
      stopReading: () => socket.pause(),
      resumeReading: () => socket.resume(),
    };
    let buffered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        if (line.trim() === "") continue;
        received++;
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message.method === "initialize") {
          const params = message.params as { protocolVersion?: unknown } | undefined;
          connection.send({
            jsonrpc: "2.0",
            id: message.id,
            result: {
              protocolVersion: params?.protocolVersion ?? "2024-11-05",
              capabilities: { tools: {} },
              serverInfo: { name: "hostile", version: "0" },
            },
          });
          continue;
        }
        script(message, connection);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    received: () => received,
    connections: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The JSON text of `levels` nested arrays: `[[[…]]]`. */
export function nestedArrays(levels: number): string {
  return "[".repeat(levels) + "]".repeat(levels);
}

/** A response line whose result holds `nested` (JSON text) under `deep`, built as text (it cannot be stringified). */
export function responseLineWith(id: unknown, nested: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"{}"}],"deep":${nested}}}`;
}
