// The SDK's debug log: the client's log events, one line each, on stderr, when the environment asks
// for it (GLASS_DEBUG=1, or DEBUG=glass-sdk). Browser-safe: it reads the environment and stderr
// through `globalThis.process`, which browsers do not have, so there it never turns on.

import { neutraliseControls } from "../errors/redact.js";
import type { GlassLogEvent } from "./options.js";

/** What this module needs of Node's `process`, when there is one. */
interface ProcessLike {
  env?: Readonly<Record<string, string | undefined>>;
  stderr?: { write(text: string): unknown };
}

function nodeProcess(): ProcessLike | undefined {
  const candidate = (globalThis as { process?: unknown }).process;
  return typeof candidate === "object" && candidate !== null ? (candidate as ProcessLike) : undefined;
}

/** The name the debug log answers to in `DEBUG` and starts its lines with. */
const NAMESPACE = "glass-sdk";

/**
 * Whether the environment asks for the debug log: `GLASS_DEBUG` set to anything but `""`, `0` or
 * `false`, or `DEBUG` naming `glass-sdk` the way the `debug` package reads it (names separated by
 * commas or spaces, `*` matching anything, a leading `-` excluding: `DEBUG=glass-sdk`,
 * `DEBUG=glass-sdk*`, `DEBUG=*,-express*`). Without a Node-like `process` (a browser): false.
 */
export function debugLogRequested(
  env: Readonly<Record<string, string | undefined>> | undefined = environment(),
): boolean {
  if (env === undefined) return false;
  const flag = env.GLASS_DEBUG?.trim().toLowerCase();
  if (flag !== undefined && flag !== "" && flag !== "0" && flag !== "false") return true;
  return namesNamespace(env.DEBUG ?? "");
}

function environment(): Readonly<Record<string, string | undefined>> | undefined {
  try {
    return nodeProcess()?.env;
  } catch {
    return undefined; // an environment that refuses to be read (a sandbox) asks for nothing
  }
}

/** Whether a `DEBUG` value enables {@link NAMESPACE}: some name matches it and no `-name` excludes it. */
function namesNamespace(value: string): boolean {
  let enabled = false;
  for (const name of value.split(/[\s,]+/)) {
    if (name === "") continue;
    const excluded = name.startsWith("-");
    if (!matches(excluded ? name.slice(1) : name)) continue;
    if (excluded) return false;
    enabled = true;
  }
  return enabled;
}

/** Whether a `DEBUG` pattern (`*` matching any run of characters) matches {@link NAMESPACE}. */
function matches(pattern: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === NAMESPACE;
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i === 0) {
      if (!NAMESPACE.startsWith(part)) return false;
      at = part.length;
    } else if (i === parts.length - 1) {
      return NAMESPACE.length - part.length >= at && NAMESPACE.endsWith(part);
    } else {
      const found = NAMESPACE.indexOf(part, at);
      if (found === -1) return false;
      at = found + part.length;
    }
  }
  return true;
}

const PLAIN_VALUE = /^[\w.:/@+-]+$/;

/**
 * A log event as one line of text: `glass-sdk <type> key=value …`, a value that is not a plain
 * word written as a JSON string, control characters escaped (so it stays one line). The event is written as the client
 * gave it to loggers: already scrubbed of the secrets the client knows.
 */
export function formatLogEvent(event: GlassLogEvent): string {
  const { type, ...fields } = event;
  const parts = [`${NAMESPACE} ${type}`];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : String(value);
    parts.push(`${key}=${typeof value === "string" && !PLAIN_VALUE.test(text) ? JSON.stringify(text) : text}`);
  }
  return neutraliseControls(parts.join(" "));
}

/**
 * A logger that writes each event as a line (see {@link formatLogEvent}) to stderr (`console.error`
 * where there is no `process.stderr`). A failing write is ignored: logging never breaks a call.
 */
export function stderrLogger(): (event: GlassLogEvent) => void {
  return (event) => {
    try {
      const line = `${formatLogEvent(event)}\n`;
      const stderr = nodeProcess()?.stderr;
      if (stderr !== undefined && typeof stderr.write === "function") stderr.write(line);
      else console.error(line.slice(0, -1));
    } catch {
      // a closed stderr: nothing to do
    }
  };
}
