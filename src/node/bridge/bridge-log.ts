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
 * Wraps a log sink so that every line is redacted first (defence in depth: the bridge never puts
 * the token in a line on purpose) and a sink that throws cannot break the bridge.
 */
export function createRedactingLog(sink: (line: string) => void, secrets: readonly string[]): (line: string) => void {
  return (line) => {
    try {
      sink(redactSecrets(line, secrets));
    } catch {
      // a broken log sink must not take the bridge down
    }
  };
}
