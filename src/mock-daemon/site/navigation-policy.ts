/**
 * preflightNavigation as glass-browser answers it: the URL checked against the navigation policy
 * without loading it, looking its host up or starting a browser. The URL is read the way the daemon
 * reads one (white space trimmed, `https://` put in front of one that does not start with a scheme
 * it knows, parsed by the WHATWG URL rules), reported without its credentials, query and fragment,
 * and decided by the policy the mock daemon runs with: the daemon's default, `development`, which
 * lets every URL that parses load. A URL that does not parse is a `deny` whose reason names the part
 * that failed, in the daemon's words (`URL is invalid: invalid port number`).
 */
import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";

/** The decision preflightNavigation answers with. */
export type NavigationDecision = ResultOf<"browser.preflightNavigation">;

/** The starts of a URL the daemon takes as they are; anything else gets `https://` in front (case matters). */
const KNOWN_STARTS = ["http://", "https://", "about:", "file:", "data:"];

/** What the daemon prefixes a URL without a known start with. */
const DEFAULT_SCHEME = "https://";

/** The reason of an allowed URL. */
const ALLOWED = "URL passes the active navigation policy";

/** Why a URL does not parse, as the daemon's URL parser says it. */
const PARSE_FAILURES = {
  emptyHost: "empty host",
  invalidPort: "invalid port number",
  invalidIpv4: "invalid IPv4 address",
  invalidIpv6: "invalid IPv6 address",
  invalidDomain: "invalid international domain name",
  invalidDomainCharacter: "invalid domain character",
} as const;

/** The protocols whose URLs have a domain (or address) for a host. */
const SPECIAL_PROTOCOLS: ReadonlySet<string> = new Set(["http:", "https:", "file:"]);

/** The characters a host that is not a domain (an `about://` or `data://` URL's) cannot hold. */
const FORBIDDEN_OPAQUE_HOST = /[\u0000 #/:<>?@[\\\]^|]/;

/** Unicode White_Space at either end of a URL: what the daemon trims before it reads one. */
const SURROUNDING_WHITE_SPACE = /^[\p{White_Space}]+|[\p{White_Space}]+$/gu;

/**
 * What the URL parser drops before it reads a URL: C0 controls and spaces at either end, and every
 * tab and line break inside.
 */
function preparedForParsing(url: string): string {
  return url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
}

/**
 * preflightNavigation: the policy's decision on `payload.url`. The mock daemon runs with the
 * daemon's default policy (`development`), which allows every URL that parses; one that does not
 * parse is denied, with null `normalizedUrl` and `host`.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { createMockGlass } from "glass-sdk/testing";
 *
 * const glass = await Glass.connect(createMockGlass().transport());
 * await glass.browser.preflightNavigation({ url: "user:secret@example.com/a?b#c" });
 * // { schemaVersion: 1, normalizedUrl: "https://example.com/a", host: "example.com", decision: "allow", … }
 * ```
 */
export function preflightNavigation(payload: PayloadOf<"browser.preflightNavigation">): NavigationDecision {
  const url = parseNavigationUrl(normalizedNavigationUrl(payload.url));
  if (typeof url === "string")
    return {
      schemaVersion: 1,
      normalizedUrl: null,
      host: null,
      decision: "deny",
      reason: `URL is invalid: ${url}`,
      confirmationRequired: false,
    };
  return {
    schemaVersion: 1,
    normalizedUrl: withoutSecrets(url),
    host: hostOf(url),
    decision: "allow",
    reason: ALLOWED,
    confirmationRequired: false,
  };
}

/**
 * The URL the daemon's parser reads from `normalized`, or why it cannot: the WHATWG URL rules, and
 * the stricter check of `xn--` labels the daemon's parser makes.
 */
function parseNavigationUrl(normalized: string): URL | string {
  let url: URL;
  try {
    url = new URL(normalized);
  } catch {
    return parseFailure(normalized);
  }
  return SPECIAL_PROTOCOLS.has(url.protocol) && hasBadAceLabel(url.hostname) ? PARSE_FAILURES.invalidDomain : url;
}

/** The URL as the daemon reads it before parsing: trimmed, and with `https://` in front unless it starts with a scheme it knows. */
export function normalizedNavigationUrl(url: string): string {
  const trimmed = url.replace(SURROUNDING_WHITE_SPACE, "");
  return KNOWN_STARTS.some((start) => trimmed.startsWith(start)) ? trimmed : `${DEFAULT_SCHEME}${trimmed}`;
}

/**
 * The URL without its user name, password, query and fragment (what the daemon reports as
 * `normalizedUrl`). The daemon's parser also writes a `file:` path that starts with several slashes
 * with one.
 */
function withoutSecrets(url: URL): string {
  const safe = new URL(url.href);
  safe.username = "";
  safe.password = "";
  safe.search = "";
  safe.hash = "";
  if (safe.protocol === "file:") safe.pathname = safe.pathname.replace(/^\/{2,}/, "/");
  return safe.href;
}

/** The URL's host without trailing dots (an IPv6 address keeps its brackets); null when it has none. */
function hostOf(url: URL): string | null {
  return url.hostname === "" ? null : url.hostname.replace(/\.+$/, "");
}

/**
 * Why `normalized` (which starts with a scheme the daemon knows) does not parse, as the daemon's
 * parser says it: an http(s) URL's host is empty, is a bad IPv6 or IPv4 address or not a domain,
 * or its port is not a number of at most 65535 (the host is read first); a `file://` URL's host
 * (which takes no user or port) likewise; an `about://` or `data://` URL's host holds a character no
 * host may hold, or its port is bad.
 */
function parseFailure(normalized: string): string {
  const prepared = preparedForParsing(normalized);
  const colon = prepared.indexOf(":");
  const scheme = prepared.slice(0, colon).toLowerCase();
  const rest = prepared.slice(colon + 1);
  if (scheme === "http" || scheme === "https") {
    const authority = rest.replace(/^[/\\]+/, "").split(/[/\\?#]/)[0] ?? "";
    const { host, port } = splitPort(authority.slice(authority.lastIndexOf("@") + 1));
    if (host === "") return PARSE_FAILURES.emptyHost;
    return hostFailure(host) ?? portFailure(port) ?? PARSE_FAILURES.invalidDomain;
  }
  if (scheme === "file" && /^[/\\]{2}/.test(rest))
    return hostFailure(rest.slice(2).split(/[/\\?#]/)[0] ?? "") ?? PARSE_FAILURES.invalidDomain;
  if (rest.startsWith("//")) {
    const authority = rest.slice(2).split(/[/?#]/)[0] ?? "";
    const { host, port } = splitPort(authority.slice(authority.lastIndexOf("@") + 1));
    if (host === "" && (authority.includes("@") || authority.includes(":"))) return PARSE_FAILURES.emptyHost;
    if (host.startsWith("[")) return PARSE_FAILURES.invalidIpv6;
    if (FORBIDDEN_OPAQUE_HOST.test(host)) return PARSE_FAILURES.invalidDomainCharacter;
    return portFailure(port) ?? PARSE_FAILURES.invalidDomain;
  }
  return PARSE_FAILURES.invalidDomain;
}

/** An authority's host and port: the port follows the first `:` after an IPv6 address's brackets. */
function splitPort(hostAndPort: string): { host: string; port: string } {
  const closing = hostAndPort.startsWith("[") ? hostAndPort.indexOf("]") : -1;
  const colon = hostAndPort.indexOf(":", closing + 1);
  return colon === -1
    ? { host: hostAndPort, port: "" }
    : { host: hostAndPort.slice(0, colon), port: hostAndPort.slice(colon + 1) };
}

/** Why a port does not parse (it is not digits, or is over 65535), or undefined when it does. */
function portFailure(port: string): string | undefined {
  return /^\d*$/.test(port) && Number(port) <= 65_535 ? undefined : PARSE_FAILURES.invalidPort;
}

/**
 * Why a special URL's host does not parse, or undefined when it does. The parser turns a host into
 * an ASCII domain first (a character no domain may hold, or a bad `xn--` label, fails there), then
 * reads a domain whose last label is a number as an IPv4 address; a host that maps to nothing (a
 * zero-width space) is empty.
 */
function hostFailure(host: string): string | undefined {
  if (URL.canParse(`http://${host}/`))
    return hasBadAceLabel(new URL(`http://${host}/`).hostname) ? PARSE_FAILURES.invalidDomain : undefined;
  if (host.startsWith("[")) return PARSE_FAILURES.invalidIpv6;
  // A `file://` host keeps its `@` and `:`, which no domain may hold (an http probe would read them as a user and a port).
  if (/[@:]/.test(host)) return PARSE_FAILURES.invalidDomain;
  // With a letter label after it the host is never read as an address: only the domain step remains.
  const probe = URL.canParse(`http://${host}.a/`) ? new URL(`http://${host}.a/`).hostname : undefined;
  if (probe === undefined) return PARSE_FAILURES.invalidDomain;
  const domain = probe.slice(0, -".a".length);
  if (domain === "") return PARSE_FAILURES.emptyHost;
  return endsInNumber(domain) ? PARSE_FAILURES.invalidIpv4 : PARSE_FAILURES.invalidDomain;
}

/**
 * Whether a domain's last label (a trailing dot aside) is a number, decimal or `0x` hexadecimal:
 * such a host is read as an IPv4 address, so one that is not a valid address is an IPv4 failure.
 */
function endsInNumber(domain: string): boolean {
  const labels = domain.split(".");
  if (labels.at(-1) === "" && labels.length > 1) labels.pop();
  const last = labels.at(-1) ?? "";
  return /^\d+$/.test(last) || /^0x[0-9a-f]*$/i.test(last);
}

/**
 * Whether a domain has an `xn--` label the daemon's parser refuses: one whose Punycode does not
 * decode, decodes to nothing or to ASCII alone (such a label never encodes a name), or to a control
 * character (`xn--a` is U+0080), which no domain name may hold. Checked here rather than left to
 * the runtime's URL parser, which refuses some of these in Node 20 and accepts them in Node 24.
 */
function hasBadAceLabel(hostname: string): boolean {
  if (hostname.startsWith("[")) return false;
  return hostname.split(".").some((label) => {
    if (!label.toLowerCase().startsWith("xn--")) return false;
    const decoded = decodePunycode(label.slice("xn--".length));
    return decoded === undefined || /^[\u0000-\u007F]*$/.test(decoded) || /[\u0000-\u001F\u007F-\u009F]/.test(decoded);
  });
}

/** The parameters of Punycode (RFC 3492, section 5). */
const PUNYCODE = { base: 36, tMin: 1, tMax: 26, skew: 38, damp: 700, initialBias: 72, initialN: 128 } as const;

/** The bias after a code point is inserted (RFC 3492, section 6.1). */
function adaptBias(delta: number, points: number, first: boolean): number {
  const { base, tMin, tMax, skew, damp } = PUNYCODE;
  let scaled = first ? Math.floor(delta / damp) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  for (; scaled > ((base - tMin) * tMax) >> 1; k += base) scaled = Math.floor(scaled / (base - tMin));
  return k + Math.floor(((base - tMin + 1) * scaled) / (scaled + skew));
}

/** The value of a Punycode digit (`a`–`z` 0–25, `0`–`9` 26–35), or undefined for any other character. */
function punycodeDigit(char: string): number | undefined {
  const code = char.charCodeAt(0);
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26;
  return undefined;
}

/** The text a Punycode string encodes (RFC 3492, section 6.2), or undefined when it is not valid Punycode. */
function decodePunycode(input: string): string | undefined {
  const { base, tMin, tMax, initialBias, initialN } = PUNYCODE;
  const delimiter = input.lastIndexOf("-");
  const output: number[] = [];
  for (const char of delimiter > 0 ? input.slice(0, delimiter) : "") {
    if (char.charCodeAt(0) >= 0x80) return undefined;
    output.push(char.charCodeAt(0));
  }
  let n: number = initialN;
  let bias: number = initialBias;
  let i = 0;
  for (let at = delimiter > 0 ? delimiter + 1 : 0; at < input.length; ) {
    const before = i;
    for (let weight = 1, k = base; ; k += base) {
      const digit = at < input.length ? punycodeDigit(input.charAt(at++)) : undefined;
      if (digit === undefined) return undefined;
      i += digit * weight;
      const threshold = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < threshold) break;
      weight *= base - threshold;
      if (i > 0x7fffffff || weight > 0x7fffffff) return undefined;
    }
    bias = adaptBias(i - before, output.length + 1, before === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return undefined;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
