/**
 * The one home of the SDK's scrubbing of text that may carry secrets or terminal controls: error
 * messages and details, log events and lines, recorded fixtures. Every function is linear in the
 * length of its input (no regular expression here can backtrack), never throws for a string, and
 * is browser-safe.
 */
import { MAX_JSON_DEPTH } from "../validation/json-depth.js";
import { isJsonObject } from "../validation/json-value.js";

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * Query and fragment parameters that carry credentials (`?token=`, the way WebSocket clients pass
 * the bridge's token, `&access_token=`, `#id_token=`, `?api_key=`, `?password=`, `?auth=` …): the
 * value, up to the next `&`, `#`, `;`, whitespace, quote, angle bracket or backslash, is a secret.
 */
const CREDENTIAL_PARAMETERS = /([?&;#](?:[a-z0-9_.-]*(?:token|key|secret|password)|auth)=)[^&#\s"'<>;\\]*/gi;
/** A token after `Bearer ` (at least 16 characters of RFC 6750 `b64token`, so that prose is left alone). */
const BEARER_TOKEN = /(\bbearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi;
/** The WebSocket subprotocol that carries the bridge's token (`glass-bearer.<token>`). */
const BEARER_SUBPROTOCOL = /(glass-bearer\.)[^\s,"';]+/gi;
const BEARER_PREFIX = /glass-bearer\./i;

/**
 * Whether a character ends the authority of a URL (`scheme://authority/…`) as far as credentials
 * go: `/ ? #`, a backslash, whitespace, a quote, `<` or `>`, or a control character.
 */
function endsAuthority(c: number): boolean {
  return c <= 0x20 || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x7f;
}

/**
 * `scheme://user:password@host` → `scheme://[redacted]@host`, for every URL anywhere in the text
 * (the last `@` of an authority ends its credentials, as URL parsers read it). One pass.
 */
function redactUserinfo(text: string): string {
  let at = text.indexOf("://");
  if (at === -1) return text;
  let out = "";
  let copied = 0;
  while (at !== -1) {
    const start = at + 3;
    let end = start;
    let lastAt = -1;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c === 0x40) lastAt = end;
      else if (endsAuthority(c)) break;
    }
    if (lastAt > start) {
      out += `${text.slice(copied, start)}${REDACTED}`;
      copied = lastAt;
    }
    at = text.indexOf("://", end);
  }
  return out + text.slice(copied);
}

/**
 * A function that scrubs a text: every occurrence of each secret — as written, JSON-escaped once
 * or twice (inside a string that is itself JSON), or percent-encoded — and, whatever their value,
 * credentials in URLs (`user:password@` anywhere in the text, `?token=`, `#access_token=`, `auth=`,
 * `api_key=`, `password=` …) and the bridge's token as it travels (`glass-bearer.…`, `Bearer …`) are replaced by
 * {@link REDACTED}; so is the beginning of a secret at the end of a text cut short (ending in `…`).
 * Empty secrets are ignored; longer ones are replaced first.
 */
export function createRedactor(secrets: Iterable<string> = []): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret === "") continue;
    const once = JSON.stringify(secret).slice(1, -1);
    forms.add(secret).add(once).add(JSON.stringify(once).slice(1, -1));
    try {
      forms.add(encodeURIComponent(secret));
    } catch {
      // a lone surrogate cannot be percent-encoded; the other forms still count
    }
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (out.endsWith(CUT)) out = redactCutSecret(out, ordered);
    if (out.includes("://")) out = redactUserinfo(out);
    if (out.includes("=")) out = out.replace(CREDENTIAL_PARAMETERS, `$1${REDACTED}`);
    if (BEARER_PREFIX.test(out)) out = out.replace(BEARER_SUBPROTOCOL, `$1${REDACTED}`);
    out = out.replace(BEARER_TOKEN, `$1${REDACTED}`);
    return out;
  };
}

/** How a shortened text ends (see `truncateUtf8`). */
const CUT = "…";
/** The shortest beginning of a secret worth hiding where a text was cut. */
const MIN_CUT_SECRET = 8;

/** Secrets longer than this are not looked for where a text was cut (the check is quadratic in their length). */
const MAX_CUT_SECRET = 256;

/** A text cut short in the middle of a secret (`…abcdefgh12…`): the part of the secret before the cut is hidden too. */
function redactCutSecret(text: string, secrets: readonly string[]): string {
  const body = text.slice(0, -CUT.length);
  for (const secret of secrets) {
    if (secret.length > MAX_CUT_SECRET) continue;
    for (let length = Math.min(secret.length - 1, body.length); length >= MIN_CUT_SECRET; length--) {
      if (body.endsWith(secret.slice(0, length))) return `${body.slice(0, -length)}${REDACTED}${CUT}`;
    }
  }
  return text;
}

/** `text` scrubbed of `secrets` and of credentials carried the usual ways (see {@link createRedactor}). */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  return createRedactor(secrets)(text);
}

/**
 * A URL as it may appear in an error message or a log: credentials in the authority
 * (`user:password@`) and in the query (`?token=…`) replaced by {@link REDACTED}.
 */
export function redactUrl(url: string): string {
  return redactText(url);
}

/**
 * An error's message, and its cause's when that adds something (`connect ECONNREFUSED (socket
 * closed)`), for use inside another message: credentials in URLs are redacted. Any thrown value is
 * described (a string, a plain object); a throwing `message` getter or `toString` gives a fixed
 * text. Never throws.
 */
export function describeError(error: unknown): string {
  try {
    if (!(error instanceof Error)) return redactUrl(String(error));
    const message = String(error.message);
    const cause = error.cause instanceof Error ? String(error.cause.message) : undefined;
    return redactUrl(cause === undefined || cause === message ? message : `${message} (${cause})`);
  } catch {
    return "an error that cannot be described";
  }
}

/**
 * A copy of a JSON value in which every string and every object key has gone through `redact`
 * (e.g. a function of {@link createRedactor}). Arrays and plain objects are copied; anything else
 * is kept as it is. Containers nested more than {@link MAX_JSON_DEPTH} levels deep are replaced by
 * a marker string rather than walked. Pure.
 */
export function redactJson<T>(value: T, redact: (text: string) => string): T {
  return copy(value, redact, 0) as T;
}

function copy(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (!Array.isArray(value) && !isJsonObject(value)) return value;
  if (depth >= MAX_JSON_DEPTH) return `[nested more than ${MAX_JSON_DEPTH} levels deep]`;
  if (Array.isArray(value)) return value.map((item) => copy(item, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, redact(key), { value: copy(value[key], redact, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Characters that could drive a terminal or forge a log line: C0 controls (line breaks included),
 * DEL, C1 controls (8-bit CSI and OSC among them), the Unicode line and paragraph separators, and
 * the bidirectional embeddings, overrides and isolates.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS_ALL = new RegExp(CONTROLS.source, "g");
/** The same, but tab and line feed are left alone (for multi-line text such as a quoted stderr). */
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** How {@link neutraliseControls} treats tab and line breaks. */
export interface NeutraliseOptions {
  /** Leave tab and line feed as they are (for multi-line text such as a quoted stderr); a lone carriage return is still escaped. */
  keepLineBreaks?: boolean;
  /**
   * With `keepLineBreaks`: written after every line break (a CRLF counts as one line feed), so a
   * quoted text cannot start a line that looks like one of the writer's own (a log's lines).
   */
  indentLineBreaks?: string;
}

/**
 * `text` with every control character written out as a visible escape (`ESC` becomes the six
 * characters `\u001b`, a line feed `\n`), so ANSI and OSC escape sequences, carriage returns and
 * bidirectional overrides from a daemon, a page or a client can neither drive a terminal nor forge
 * a log line. With `keepLineBreaks`, tab and line feed stay as they are; with `indentLineBreaks`
 * too, each line break is followed by that indent.
 */
export function neutraliseControls(text: string, options: NeutraliseOptions = {}): string {
  if (!CONTROLS.test(text)) return text;
  if (options.keepLineBreaks !== true) return text.replace(CONTROLS_ALL, visible);
  const indent = options.indentLineBreaks ?? "";
  const lines = indent === "" ? text : text.split("\r\n").join("\n");
  const out = lines.replace(CONTROLS_BUT_LINES, visible);
  return indent === "" ? out : out.split("\n").join(`\n${indent}`);
}
