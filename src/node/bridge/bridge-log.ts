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

/**
 * Characters a terminal acts on rather than shows: C0 controls but tab and line feed, DEL, C1
 * controls (CSI and OSC among them), the Unicode line and paragraph separators, and the
 * bidirectional embedding, override and isolate controls.
 */
const ACTIVE_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** How a line break inside a logged line continues: indented, so it cannot pass for a line of its own. */
const CONTINUATION = "\n    ";

/**
 * Makes a log line safe to print on a terminal, whatever a daemon (its stderr, its messages) or a
 * client (its `Origin`, its `Host`) put in it: every control character becomes visible text
 * (`\x1b`, `\x9b`, `\u202e`), so no ANSI or OSC sequence can act, and each line break inside it
 * (CRLF or LF) is followed by an indent, so quoted text cannot start a line that looks like one of
 * the bridge's own.
 */
export function neutralizeControls(line: string): string {
  return line
    .replace(/\r\n/g, "\n")
    .replace(ACTIVE_CHARACTERS, (character) => {
      const code = character.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
    })
    .replace(/\n/g, CONTINUATION);
}

/**
 * Wraps a log sink so that every line is neutralised ({@link neutralizeControls}) and redacted
 * (defence in depth: the bridge never puts the token in a line on purpose), and a sink that throws
 * cannot break the bridge.
 */
export function createRedactingLog(sink: (line: string) => void, secrets: readonly string[]): (line: string) => void {
  return (line) => {
    try {
      sink(redactSecrets(neutralizeControls(line), secrets));
    } catch {
      // a broken log sink must not take the bridge down
    }
  };
}
