import { neutraliseControls } from "../../errors/redact.js";

/** What replaces a secret in a log line. */
const REDACTED = "[redacted]";

/** Token carriers that may show up in a line even when the value is not the bridge's own token. */
const CARRIERS: readonly [RegExp, string][] = [
  [/([?&;]token=)[^&\s"';]*/gi, `$1${REDACTED}`],
  [/(glass-bearer\.)[^\s,"';]*/gi, `$1${REDACTED}`],
  [/(bearer\s+)[^\s,"';]+/gi, `$1${REDACTED}`],
];

/**
 * Removes secrets from a log line: every occurrence of the given secrets, plus anything carried the
 * way tokens travel (`?token=…`, `glass-bearer.…`, `Bearer …`), whatever its value.
 */
export function redactSecrets(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) if (secret !== "") out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of CARRIERS) out = out.replace(pattern, replacement);
  return out;
}

/** How a line break inside a logged line continues: indented, so it cannot pass for a line of its own. */
const CONTINUATION = "    ";

/**
 * Makes a log line safe to print on a terminal, whatever a daemon (its stderr, its messages) or a
 * client (its `Origin`, its `Host`) put in it: every control character becomes visible text
 * (`\u001b`, `\u009b`, `\u202e`; see {@link neutraliseControls}), so no ANSI or OSC sequence can
 * act, and each line break inside it (CRLF or LF) is followed by an indent, so quoted text cannot
 * start a line that looks like one of the bridge's own.
 */
export function neutraliseLogLine(line: string): string {
  return neutraliseControls(line, { keepLineBreaks: true, indentLineBreaks: CONTINUATION });
}

/**
 * Wraps a log sink so that every line is neutralised ({@link neutraliseLogLine}) and redacted
 * (defence in depth: the bridge never puts the token in a line on purpose), and a sink that throws
 * cannot break the bridge.
 */
export function createRedactingLog(sink: (line: string) => void, secrets: readonly string[]): (line: string) => void {
  return (line) => {
    try {
      sink(redactSecrets(neutraliseLogLine(line), secrets));
    } catch {
      // a broken log sink must not take the bridge down
    }
  };
}
