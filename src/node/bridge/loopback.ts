import { isIPv4, isIPv6 } from "node:net";

/** The host names that always mean this machine, as they appear in a `Host` header (without a port). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** A host without IPv6 brackets, lower-cased: `[::1]` → `::1`. */
function bare(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}

/**
 * True for an address that only this machine can reach: `localhost`, any `127.x.x.x`, `::1` (in
 * any spelling) and IPv4-mapped `::ffff:127.x.x.x`.
 */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  if (name === "localhost") return true;
  if (isIPv4(name)) return name.startsWith("127.");
  if (!isIPv6(name)) return false;
  const canonical = new URL(`http://[${name}]/`).hostname; // [::1], [::ffff:7f00:1]
  if (canonical === "[::1]") return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(canonical);
  return mapped !== null && (Number.parseInt(mapped[1]!, 16) >> 8) === 127;
}

/** True for the any-address (`0.0.0.0`, `::`): listening there accepts every interface. */
export function isWildcardHost(host: string): boolean {
  const name = bare(host);
  return name === "0.0.0.0" || (isIPv6(name) && new URL(`http://[${name}]/`).hostname === "[::]");
}

/**
 * The host as it goes into a URL and a `Host` header: IPv6 in brackets, and for a wildcard the
 * loopback address of its family (a client on this machine reaches the bridge there).
 */
export function urlHost(host: string): string {
  const name = bare(host);
  if (isWildcardHost(name)) return isIPv6(name) ? "[::1]" : "127.0.0.1";
  return isIPv6(name) ? `[${name}]` : name;
}
