import { createRedactor, neutraliseControls } from "../../errors/redact.js";

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
 * Wraps a log sink so that every line is neutralised ({@link neutraliseLogLine}) and scrubbed of
 * `secrets` and of credentials carried the usual ways (`?token=…`, `glass-bearer.…`, `Bearer …`;
 * see `createRedactor`) — defence in depth: the bridge never puts the token in a line on purpose —
 * and a sink that throws cannot break the bridge.
 */
export function createRedactingLog(sink: (line: string) => void, secrets: readonly string[]): (line: string) => void {
  const redact = createRedactor(secrets);
  return (line) => {
    try {
      sink(redact(neutraliseLogLine(line)));
    } catch {
      // a broken log sink must not take the bridge down
    }
  };
}
