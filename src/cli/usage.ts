/** The text `glass-sdk --help` prints. */
export const USAGE = `Usage: glass-sdk <command> [options]

Commands:
  mock-daemon   Run a mock Glass daemon that answers from a golden fixture.
                Speaks MCP on stdin/stdout, or on a Unix socket with --socket.

mock-daemon options:
  --fixture FILE   golden fixture to answer from (default: the package's fixtures/protocol-golden-v1.json)
  --socket PATH    listen on this Unix socket (mode 0600, with mutation leases) instead of stdio
  --latency MS     delay every tools/call answer by MS milliseconds (default 0)
  --faults JSON    misbehave on purpose, e.g. '{"stallAfterCalls":2}' or '{"crashAfterCalls":1}'

Other options:
  -h, --help       show this help
  --version        show the package version

Examples:
  npx glass-sdk mock-daemon
  npx glass-sdk mock-daemon --socket /tmp/glass.sock --latency 20
`;

/** Thrown for a command line that cannot be run; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
