import { realpathSync, statSync, type Stats } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { dirname, resolve as resolvePath } from "node:path";
import { TransportUnavailableError } from "../errors/error-classes.js";
import { describeError } from "../errors/redact.js";
import type { GlassTransport, TransportHandlers } from "../transport/transport.js";
import { closed, ignore } from "../transport/transport-util.js";
import { defaultSocketPath } from "./default-socket-path.js";
import { FramedConnection } from "./framed-connection.js";
import { FrameLimits } from "./framing/frame-limits.js";
import { StreamTransport } from "./stream-transport.js";

/** Where to reach the daemon for a {@link socketTransport}. */
export interface SocketTransportOptions {
  /** The daemon's Unix socket; default `GLASS_SOCKET`, else the daemon's default (`defaultSocketPath()`). */
  path?: string;
  /** How long `close()` waits for the daemon to close its end before destroying the socket; default 2000 ms. */
  closeTimeoutMs?: number;
  /** How long a frame may take to arrive after its first byte before it is dropped as bad; default 10 000 ms. */
  frameTimeoutMs?: number;
  /**
   * Connect even when the socket belongs to another user (refused by default: that process would
   * receive every call and everything typed into pages). Set it only for a socket you know another
   * user runs for you. Default false.
   */
  allowForeignOwner?: boolean;
  /**
   * Connect to a socket whose directory (or one above it) other users may swap it in: writable by
   * group or others without the sticky bit, or (without `allowForeignOwner`) owned by a user other
   * than root and you. Refused by default; see docs/connecting.md, "Transports". Default false.
   */
  allowSharedDirectory?: boolean;
  /**
   * Connect to a Linux abstract socket (a path that starts with `"\0"`), which has no owner or
   * permissions to check: any local user can bind the name first. Refused by default; set it only
   * where no user you do not trust can run processes (in the same network namespace). Default false.
   */
  allowAbstractSocket?: boolean;
}

/**
 * A transport to a running daemon (`glass daemon start`) over its Unix socket (§5: mode 0600,
 * same-user peers only, at most 4 clients and 4 requests in flight per client). Needed for
 * mutation leases (capability `localDaemon`). See docs/connecting.md, "Transports".
 *
 * `start()` rejects with a TransportUnavailableError that says how to fix it when nothing listens
 * at the path, the socket may not be reached, or it fails the owner, directory or abstract-name
 * checks (before anything is sent). The daemon closing the connection ends it with one
 * `onClose(TransportClosedError)`; `close()` resolves once the socket is closed. `bufferedBytes` is
 * what waits to be written for a daemon that stopped reading; there is no `redact`, since the
 * transport holds no secret.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { socketTransport } from "glass-sdk/node";
 *
 * const glass = await Glass.connect(socketTransport()); // GLASS_SOCKET, or ~/.local/share/glass/glass.sock
 * ```
 */
export function socketTransport(options: SocketTransportOptions = {}): GlassTransport {
  return new SocketTransport(options);
}

class SocketTransport extends StreamTransport {
  readonly kind = "socket";
  readonly maxInFlight = 4;
  readonly #path: string;
  readonly #options: SocketTransportOptions;
  readonly #peer: string;
  #socket: Socket | undefined;
  /** The socket error that preceded the close, if any. */
  #lastError: Error | undefined;

  constructor(options: SocketTransportOptions) {
    super();
    this.#options = options;
    const fromEnv = process.env.GLASS_SOCKET;
    this.#path = options.path ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : defaultSocketPath());
    this.#peer = `the Glass daemon at ${this.#path}`;
  }

  protected notStarted(): string {
    return `not connected to ${this.#peer}: call start() first`;
  }

  protected open(handlers: TransportHandlers): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#path.startsWith("\0") && this.#options.allowAbstractSocket !== true) {
        this.markGone();
        reject(this.#abstractRefused());
        return;
      }
      const before = statOf(this.#path);
      let socket: Socket;
      try {
        socket = createConnection({ path: this.#path });
      } catch (error) {
        this.markGone();
        reject(this.#unavailable(error));
        return;
      }
      this.#socket = socket;
      const onConnectError = (error: Error): void => {
        socket.off("connect", onConnected);
        socket.on("error", ignore);
        socket.destroy();
        this.markGone();
        reject(this.#unavailable(error));
      };
      const onConnected = (): void => {
        socket.off("error", onConnectError);
        const refusal = this.#unsafeDirectory() ?? this.#foreignOwner(before);
        if (refusal !== undefined) {
          socket.on("error", ignore);
          socket.destroy();
          this.markGone();
          reject(refusal);
          return;
        }
        socket.on("error", this.#onError);
        socket.once("close", this.#onClose);
        this.connection = new FramedConnection({
          readable: socket,
          writable: socket,
          handlers,
          frameTimeoutMs: this.#options.frameTimeoutMs ?? FrameLimits.frameBodyTimeoutMs,
          peer: this.#peer,
          abandon: () => socket.destroy(),
        });
        resolve();
      };
      socket.once("error", onConnectError);
      socket.once("connect", onConnected);
    });
  }

  protected async end(): Promise<void> {
    const socket = this.#socket;
    if (socket === undefined) return;
    socket.end();
    if (!(await this.goneWithin(this.#options.closeTimeoutMs ?? 2000))) socket.destroy();
    await this.gone;
  }

  #onError = (error: Error): void => {
    this.#lastError = error;
  };

  #onClose = (): void => {
    this.#socket?.off("error", this.#onError);
    this.#socket?.on("error", ignore);
    const lastError = this.#lastError;
    const error = this.closeRequested
      ? undefined
      : closed(
          lastError === undefined
            ? `${this.#peer} closed the connection`
            : `the connection to ${this.#peer} was lost: ${lastError.message}`,
          lastError,
        );
    this.connection?.finish(error);
    this.markGone();
  };

  /**
   * Why the socket just connected to is not to be used: it belongs to another user, or it is not
   * the file that was there a moment before (replaced while connecting). `undefined` when it is the
   * user's own, when `allowForeignOwner` is set, or where there are no user ids (Windows) or no
   * file (a Linux abstract socket, `\0name`).
   */
  #foreignOwner(before: Stats | undefined): TransportUnavailableError | undefined {
    const uid = process.getuid?.();
    if (this.#options.allowForeignOwner === true || uid === undefined || this.#path.startsWith("\0")) return undefined;
    const path = this.#path;
    const after = statOf(path);
    const replaced =
      after === undefined || (before !== undefined && (before.dev !== after.dev || before.ino !== after.ino));
    if (!replaced && after.uid === uid) return undefined;
    const fix =
      "Nothing was sent. Connect to your own daemon's socket (start one with `glass daemon start`, or point GLASS_SOCKET at it), " +
      "and keep sockets out of directories others can write to, such as /tmp; if you trust that user's process, pass socketTransport({ path, allowForeignOwner: true })";
    const message = replaced
      ? `the socket at ${path} was replaced while connecting, so who owns it cannot be told. ${fix}`
      : `the socket at ${path} belongs to another user (uid ${after.uid}; this process runs as uid ${uid}), so it is not your Glass daemon's: ` +
        `a daemon's socket belongs to the user who started it, and anything sent here would reach that user's process. ${fix}`;
    return new TransportUnavailableError({
      message,
      retry: { classification: "notRetryable", recommendedOperation: "connect" },
      details: { path, processUid: uid, ...(after === undefined ? {} : { socketUid: after.uid }) },
    });
  }

  /** The refusal of a Linux abstract socket name without `allowAbstractSocket`. */
  #abstractRefused(): TransportUnavailableError {
    const name = JSON.stringify(this.#path);
    return new TransportUnavailableError({
      message:
        `${name} is a Linux abstract socket name: it has no file, so no owner or permissions, and any local user can bind it before your daemon does. ` +
        "Nothing was sent. Use the daemon's socket file (`glass daemon status` shows it), or, if no user you do not trust can run processes here, " +
        "pass socketTransport({ path, allowAbstractSocket: true })",
      retry: { classification: "notRetryable", recommendedOperation: "connect" },
      details: { path: this.#path },
    });
  }

  /**
   * Why the socket's directory lets another user swap the socket (see `allowSharedDirectory`), or
   * `undefined`: each directory from the socket's up to `/`, both as given and with links resolved,
   * must not be writable by group or others unless it has the sticky bit, and must belong to root
   * or this user (any user with `allowForeignOwner`). Not checked where there are no user ids.
   */
  #unsafeDirectory(): TransportUnavailableError | undefined {
    const uid = process.getuid?.();
    if (this.#options.allowSharedDirectory === true || uid === undefined || this.#path.startsWith("\0"))
      return undefined;
    const path = this.#path;
    const problem = unsafeDirectoryOf(path, uid, this.#options.allowForeignOwner === true);
    if (problem === undefined) return undefined;
    return new TransportUnavailableError({
      message:
        `the socket at ${path} is in a directory another user could swap it in: ${problem.reason}. ` +
        "Nothing was sent. Move the socket to a directory only you can write to (the daemon's default, or $XDG_RUNTIME_DIR), " +
        `${problem.fix}, or, if you trust every user who can write there, pass socketTransport({ path, allowSharedDirectory: true })`,
      retry: { classification: "notRetryable", recommendedOperation: "connect" },
      details: {
        path,
        directory: problem.directory,
        directoryUid: problem.uid,
        directoryMode: `0${(problem.mode & 0o7777).toString(8)}`,
        processUid: uid,
      },
    });
  }

  #unavailable(error: unknown): TransportUnavailableError {
    const code = (error as { code?: unknown } | null)?.code;
    const path = this.#path;
    let message: string;
    const file = code === "ECONNREFUSED" ? statOf(path) : undefined;
    if (file !== undefined && !file.isSocket()) {
      message =
        `${path} is ${file.isDirectory() ? "a directory" : "a regular file"}, not a socket: nothing was sent. Point socketTransport ` +
        "(or GLASS_SOCKET) at the Glass daemon's socket, which `glass daemon status` shows";
    } else if (code === "ENOENT" || code === "ECONNREFUSED") {
      message =
        `no Glass daemon is listening at ${path}: start one with \`glass daemon start\` ` +
        `(or \`npx glass-sdk mock-daemon --socket ${path}\`), or point GLASS_SOCKET at it`;
    } else if (code === "EACCES" || code === "EPERM") {
      message =
        `permission denied connecting to ${path}: the Glass daemon's socket (mode 0600) accepts only the user ` +
        "who started the daemon; run as that user, or start a daemon of your own with `glass daemon start`";
    } else {
      message = `cannot connect to ${this.#peer}: ${describeError(error)}`;
    }
    return new TransportUnavailableError({ message, cause: error });
  }
}

/** The file at `path` (following links, as connecting does), or `undefined` when it cannot be read. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What is wrong with a directory above a socket (see {@link unsafeDirectoryOf}). */
interface DirectoryProblem {
  readonly directory: string;
  readonly uid: number;
  readonly mode: number;
  readonly reason: string;
  readonly fix: string;
}

/**
 * The first directory above `path` (as given, then with links resolved) that lets another user
 * replace what is in it, as OpenSSH's StrictModes judges: writable by group or others without the
 * sticky bit, or owned by a user other than root and `uid` (unless `anyOwner`). `undefined` when
 * there is none, or a directory cannot be read (connecting already worked, so it exists).
 */
function unsafeDirectoryOf(path: string, uid: number, anyOwner: boolean): DirectoryProblem | undefined {
  const given = dirname(resolvePath(path));
  let real: string | undefined;
  try {
    real = realpathSync(given);
  } catch {
    real = undefined;
  }
  for (const start of real === undefined || real === given ? [given] : [given, real]) {
    let directory = start;
    for (;;) {
      const stats = statOf(directory);
      if (stats !== undefined) {
        const { mode } = stats;
        const sticky = (mode & 0o1000) !== 0;
        if ((mode & 0o022) !== 0 && !sticky) {
          const who = (mode & 0o002) !== 0 ? "any user" : "its group";
          return {
            directory,
            uid: stats.uid,
            mode,
            reason: `${directory} (mode 0${(mode & 0o7777).toString(8)}) may be written by ${who} and has no sticky bit`,
            fix: `or make it yours alone (chmod go-w ${directory}, or chmod +t to keep others from renaming what is not theirs)`,
          };
        }
        if (!anyOwner && stats.uid !== 0 && stats.uid !== uid) {
          return {
            directory,
            uid: stats.uid,
            mode,
            reason: `${directory} belongs to another user (uid ${stats.uid}; this process runs as uid ${uid}), who may replace anything in it`,
            fix: "or, if you trust that user, pass allowForeignOwner: true as well",
          };
        }
      }
      const parent = dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
  }
  return undefined;
}
