/** What replaces a secret in a message, a log line or recorded data. */
export const REDACTED = "[redacted]";

/**
 * Query and fragment parameters that carry credentials (`?token=`, `&access_token=`, `#id_token=`,
 * `?api_key=`, `?password=`, `?auth=` …): the value, up to the next `&`, `#`, whitespace, quote,
 * angle bracket or backslash (the end of a URL in running text or in JSON), is a secret.
 */
const SECRET_PARAMETERS = /([?&;#](?:[a-z0-9_.-]*(?:token|key|secret|password)|auth)=)[^&#\s"'<>\\]*/gi;

/** Credentials in a URL's authority (`scheme://user:password@host`, or `//user@host`), anywhere in a text. */
const URL_CREDENTIALS = /(\/\/)[^/?#\s"'<>\\]*@/g;

/**
 * A bridge token the way it travels: in the `glass-bearer.<token>` WebSocket subprotocol, and after
 * `Bearer ` (a token, at least 16 characters of RFC 6750 `b64token`, so that prose is left alone).
 */
const TOKEN_CARRIERS: readonly [RegExp, string][] = [
  [/(glass-bearer\.)[A-Za-z0-9._~+/=-]+/g, `$1${REDACTED}`],
  [/(\bbearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi, `$1${REDACTED}`],
];

/**
 * A text as it may appear in an error message, a log or a recording, with its secrets replaced by
 * `[redacted]`: every occurrence of each of `secrets` (as written, and JSON-escaped once or twice,
 * for a secret quoted inside a JSON string), and — whatever their value — credentials in URLs
 * anywhere in the text (`?token=…` and the other parameters above, `user:password@` in an
 * authority) and bridge tokens as they travel (`glass-bearer.…`, `Bearer …`). Linear in the
 * length of the text; empty secrets are ignored. Platform-free and pure.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secretForms(secrets)) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  out = out.replace(SECRET_PARAMETERS, `$1${REDACTED}`).replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  for (const [pattern, replacement] of TOKEN_CARRIERS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A URL as it may appear in an error message or a log: credentials in the query (`?token=…`, the way
 * WebSocket clients that cannot set headers pass the bridge's token) and in the authority
 * (`user:password@`) are replaced by `[redacted]` (see {@link redactText}).
 */
export function redactUrl(url: string): string {
  return redactText(url);
}

/** Each secret as written and JSON-escaped once and twice, without empty ones, longest first (so a secret inside another goes with it). */
function secretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const once = JSON.stringify(secret).slice(1, -1);
    forms.add(secret).add(once).add(JSON.stringify(once).slice(1, -1));
  }
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}
