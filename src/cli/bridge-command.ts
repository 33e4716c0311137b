import { existsSync } from "node:fs";
import { defaultSocketPath } from "../node/default-socket-path.js";
import { neutraliseLogLine } from "../node/bridge/bridge-log.js";
import { BRIDGE_DEFAULTS, listeningAddresses, type BridgeUpstream } from "../node/bridge/options.js";
import { isLoopbackHost } from "../node/bridge/security.js";
import { startBridge } from "../node/bridge/start-bridge.js";
import { closeWithin, forEachOption, splitAtSeparator, untilStopRequest, writePidFile } from "./command-line.js";
import { UsageError } from "./usage.js";

/** The options of `glass-sdk bridge`. */
export interface BridgeCommand {
  /** `--port`: the TCP port (default 8787; 0 = any free port). */
  port: number;
  /** `--host`: the address to listen on (default 127.0.0.1). */
  host?: string;
  /** `--allow-remote`: permits a non-loopback `--host`. */
  allowRemote: boolean;
  /** `--token` (or `GLASS_BRIDGE_TOKEN`): the token to require instead of a generated one. */
  token?: string;
  /** `--allow-origin`, repeatable: browser origins allowed. */
  allowedOrigins: string[];
  /** `--allow-host`, repeatable: extra Host header names. */
  allowedHosts: string[];
  /** `--max-clients`: client sessions at once (default 4). */
  maxClients?: number;
  /** `--evict-idle-after S`, in ms: at the cap, how long a session must be idle to give way to a new one (default 30 s). */
  evictIdleAfterMs?: number;
  /** `--socket PATH`, or `-- <command...>`: the daemon; default its socket at the default path. */
  upstream: BridgeUpstream;
  /** `--pid-file`: where the bridge writes its own pid while it runs (removed when it stops). */
  pidFile?: string;
}

/**
 * Reads the arguments after `bridge`. Everything after `--` is the daemon command, started once per
 * client session (`-- glass --mcp`). Throws a {@link UsageError}.
 */
export function parseBridgeArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): BridgeCommand {
  const { own, rest: daemonCommand } = splitAtSeparator(args);
  const command: BridgeCommand = {
    port: BRIDGE_DEFAULTS.cliPort,
    allowRemote: false,
    allowedOrigins: [],
    allowedHosts: [],
    upstream: { socket: "" },
  };
  let socket: string | undefined;
  forEachOption(own, ({ arg, name, value, flag }) => {
    switch (name) {
      case "--port":
        command.port = wholeNumber(name, value(), 0, 65535);
        break;
      case "--host":
        command.host = value();
        break;
      case "--allow-remote":
        flag();
        command.allowRemote = true;
        break;
      case "--token":
        command.token = value();
        break;
      case "--allow-origin":
        command.allowedOrigins.push(value());
        break;
      case "--allow-host":
        command.allowedHosts.push(value());
        break;
      case "--max-clients":
        command.maxClients = wholeNumber(name, value(), 1, 1024);
        break;
      case "--evict-idle-after":
        command.evictIdleAfterMs = wholeNumber(name, value(), 1, 86_400) * 1000;
        break;
      case "--pid-file":
        command.pidFile = value();
        break;
      case "--socket":
        socket = value();
        break;
      default:
        // Name the option only: a mistyped --tokn=<secret> must not echo the secret.
        throw new UsageError(`unknown option: ${arg.startsWith("-") ? name : "an argument before --"}`);
    }
  });
  if (command.token === undefined && env.GLASS_BRIDGE_TOKEN !== undefined && env.GLASS_BRIDGE_TOKEN !== "")
    command.token = env.GLASS_BRIDGE_TOKEN;
  if (daemonCommand !== undefined) {
    if (socket !== undefined) throw new UsageError("give either --socket PATH or -- <daemon command>, not both");
    const [executable, ...rest] = daemonCommand;
    if (executable === undefined || executable === "")
      throw new UsageError("-- must be followed by the daemon command, e.g. -- glass --mcp");
    command.upstream = { command: executable, args: rest };
  } else {
    const fromEnv = env.GLASS_SOCKET;
    command.upstream = { socket: socket ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : defaultSocketPath()) };
  }
  return command;
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new UsageError(`${name} needs a whole number ${min}..${max}, not ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * How long the bridge has to close once told to stop: more than a daemon process takes to be
 * ended (its stdin closed, then SIGTERM and SIGKILL: about 3 s).
 */
const CLOSE_LIMIT_MS = 10_000;

/**
 * Runs the bridge until SIGINT, SIGTERM or SIGHUP (or, run in the foreground of a terminal,
 * until the process that started it ends), then closes every session and every daemon
 * process it started (see {@link closeWithin}) and exits. Prints one startup line to stderr with the URLs (beyond
 * loopback: the address it is bound to and every URL it answers at, after a warning that it is
 * reachable from the network) and — only when it was generated — the token (the only time it is
 * ever shown), then one log line per session start and end and per refusal (never the token).
 * Resolves with the exit code.
 */
export async function runBridge(command: BridgeCommand): Promise<number> {
  const print = (line: string): void => void process.stderr.write(`glass-sdk bridge: ${line}\n`);
  // The bridge neutralises its own log lines; the startup lines quote the command line, neutralised here.
  const write = (line: string): void => print(neutraliseLogLine(line));
  // Listen for the stop signals before anything is started, so that none is missed.
  const stop = untilStopRequest((signal) =>
    write(`${signal}: still closing (daemon processes get SIGTERM, then SIGKILL)`),
  );
  const bridge = await startBridge({
    upstream: command.upstream,
    port: command.port,
    host: command.host,
    allowRemote: command.allowRemote,
    token: command.token,
    allowedOrigins: command.allowedOrigins,
    allowedHosts: command.allowedHosts,
    maxClients: command.maxClients,
    evictIdleAfterMs: command.evictIdleAfterMs,
    log: print,
  });
  // The pid file is written before the startup lines, so that whoever waits for them finds it.
  const removePidFile = command.pidFile === undefined ? undefined : writePidFile(command.pidFile);
  const tokenNote =
    command.token === undefined
      ? `token: ${bridge.token} (shown once; pass it as Authorization: Bearer …, or to WebSocket clients as the subprotocol glass-bearer.…)`
      : "token: the one you gave (pass it as Authorization: Bearer …, or to WebSocket clients as the subprotocol glass-bearer.…)";
  if (isLoopbackHost(command.host ?? BRIDGE_DEFAULTS.host)) {
    write(`listening on ${bridge.url} (and ${bridge.wsUrl}) — ${tokenNote}`);
  } else {
    // Beyond loopback: every address it answers at (the warning above says what that means).
    const { bound, scope, urls } = listeningAddresses(command.host ?? BRIDGE_DEFAULTS.host, bridge.port);
    write(
      `listening on ${bound}${scope === undefined ? "" : ` (${scope})`}: ${urls.join(", ")} (and the same with ws://) — ${tokenNote}`,
    );
  }
  const upstream = command.upstream;
  if ("socket" in upstream) {
    write(`each client session connects to the daemon socket ${upstream.socket}`);
    if (!existsSync(upstream.socket))
      write(
        `note: nothing is at ${upstream.socket} yet; start the daemon (\`glass daemon start\`) or pass --socket / -- <command>`,
      );
  } else {
    write(`each client session starts \`${[upstream.command, ...(upstream.args ?? [])].join(" ")}\``);
  }
  write(
    command.allowedOrigins.length === 0
      ? "browser pages: none allowed (add --allow-origin http://localhost:5173 to let a page in)"
      : `browser pages allowed from: ${command.allowedOrigins.join(", ")}`,
  );
  try {
    const reason = await stop;
    write(`${reason}: closing every session and every daemon process it started`);
    await closeWithin(() => bridge.close(), CLOSE_LIMIT_MS, "the bridge");
  } finally {
    removePidFile?.();
  }
  return 0;
}
