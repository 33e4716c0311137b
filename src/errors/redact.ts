/**
 * The one home of the SDK's scrubbing of text that may carry secrets or terminal controls: error
 * messages and details, log events and lines, recorded fixtures. Every function is linear in the
 * length of its input (no regular expression here can backtrack), never throws for a string, and
 * is browser-safe.
 */
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
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
  return (
    c <= 0x20 ||
    c === 0x2f ||
    c === 0x3f ||
    c === 0x23 ||
    c === 0x5c ||
    c === 0x22 ||
    c === 0x27 ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x7f
  );
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

/** A percent escape (`%2F`), to add the lower-case spelling of an encoding (`%2f`). */
const PERCENT_ESCAPE = /%[0-9A-F]{2}/g;

/**
 * A secret as URLs carry it: percent-encoded as `encodeURIComponent` does, and as
 * `application/x-www-form-urlencoded` does (`URLSearchParams`, HTML forms: a space is `+`, and
 * `!'()~` are escaped too). Empty for a secret with a lone surrogate (it cannot be encoded).
 */
function urlEncodings(secret: string): string[] {
  try {
    return [encodeURIComponent(secret), new URLSearchParams([["", secret]]).toString().slice(1)];
  } catch {
    return [];
  }
}

/** Secrets longer than this are not looked for HTML-escaped (the pattern grows with the secret). */
const MAX_HTML_SECRET = 1024;
/** The named character references HTML escaping writes (`&amp;`, `&lt;` …), by character. */
const HTML_NAMED: Readonly<Record<string, readonly string[]>> = {
  "&": ["&amp;"],
  "<": ["&lt;"],
  ">": ["&gt;"],
  '"': ["&quot;"],
  "'": ["&apos;", "&#39;"],
};

/** `value` written in hexadecimal, each letter matching either case (`2[fF]`). */
function anyCaseHex(value: number): string {
  return value.toString(16).replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * A pattern matching `secret` HTML-escaped as pages write it, and that HTML inside JSON text: each
 * character as it is, JSON-escaped once or twice, as a named reference (`&amp;` `&lt;` `&gt;`
 * `&quot;` `&apos;` `&#39;`) or a numeric one (`&#38;`, `&#x26;`, leading zeros allowed), in any
 * mix. Every alternative of a character is a fixed text (or digits after fixed text) and nothing
 * repeats, so a match attempt costs at most a few steps per character of the secret.
 */
function htmlEscapedForm(secret: string): RegExp {
  let source = "";
  for (const character of secret) {
    const code = character.codePointAt(0)!;
    const once = JSON.stringify(character).slice(1, -1);
    const alternatives = new Set([
      character,
      once,
      JSON.stringify(once).slice(1, -1),
      ...(HTML_NAMED[character] ?? []),
    ]);
    source += `(?:${[...alternatives].map(escapeRegExp).join("|")}|&#0*${code};|&#[xX]0*${anyCaseHex(code)};)`;
  }
  return new RegExp(source, "g");
}

/**
 * A function that scrubs a text: every occurrence of each secret — as written, JSON-escaped once
 * or twice (inside a string that is itself JSON), percent-encoded (`encodeURIComponent`, and
 * `application/x-www-form-urlencoded` as `URLSearchParams` writes it, with either case of hex
 * digits) or HTML-escaped (named and numeric character references, also inside JSON text) — and,
 * whatever their value, credentials in URLs (`user:password@` anywhere in the text, `?token=`, `#access_token=`, `auth=`,
 * `api_key=`, `password=` …) and the bridge's token as it travels (`glass-bearer.…`, `Bearer …`) are replaced by
 * {@link REDACTED}; so is the beginning of a secret (of {@link MIN_CUT_SECRET} characters or more)
 * just before a `…` anywhere in the text, where a quoted text was cut short — defence in depth:
 * quoted text is scrubbed before it is cut ({@link quoteUntrusted}). Empty secrets are ignored;
 * longer ones are replaced first.
 */
export function createRedactor(secrets: Iterable<string> = []): (text: string) => string {
  const forms = new Set<string>();
  const htmlForms: RegExp[] = [];
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret === "") continue;
    const once = JSON.stringify(secret).slice(1, -1);
    forms.add(secret).add(once).add(JSON.stringify(once).slice(1, -1));
    for (const encoded of urlEncodings(secret))
      forms.add(encoded).add(encoded.replace(PERCENT_ESCAPE, (hex) => hex.toLowerCase()));
    if (secret.length <= MAX_HTML_SECRET) htmlForms.push(htmlEscapedForm(secret));
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (out.includes("&")) for (const form of htmlForms) out = out.replace(form, REDACTED);
    if (out.includes(CUT)) out = redactCutSecrets(out, ordered);
    if (out.includes("://")) out = redactUserinfo(out);
    if (out.includes("=")) out = out.replace(CREDENTIAL_PARAMETERS, `$1${REDACTED}`);
    if (BEARER_PREFIX.test(out)) out = out.replace(BEARER_SUBPROTOCOL, `$1${REDACTED}`);
    out = out.replace(BEARER_TOKEN, `$1${REDACTED}`);
    return out;
  };
}

/** How a shortened text ends (see `truncateUtf8`). */
const CUT = "…";
/**
 * The shortest beginning of a secret hidden where a text was cut: shorter ones are too likely to
 * be ordinary text, and 7 characters of a 43-character bearer token (or of a lease token) leave
 * more than 200 bits unknown.
 */
export const MIN_CUT_SECRET = 8;

/** Secrets longer than this are not looked for where a text was cut (the check is quadratic in their length). */
const MAX_CUT_SECRET = 256;
/** How many cut marks in one text are looked at (each costs up to the square of a secret's length). */
const MAX_CUTS_CHECKED = 64;

/**
 * A text with quoted parts cut short in the middle of a secret (`… Bearer abcdefgh12…"; fix …`):
 * the part of the secret before each `…` is hidden too, wherever the `…` is.
 */
function redactCutSecrets(text: string, secrets: readonly string[]): string {
  let out = "";
  let copied = 0;
  let cut = text.indexOf(CUT);
  for (
    let checked = 0;
    cut !== -1 && checked < MAX_CUTS_CHECKED;
    checked++, cut = text.indexOf(CUT, cut + CUT.length)
  ) {
    const length = cutSecretLength(text, copied, cut, secrets);
    if (length === 0) continue;
    out += `${text.slice(copied, cut - length)}${REDACTED}`;
    copied = cut;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The length of the longest beginning of a secret that `text` ends with at `end` (not before `from`), or 0. */
function cutSecretLength(text: string, from: number, end: number, secrets: readonly string[]): number {
  for (const secret of secrets) {
    if (secret.length > MAX_CUT_SECRET) continue;
    for (let length = Math.min(secret.length - 1, end - from); length >= MIN_CUT_SECRET; length--) {
      if (text.startsWith(secret.slice(0, length), end - length)) return length;
    }
  }
  return 0;
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
    Object.defineProperty(out, redact(key), {
      value: copy(value[key], redact, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
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

/** How {@link quoteUntrusted} scrubs, escapes and bounds a text. */
export interface QuoteOptions extends NeutraliseOptions {
  /**
   * Scrubs the whole text before it is cut (a function of {@link createRedactor}, a transport's
   * `redact`), so that a cut can never leave the beginning or the end of a secret it knows.
   */
  redact?: (text: string) => string;
  /** Runs of whitespace become one space, and the text is trimmed (after scrubbing, before the cut). */
  collapseWhitespace?: boolean;
}

/**
 * The one way untrusted text (a server's body, a request's header, a daemon's message) is quoted in
 * an error message or a log line: first scrubbed of the secrets `redact` knows (before anything is
 * cut, so no beginning or end of a secret can survive the cut), then every control character
 * written out ({@link neutraliseControls}), then cut to at most `maxBytes` UTF-8 bytes (ending in
 * `…` when it was cut; see `truncateUtf8`) — so the bound holds for what is shown, escapes
 * included. Linear in the text's length; never throws for a string (a `redact` that throws or
 * returns something else than a string is ignored).
 */
export function quoteUntrusted(text: string, maxBytes: number, options: QuoteOptions = {}): string {
  let out = text;
  if (options.redact !== undefined) {
    try {
      const scrubbed = options.redact(out);
      if (typeof scrubbed === "string") out = scrubbed;
    } catch {
      // a scrubber that fails changes nothing; the text is still escaped and cut
    }
  }
  if (options.collapseWhitespace === true) out = out.replace(/\s+/g, " ").trim();
  // Escaping never shortens a text, so no more than maxBytes + 1 of its characters can be shown:
  // dropping the rest first keeps a huge text cheap, and the one extra character forces the `…`.
  if (out.length > maxBytes + 1) out = out.slice(0, maxBytes + 1);
  return truncateUtf8(neutraliseControls(out, options), maxBytes);
}
