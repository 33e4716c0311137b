import { spawn, type ChildProcess } from "node:child_process";
import { type AddressInfo, connect, createServer } from "node:net";
import { pathToFileURL } from "node:url";
import { BIND_LOOPBACK, CLI, ROOT, SUPERGATEWAY } from "./paths.js";

/** A process the harness started; `stop()` ends it (SIGTERM, then SIGKILL after a second). */
export interface ChildHandle {
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** The running bridge: its endpoints and the token it generated. */
export interface BridgeHandle extends ChildHandle {
  readonly url: string;
  readonly wsUrl: string;
  readonly token: string;
}

/** The command that starts a fast mock daemon over stdio (each stdio client spawns its own). */
export function fastDaemonCommand(fixturePath: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [CLI, "mock-daemon", "--fast", "--fixture", fixturePath] };
}

/** Starts the fast mock daemon on a Unix socket in its own process; resolves once it listens. */
export async function spawnSocketDaemon(fixturePath: string, socketPath: string): Promise<ChildHandle> {
  const { command, args } = fastDaemonCommand(fixturePath);
  const child = spawn(command, [...args, "--socket", socketPath], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  await waitForLine(child, "mock daemon", /mock daemon listening on /);
  return handle(child);
}

/**
 * Starts the bridge in its own process, in front of the daemon socket at `daemon` — or, given a
 * daemon command, starting that daemon over stdio for each client session (`-- COMMAND`) — with `--port
 * 0`, a generated token and up to 8 client sessions, and reads its port and token from its
 * startup line.
 */
export async function spawnBridge(daemon: string | { command: string; args: string[] }): Promise<BridgeHandle> {
  const upstream = typeof daemon === "string" ? ["--socket", daemon] : ["--", daemon.command, ...daemon.args];
  const child = spawn(process.execPath, [CLI, "bridge", "--port", "0", "--max-clients", "8", ...upstream], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, GLASS_BRIDGE_TOKEN: "" },
  });
  const line = await waitForLine(
    child,
    "bridge",
    /listening on (http:\/\/\S+) \(and (ws:\/\/\S+)\) — token: (\S+) \(shown once/,
  );
  const [, url, wsUrl, token] = line;
  return { ...handle(child), url: url!, wsUrl: wsUrl!, token: token! };
}

/**
 * Starts supergateway (the devDependency) in front of `daemon` over stdio, with Streamable HTTP
 * output on `port` (`--stateful`: one daemon per session; else a daemon per POST), its logging off.
 * It has no option for the address it listens on (it binds every interface): a preload
 * (bench/lib/bind-loopback.mjs) makes it bind 127.0.0.1. Resolves once the port accepts connections.
 */
export async function spawnSupergateway(
  daemon: { command: string; args: string[] },
  port: number,
  stateful: boolean,
): Promise<ChildHandle & { url: string }> {
  const stdio = [daemon.command, ...daemon.args]
    .map((word) => (/^[\w./:=-]+$/.test(word) ? word : JSON.stringify(word)))
    .join(" ");
  const args = [
    SUPERGATEWAY,
    "--stdio",
    stdio,
    "--outputTransport",
    "streamableHttp",
    "--port",
    String(port),
    "--logLevel",
    "none",
    ...(stateful ? ["--stateful"] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${pathToFileURL(BIND_LOOPBACK).href}`.trim(),
    },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString("utf8")).slice(-4000)));
  const handled = handle(child);
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`supergateway exited with ${child.exitCode} before it listened; its stderr: ${stderr}`);
    if (await accepts(port)) break;
    if (Date.now() > until) {
      await handled.stop();
      throw new Error(`supergateway did not listen on 127.0.0.1:${port} within 15 s; its stderr: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...handled, url: `http://127.0.0.1:${port}/mcp` };
}

/** A TCP port free on 127.0.0.1 just now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Resolves with the match of the first stderr line matching `pattern`; rejects if the process exits first or within 15 s. */
function waitForLine(child: ChildProcess, name: string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 15 s; its stderr: ${text}`)), 15_000);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      const match = pattern.exec(text);
      if (match === null) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      child.stderr?.off("data", onData);
      child.stderr?.on("data", ignore); // keep draining (session log lines), so the pipe never fills
      resolve(match);
    };
    const onExit = (code: number | null): void =>
      fail(new Error(`${name} exited with ${code} before it was ready; its stderr: ${text}`));
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.stderr?.off("data", onData);
      child.kill("SIGKILL");
      reject(error);
    };
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

/** Children still running; killed when this process exits, however it exits (a closed pipe, an uncaught error). */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function handle(child: ChildProcess): ChildHandle {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 1000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

function ignore(): void {}
