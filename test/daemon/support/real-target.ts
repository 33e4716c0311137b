/**
 * The real daemon as a conformance target (test/support/conformance-target.ts): the mock daemon's
 * rule tests (test/conformance/mock-daemon-rules-*.test.ts) run against it too, under
 * `npm run test:daemon`, so every rule the mock claims is checked against the daemon it imitates.
 * Over stdio each peer gets a daemon of its own (`glass-browser --mcp`); on the socket every peer
 * connects to one `glass-browser daemon serve`.
 */
import type { ChildProcess } from "node:child_process";
import { RawPeer } from "../../support/raw-mcp-peer.js";
import {
  type DaemonState,
  daemonState,
  freePort,
  globalFlags,
  killDaemon,
  type SocketDaemon,
  spawnDaemon,
  startSocketDaemon,
} from "./real-daemon.js";

/** Thrown by a real target where a rule reaches for the mock daemon's own state (its calls, its leases). */
export class MockOnlyError extends Error {
  constructor() {
    super("this rule inspects the mock daemon's own state, which the real daemon does not expose");
    this.name = "MockOnlyError";
  }
}

/** A peer source for the real daemon over one transport, and how to end it all. */
export interface RealTarget {
  connect(): Promise<RawPeer>;
  hangUp(peer: RawPeer): Promise<void>;
  stop(): Promise<void>;
}

/** Starts what the real daemon needs over `transport` (the socket daemon now; stdio daemons per peer). */
export async function startRealTarget(transport: "stdio" | "socket"): Promise<RealTarget> {
  const peers: RawPeer[] = [];
  const children: ChildProcess[] = [];
  const states: DaemonState[] = [];
  let socket: SocketDaemon | undefined;
  if (transport === "socket") socket = await startSocketDaemon();
  const connect = async (): Promise<RawPeer> => {
    if (socket !== undefined) return RawPeer.connect(socket.path);
    const state = daemonState();
    states.push(state);
    const child = spawnDaemon([...globalFlags(await freePort()), "--mcp"], state.env);
    children.push(child);
    return new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
  };
  return {
    async connect() {
      const peer = await connect();
      peers.push(peer);
      return peer;
    },
    async hangUp(peer) {
      peer.close();
      // The daemon frees the connection's slot when it sees the end; it says nothing, so wait a moment.
      await Promise.race([peer.closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async stop() {
      for (const peer of peers) peer.close();
      await Promise.all(children.map((child) => exited(child)));
      await socket?.stop();
      for (const state of states) state.remove();
    },
  };
}

/** Waits for a stdio daemon to exit after its stdin ended; SIGTERM after 3 s, SIGKILL after 6 s. */
async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const term = setTimeout(() => child.kill("SIGTERM"), 3000);
  const kill = setTimeout(() => child.kill("SIGKILL"), 6000);
  await gone;
  clearTimeout(term);
  clearTimeout(kill);
  killDaemon(child);
}
