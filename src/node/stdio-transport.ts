import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import { describeError } from "../errors/redact.js";
import type { GlassTransport, TransportHandlers } from "../transport/transport.js";
import { ignore } from "../transport/transport-util.js";
import { FramedConnection } from "./framed-connection.js";
import { FrameLimits } from "./framing/frame-limits.js";
import { StreamTransport } from "./stream-transport.js";

/** How to start the daemon for a {@link stdioTransport}. */
export interface StdioTransportOptions {
  /** The daemon's executable: `glass` or `glass-browser` (found on PATH), or a full path. */
  command: string;
  /** Its arguments; default none. The real daemon needs `["--mcp"]`. */
  args?: readonly string[];
  /** Its working directory; default this process's. */
  cwd?: string;
  /** Variables added to this process's environment for the daemon (a variable set to `undefined` is removed). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The daemon's stderr (its diagnostics): `pipe` (default) keeps the last 4 KiB to quote when it
   * dies; `inherit` shares this process's stderr; `ignore` discards it.
   */
  stderr?: "inherit" | "pipe" | "ignore";
  /** How long `close()` waits for the daemon to exit after its stdin ends before SIGTERM; default 2000 ms. */
  closeTimeoutMs?: number;
  /** How long a frame may take to arrive after its first byte before it is dropped as bad; default 10 000 ms. */
  frameTimeoutMs?: number;
}

/** How much of the daemon's stderr is kept for error messages. */
const STDERR_TAIL_BYTES = 4096;
/** After SIGTERM, how long the daemon has to exit before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the daemon exits, how long its pipes may stay open (held by a process it started) before they are destroyed. */
const PIPE_DRAIN_MS = 1000;

/**
 * A transport that starts the daemon as a child process (`glass --mcp`) and speaks MCP over its
 * stdin and stdout (§5: stdout carries only MCP; diagnostics go to stderr). Up to 8 requests in
 * flight.
 *
 * `start()` rejects with a TransportUnavailableError that says how to fix it when the command is
 * missing or not executable. The daemon's exit (or crash) ends the connection with one
 * `onClose(TransportClosedError)` naming the exit code or signal and quoting its stderr. `close()`
 * ends stdin (the daemon then cancels its work and exits), waits `closeTimeoutMs`, then sends
 * SIGTERM and, a second later, SIGKILL; it resolves when the process is gone. `bufferedBytes` is
 * what waits to be written to the daemon's stdin; there is no `redact`, since the transport holds
 * no secret.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { stdioTransport } from "glass-sdk/node";
 *
 * const glass = await Glass.connect(stdioTransport({ command: "glass", args: ["--mcp"] }));
 * ```
 */
export function stdioTransport(options: StdioTransportOptions): GlassTransport {
  return new StdioTransport(options);
}

class StdioTransport extends StreamTransport {
  readonly kind = "stdio";
  readonly maxInFlight = 8;
  readonly #options: StdioTransportOptions;
  readonly #peer: string;
  readonly #stderrTail = new StderrTail();
  #child: ChildProcess | undefined;
  #pipeDrainTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StdioTransportOptions) {
    super();
    this.#options = options;
    this.#peer = `the Glass daemon \`${[options.command, ...(options.args ?? [])].join(" ")}\``;
  }

  protected notStarted(): string {
    return `${this.#peer} is not running: call start() first`;
  }

  protected open(handlers: TransportHandlers): Promise<void> {
    const { command, args = [], cwd, env, stderr = "pipe" } = this.#options;
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(command, [...args], {
          cwd,
          env: env === undefined ? process.env : { ...process.env, ...env },
          stdio: ["pipe", "pipe", stderr],
          windowsHide: true,
        });
      } catch (error) {
        this.markGone();
        reject(this.#unavailable(error));
        return;
      }
      this.#child = child;
      const onSpawnError = (error: Error): void => {
        child.off("spawn", onSpawned);
        child.on("error", ignore);
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on("error", ignore).destroy();
        this.markGone();
        reject(this.#unavailable(error));
      };
      const onSpawned = (): void => {
        child.off("error", onSpawnError);
        child.on("error", ignore); // a failed kill(); the exit that follows is what counts
        child.stderr?.on("data", this.#onStderr);
        child.once("exit", this.#onExit);
        child.once("close", this.#onClose);
        this.connection = new FramedConnection({
          readable: child.stdout!,
          writable: child.stdin!,
          handlers,
          frameTimeoutMs: this.#options.frameTimeoutMs ?? FrameLimits.frameBodyTimeoutMs,
          peer: this.#peer,
          // Ends stdin (a daemon then exits), then SIGTERM and SIGKILL as close() does.
          abandon: () => void this.close(),
        });
        resolve();
      };
      child.once("error", onSpawnError);
      child.once("spawn", onSpawned);
    });
  }

  protected async end(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    child.stdin?.end();
    if (await this.goneWithin(this.#options.closeTimeoutMs ?? 2000)) return;
    child.kill("SIGTERM");
    if (await this.goneWithin(KILL_GRACE_MS)) return;
    child.kill("SIGKILL");
    await this.gone;
  }

  #onStderr = (chunk: Buffer): void => {
    this.#stderrTail.append(chunk);
  };

  #onExit = (): void => {
    // 'close' normally follows once stdout has drained; a grandchild holding the pipes must not delay it forever.
    const child = this.#child;
    this.#pipeDrainTimer = setTimeout(() => {
      for (const stream of [child?.stdin, child?.stdout, child?.stderr]) stream?.destroy();
    }, PIPE_DRAIN_MS);
  };

  #onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (this.#pipeDrainTimer !== undefined) clearTimeout(this.#pipeDrainTimer);
    this.#child?.stderr?.off("data", this.#onStderr);
    const error = this.closeRequested
      ? undefined
      : new TransportClosedError({ message: this.#describeExit(code, signal) });
    this.connection?.finish(error);
    this.markGone();
  };

  #describeExit(code: number | null, signal: NodeJS.Signals | null): string {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? "unknown"}`;
    const tail = this.#stderrTail.text();
    return tail === "" ? `${this.#peer} ${how}` : `${this.#peer} ${how}; the end of its stderr:\n${tail}`;
  }

  #unavailable(error: unknown): TransportUnavailableError {
    const { command, cwd } = this.#options;
    const code = (error as { code?: unknown } | null)?.code;
    const fix =
      `Install the Glass daemon so that \`${command}\` is on PATH (${pathNote(this.#options.env)}), or pass its full path as \`command\` to stdioTransport() ` +
      '(for the mock daemon: stdioTransport({ command: "npx", args: ["glass-sdk", "mock-daemon"] })).';
    let message: string;
    if (code === "ENOENT" && cwd !== undefined && !existsSync(cwd)) {
      message = `cannot start ${this.#peer}: its working directory ${cwd} does not exist`;
    } else if (code === "ENOENT") {
      message = `cannot start ${this.#peer}: the command \`${command}\` was not found. ${fix}`;
    } else if (code === "EACCES") {
      message = `cannot start ${this.#peer}: \`${command}\` is not executable (permission denied). Make it executable (chmod +x), or: ${fix}`;
    } else {
      message = `cannot start ${this.#peer}: ${describeError(error)}. ${fix}`;
    }
    return new TransportUnavailableError({ message, cause: error });
  }
}

/** The PATH the command was looked up on, cut short, or that there is none. */
function pathNote(env: StdioTransportOptions["env"]): string {
  const path = env !== undefined && "PATH" in env ? env.PATH : process.env.PATH;
  if (path === undefined || path === "") return "this process has no PATH";
  return `PATH is ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`;
}

/** The last few KiB a process wrote to stderr. */
class StderrTail {
  #bytes: Buffer = Buffer.alloc(0);

  append(chunk: Buffer): void {
    this.#bytes =
      chunk.length >= STDERR_TAIL_BYTES
        ? Buffer.from(chunk.subarray(chunk.length - STDERR_TAIL_BYTES))
        : Buffer.concat([this.#bytes, chunk]).subarray(-STDERR_TAIL_BYTES);
  }

  /** The tail as text, trimmed (a character cut in half at the start is dropped). */
  text(): string {
    return this.#bytes
      .toString("utf8")
      .replace(/^\uFFFD+/, "")
      .trim();
  }
}
