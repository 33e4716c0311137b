/**
 * How the quickstart reaches a Glass daemon:
 *
 *   GLASS_SOCKET=/path/glass.sock   a running daemon's Unix socket (`glass daemon start`): leases
 *   GLASS_COMMAND="glass --mcp"     a daemon started as a child process, over stdio
 *   (neither)                       the mock daemon of this repository, over stdio
 */
import { fileURLToPath } from "node:url";
import type { GlassTransport } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";

/** A transport and a line saying what it is. */
export interface ChosenTransport {
  transport: GlassTransport;
  description: string;
  /**
   * Whether GLASS_SOCKET or GLASS_COMMAND named the daemon: one the example cannot know (a real
   * daemon's browser is on no page of ours yet), rather than the mock daemon of this repository.
   */
  named: boolean;
}

/** The CLI entry point of this repository, run from source with tsx. */
const CLI_SOURCE = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

export function chooseTransport(env: NodeJS.ProcessEnv = process.env): ChosenTransport {
  const socket = env.GLASS_SOCKET?.trim();
  if (socket) {
    return {
      transport: socketTransport({ path: socket }),
      description: `Unix socket ${socket} (GLASS_SOCKET)`,
      named: true,
    };
  }
  const command = env.GLASS_COMMAND?.trim();
  if (command) {
    const [program, ...args] = command.split(/\s+/) as [string, ...string[]];
    return {
      transport: stdioTransport({ command: program, args }),
      description: `stdio, child process \`${command}\` (GLASS_COMMAND)`,
      named: true,
    };
  }
  // The mock daemon serves a simulated shop (and answers the golden fixture's exact payloads).
  // Installed packages run it with
  // `npx glass-sdk mock-daemon`; from this repository's source it is:
  return {
    transport: stdioTransport({ command: process.execPath, args: ["--import", "tsx", CLI_SOURCE, "mock-daemon"] }),
    description: "stdio, child process `glass-sdk mock-daemon` (the mock daemon, from source)",
    named: false,
  };
}
