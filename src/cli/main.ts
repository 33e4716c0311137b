#!/usr/bin/env node
/**
 * The `glass-sdk` command line: `glass-sdk mock-daemon [--fixture F] [--socket PATH] [--latency MS]`
 * and `glass-sdk bridge [--port N] [--token T] [--allow-origin URL]... [--socket PATH | -- <daemon command...>]`.
 * Exit codes: 0 done, 1 failed (a bad fixture, a taken socket), 2 a command line it cannot run.
 * Everything it says goes to stderr, except what `--help` and `--version` print.
 */
import { GlassError } from "../errors/glass-error.js";
import { packageVersion } from "../testing/node/package-files.js";
import { parseBridgeArgs, runBridge } from "./bridge-command.js";
import { splitAtSeparator } from "./command-line.js";
import { parseMockDaemonArgs, runMockDaemon } from "./mock-daemon-command.js";
import { USAGE, UsageError, usageOf, type CommandName } from "./usage.js";

const COMMANDS: readonly string[] = ["mock-daemon", "bridge"] satisfies CommandName[];

/** The command named by the arguments, once it is known to be one. */
let command: CommandName | undefined;

async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (name === undefined) throw new UsageError(`no command given (the commands are ${COMMANDS.join(" and ")})`);
  if (name === "--version") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (!COMMANDS.includes(name))
    throw new UsageError(`unknown command: ${name} (the commands are ${COMMANDS.join(" and ")})`);
  command = name as CommandName;
  // After `--` come the daemon's own arguments (bridge), which may include --help.
  const { own } = splitAtSeparator(rest);
  if (own.includes("--help") || own.includes("-h")) {
    process.stdout.write(usageOf(command));
    return 0;
  }
  if (command === "bridge") return runBridge(parseBridgeArgs(rest));
  return runMockDaemon(parseMockDaemonArgs(rest));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      // The error last, where the eye lands, and where the help is rather than all of it.
      const where = command === undefined ? "glass-sdk" : `glass-sdk ${command}`;
      process.stderr.write(
        `${where}: ${error.message}\nRun \`${where} --help\` for ${command === undefined ? "the commands" : "its options"}.\n`,
      );
      process.exit(2);
    }
    const message =
      error instanceof GlassError ? error.rawMessage : error instanceof Error ? error.message : String(error);
    process.stderr.write(`glass-sdk: ${message}\n`);
    process.exit(1);
  },
);
