import { Console } from "node:console";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseFaults, type MockDaemonFaults } from "../mock-daemon/faults.js";
import { checkHandlers } from "../mock-daemon/handler-call.js";
import type { MockHandlers } from "../mock-daemon/handlers.js";
import { siteOrigin } from "../mock-daemon/site/index.js";
import type { WritableByteStream } from "../testing/node/byte-streams.js";
import { startMockDaemon } from "../testing/node/start-mock-daemon.js";
import { closeWithin, forEachOption, PARENT_ENDED, untilStopRequest, writePidFile } from "./command-line.js";
import { UsageError } from "./usage.js";

/** The options of `glass-sdk mock-daemon`. */
export interface MockDaemonCommand {
  /** `--fixture`: the fixture file. */
  fixture?: string;
  /** `--socket`: the Unix socket path to listen on. */
  socket?: string;
  /** `--latency`: the delay before each tools/call answer, in ms. */
  latencyMs?: number;
  /** `--faults`: the faults to show. */
  faults?: MockDaemonFaults;
  /** `--fast`: fast replay mode, for benchmarks (see `fast` of `startMockDaemon`). */
  fast?: boolean;
  /** `--ignore-field` (repeatable): fields left out when payloads are matched (see `match.ignore` of `startMockDaemon`). */
  ignoreFields?: string[];
  /** `--handlers`: the module whose default export is the typed handlers. */
  handlers?: string;
  /** `--site`: serve the simulated site under the fixture's exact matches (it is on anyway without `--fixture`). */
  site?: boolean;
  /** `--site-origin`: the simulated site's origin (see `site.origin` of `startMockDaemon`); serves the site. */
  siteOrigin?: string;
  /** `--pid-file`: where the daemon writes its own pid while it runs (removed when it stops). */
  pidFile?: string;
}

/** Reads the arguments after `mock-daemon` (`--name value` or `--name=value`); throws a {@link UsageError}. */
export function parseMockDaemonArgs(args: readonly string[]): MockDaemonCommand {
  const command: MockDaemonCommand = {};
  forEachOption(args, ({ arg, name, value, flag }) => {
    switch (name) {
      case "--fixture":
        command.fixture = value();
        break;
      case "--socket":
        command.socket = value();
        break;
      case "--pid-file":
        command.pidFile = value();
        break;
      case "--latency": {
        const text = value();
        if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
          throw new UsageError(`--latency needs a whole number of milliseconds, not ${JSON.stringify(text)}`);
        }
        command.latencyMs = Number(text);
        break;
      }
      case "--faults":
        command.faults = readFaults(value());
        break;
      case "--fast":
        flag();
        command.fast = true;
        break;
      case "--ignore-field":
        command.ignoreFields = [...(command.ignoreFields ?? []), value()];
        break;
      case "--handlers":
        command.handlers = value();
        break;
      case "--site":
        flag();
        command.site = true;
        break;
      case "--site-origin":
        command.siteOrigin = readSiteOrigin(value());
        break;
      default:
        // Name the option only, as the bridge does: a mistyped --option=value need not be echoed.
        throw new UsageError(`unknown option: ${arg.startsWith("-") ? name : JSON.stringify(arg)}`);
    }
  });
  if (command.fast === true && ((command.latencyMs ?? 0) > 0 || command.faults !== undefined)) {
    throw new UsageError(
      "--fast answers at once and shows no faults: it cannot be combined with --latency or --faults",
    );
  }
  if (command.fast === true && command.handlers !== undefined) {
    throw new UsageError("--fast answers from the fixture alone: it cannot be combined with --handlers");
  }
  return command;
}

function readSiteOrigin(text: string): string {
  try {
    return siteOrigin(text);
  } catch {
    throw new UsageError(
      `--site-origin needs an http: or https: origin such as http://127.0.0.1:8080, with no path, not ${JSON.stringify(text)}`,
    );
  }
}

function readFaults(text: string): MockDaemonFaults {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--faults needs a JSON object, e.g. '{"stallAfterCalls":2}'`);
  }
  try {
    return parseFaults(json);
  } catch (error) {
    throw new UsageError(`--faults: ${(error as Error).message}`);
  }
}

/**
 * Runs the mock daemon until it is told to stop: over stdio until stdin ends (so it ends with the
 * process that started it, whose end closes the pipe), or on a socket until SIGINT, SIGTERM or
 * SIGHUP — and, run in the foreground of a terminal, until its parent process ends — so that it
 * can run in the background (the socket file is removed; a warning says when its directory is writable by other users,
 * and when it is writable by group or others without the sticky bit, which clients refuse). Diagnostics go to stderr
 * only. Resolves with the exit code: 1 when a framing violation ended the stdio session; the crash
 * fault exits the process with 1.
 */
export async function runMockDaemon(command: MockDaemonCommand): Promise<number> {
  let exitCode = 0;
  // Over stdio, stdout carries only MCP: whatever handlers print goes to stderr.
  const mcpOutput = command.socket === undefined && command.handlers !== undefined ? keepStdoutForMcp() : undefined;
  // On a socket: listen for the stop signals before starting, so that none is missed (over stdio,
  // a signal ends the process as usual: it has nothing to clean up).
  const stop = command.socket === undefined ? undefined : untilStopRequest();
  const handlers = command.handlers === undefined ? undefined : await loadHandlers(command.handlers);
  const daemon = await startMockDaemon({
    fixture: command.fixture,
    handlers,
    site: command.siteOrigin !== undefined ? { origin: command.siteOrigin } : command.site,
    socket: command.socket,
    stdout: mcpOutput,
    latencyMs: command.latencyMs,
    faults: command.faults,
    fast: command.fast,
    match: command.ignoreFields === undefined ? undefined : { ignore: command.ignoreFields },
    onCrash: () => {
      process.stderr.write("mock daemon: crashing on purpose (crashAfterCalls fault)\n");
      process.exit(1);
    },
    onFramingViolation: (clientId, reason) => {
      process.stderr.write(
        `mock daemon: ${clientId} broke the framing rules (${reason}); connection closed without a reply\n`,
      );
      if (clientId === "stdio") exitCode = 1;
    },
  });
  const removePidFile = command.pidFile === undefined ? undefined : writePidFile(command.pidFile);
  try {
    return await untilStopped(daemon, stop, () => exitCode);
  } finally {
    removePidFile?.();
  }
}

/** Waits for the daemon's end (stdio) or a stop request (socket, then closes it); resolves with the exit code. */
async function untilStopped(
  daemon: Awaited<ReturnType<typeof startMockDaemon>>,
  stop: Promise<string> | undefined,
  exitCode: () => number,
): Promise<number> {
  if (stop !== undefined && daemon.socketPath !== undefined) {
    const warning = await sharedDirectoryWarning(daemon.socketPath);
    process.stderr.write(`mock daemon listening on ${daemon.socketPath}\n`);
    if (warning !== undefined) process.stderr.write(`mock daemon: warning: ${warning}\n`);
    const reason = await stop;
    if (reason === PARENT_ENDED) process.stderr.write(`mock daemon: ${reason}; stopping\n`);
    await closeWithin(() => daemon.close(), 10_000, "the mock daemon");
    return 0;
  }
  await daemon.stopped;
  return exitCode();
}

/**
 * Loads `--handlers`: the module at `path` (relative to the working directory), imported as a file
 * URL, whose default export is the handlers by operation. Throws an Error saying what is wrong
 * when the module cannot be loaded, has no default export, or exports something that is not
 * handlers.
 */
export async function loadHandlers(path: string): Promise<MockHandlers> {
  const file = resolve(path);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === "ERR_MODULE_NOT_FOUND" && !(await exists(file))
        ? "no such file"
        : error instanceof Error
          ? error.message
          : String(error);
    throw new Error(`--handlers: cannot load ${path}: ${why}`);
  }
  if (module.default === undefined) {
    throw new Error(
      `--handlers: ${path} has no default export; export the handlers: export default { "browser.observe": (payload) => ({ … }) }`,
    );
  }
  try {
    return checkHandlers(module.default);
  } catch (error) {
    throw new Error(`--handlers: the default export of ${path} is not handlers: ${(error as Error).message}`);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Keeps stdout, the MCP stream, for MCP alone while handler modules run in this process: every
 * method of the global console (`log`, `dir`, `table`, `trace`, `group`, `count`, `time`, `assert`…,
 * also as `import console from "node:console"` gives it) now writes to stderr, as does
 * `process.stdout.write`. Returns the stream the daemon writes MCP to: stdout's own `write`, taken
 * before it was redirected (never ended, as stdout is not).
 */
function keepStdoutForMcp(): WritableByteStream {
  const stdout = process.stdout;
  const writeStdout = stdout.write.bind(stdout);
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const methods = console as unknown as Record<string, unknown>;
  for (const [name, method] of Object.entries(toStderr)) {
    if (typeof method === "function") methods[name] = method;
  }
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return {
    get destroyed() {
      return stdout.destroyed;
    },
    get writableEnded() {
      return stdout.writableEnded;
    },
    write: (chunk) => writeStdout(chunk),
    end: () => undefined,
    on: (event, listener) => stdout.on(event, listener),
    once: (event, listener) => stdout.once(event, listener),
    off: (event, listener) => stdout.off(event, listener),
  };
}

/**
 * Why the socket's directory is a risky place for it, or `undefined`: in a directory other users
 * may write to (such as /tmp), one of them can put a socket of their own at the path before the
 * daemon starts or after it stops, and clients would talk to it.
 */
async function sharedDirectoryWarning(path: string): Promise<string | undefined> {
  const directory = dirname(path);
  const mode = await stat(directory).then(
    (stats) => stats.mode,
    () => undefined,
  );
  if (mode === undefined || (mode & 0o022) === 0) return undefined;
  const prefer = "prefer a directory only you can write to ($XDG_RUNTIME_DIR, or one made by mktemp -d)";
  if ((mode & 0o1000) === 0) {
    return `${directory} is writable by ${(mode & 0o002) === 0 ? "its group" : "other users"} and has no sticky bit: another user could swap a socket of their own in at ${path}, so socketTransport refuses it (unless given allowSharedDirectory: true); ${prefer}`;
  }
  if ((mode & 0o002) === 0) return undefined;
  return `${directory} is writable by other users: one of them could put a socket of their own at ${path} before the daemon starts or once it stops, and clients would talk to it; ${prefer}`;
}
