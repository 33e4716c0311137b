/** The commands of `glass-sdk`. */
export type CommandName = "mock-daemon" | "bridge";

/** The text `glass-sdk --help` prints: the commands, and where each one's options are. */
export const USAGE = `Usage: glass-sdk <command> [options]

Commands:
  mock-daemon   Run a mock Glass daemon: a simulated site by default, or a fixture, or typed handlers.
                Speaks MCP on stdin/stdout, or on a Unix socket with --socket.
  bridge        Expose a Glass daemon to browser pages and remote scripts as MCP
                Streamable HTTP and WebSocket at http://127.0.0.1:8787/mcp, behind a token.

Options:
  -h, --help       show this help
  --version        show the package version

Run \`glass-sdk <command> --help\` for a command's options.
`;

/** The text `glass-sdk mock-daemon --help` prints. */
export const MOCK_DAEMON_USAGE = `Usage: glass-sdk mock-daemon [options]

Runs a mock Glass daemon: a simulated site by default, or a fixture, or typed handlers. Speaks MCP on
stdin/stdout (it exits when stdin ends), or on a Unix socket with --socket (until SIGINT, SIGTERM or
SIGHUP, which remove the socket, or, run in the foreground of a terminal, until its parent ends).

Options:
  --fixture FILE   replay this fixture instead of serving the simulated site (the package's own is
                   node_modules/glass-sdk/fixtures/protocol-golden-v1.json); with --fast, default that one
  --site           serve the simulated site under the fixture's exact matches (on without --fixture)
  --ignore-field F leave field F out when matching payloads to the fixture's (repeatable): a name,
                   e.g. expectedRevision, at any depth, or a JSON pointer such as /target/name
  --handlers FILE  a module whose default export is typed handlers by operation, e.g.
                   export default { "browser.getText": () => ({ text: "hi" }) }; they answer
                   their operations, the site or the fixture the rest (over stdio, console.log
                   goes to stderr)
  --site-origin URL serve the simulated site at this origin instead of https://shop.example (implies --site)
  --socket PATH    listen on this Unix socket (mode 0600, with mutation leases) instead of stdio;
                   put it in a directory only you can write to (not /tmp itself)
  --pid-file FILE  write the daemon's own pid to FILE while it runs (removed when it stops), so
                   that kill "$(cat FILE)" stops the daemon itself, not npm or a shell around it
  --latency MS     delay every tools/call answer by MS milliseconds (default 0)
  --faults JSON    misbehave on purpose, e.g. '{"stallAfterCalls":2}' or '{"crashAfterCalls":1}'
  --fast           fast replay mode for benchmarks: read-only tools answered at once from one
                   precomputed result per operation, whatever the payload (not matched, not
                   validated, not recorded); JSON lines up to 4 MiB. Not with --latency/--faults/--handlers
  -h, --help       show this help

Examples:
  npx glass-sdk mock-daemon
  npx glass-sdk mock-daemon --socket "$(mktemp -d)/glass.sock" --latency 20
  npx glass-sdk mock-daemon --handlers ./test/glass-handlers.mjs
`;

/** The text `glass-sdk bridge --help` prints. */
export const BRIDGE_USAGE = `Usage: glass-sdk bridge [options] [-- COMMAND ARGS...]

Exposes a Glass daemon to browser pages and remote scripts as MCP Streamable HTTP and WebSocket at
http://127.0.0.1:8787/mcp, behind a token. Runs until SIGINT, SIGTERM or SIGHUP (or, run in the
foreground of a terminal, until its parent ends), which end every session and every daemon process
it started.

Options:
  --port N             TCP port (default 8787; 0 = any free port)
  --host H             address to listen on (default 127.0.0.1)
  --allow-remote       required with a --host that is not a loopback address
                       (the token is still required; put TLS in front of it)
  --token T            the token clients must present (default: 32 random bytes,
                       printed once at startup). --token is visible in the process
                       list: prefer the GLASS_BRIDGE_TOKEN environment variable
  --allow-origin URL   let browser pages from this origin in (repeatable; default none)
  --allow-host NAME    accept this Host header name, or NAME:PORT (repeatable; beyond
                       localhost, 127.0.0.1 and [::1] on the bridge's port)
  --max-clients N      client sessions at once (default 4)
  --evict-idle-after S when all are taken, a new session takes the place of the one
                       idle longest if it has been idle S seconds or more (default 30)
  --socket PATH        the daemon's Unix socket (default GLASS_SOCKET, else the daemon's
                       default path, e.g. ~/.local/share/glass/glass.sock)
  --pid-file FILE      write the bridge's own pid to FILE while it runs (removed when it
                       stops): kill "$(cat FILE)" stops the bridge itself
  -- COMMAND ARGS...   instead of a socket: start this daemon command for each client
                       session, e.g. -- glass --mcp
  -h, --help           show this help

Clients send the token as Authorization: Bearer <token>; over WebSocket (subprotocol
mcp) also as the subprotocol glass-bearer.<token> (browsers) or ?token=<token> (less
private: URLs end up in histories and logs).

Examples:
  npx glass-sdk bridge --allow-origin http://localhost:5173
  npx glass-sdk bridge --port 0 -- glass --mcp
`;

/** The help of a command, or of `glass-sdk` itself. */
export function usageOf(command: CommandName | undefined): string {
  if (command === "mock-daemon") return MOCK_DAEMON_USAGE;
  if (command === "bridge") return BRIDGE_USAGE;
  return USAGE;
}

/** Thrown for a command line that cannot be run; the CLI prints the message and where the help is, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
