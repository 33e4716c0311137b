import { isIPv6 } from "node:net";
import { networkInterfaces } from "node:os";
import { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
import { isWildcardHost } from "./loopback.js";

/** Where a bridge listens: the address it was given, what that covers, and the URLs it answers at. */
export interface ListeningAddresses {
  /** The address and port as bound, e.g. `0.0.0.0:8787` or `[::]:8787`. */
  readonly bound: string;
  /** What a wildcard covers (`every IPv4 interface`, `every interface`); undefined for one address. */
  readonly scope: string | undefined;
  /** The HTTP URLs of `/mcp` on every address it is reachable at (for a wildcard: each interface's). */
  readonly urls: readonly string[];
}

/**
 * The addresses a bridge listening on `host` and `port` is reachable at: for `0.0.0.0` every IPv4
 * address of this machine's interfaces, for `::` (which Node binds to both families) every IPv4
 * and IPv6 one, otherwise the host itself.
 */
export function listeningAddresses(host: string, port: number): ListeningAddresses {
  const bound = `${inUrl(host)}:${port}`;
  const url = (address: string): string => `http://${inUrl(address)}:${port}${BRIDGE_DEFAULTS.path}`;
  if (!isWildcardHost(host)) return { bound, scope: undefined, urls: [url(host)] };
  const bothFamilies = isIPv6(bare(host));
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === "IPv4" || (bothFamilies && entry.family === "IPv6")) addresses.add(entry.address);
    }
  }
  return { bound, scope: bothFamilies ? "every interface" : "every IPv4 interface", urls: [...addresses].map(url) };
}

/** The warning for a bridge that listens beyond loopback: where it is reachable, and what that means. */
export function networkExposureWarning(host: string, port: number): string {
  const { bound, scope, urls } = listeningAddresses(host, port);
  return (
    `warning: the bridge is reachable from the network: it listens on ${bound}${scope === undefined ? "" : ` (${scope})`}, at ${urls.join(", ")}. ` +
    "Whoever reaches it with the token drives this browser; it speaks plain HTTP, so put TLS in front of it, and name the Host " +
    "remote clients use with --allow-host (allowedHosts)"
  );
}

function bare(host: string): string {
  const trimmed = host.trim();
  return trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
}

/** A host as it goes into a URL: IPv6 in brackets. */
function inUrl(host: string): string {
  const name = bare(host);
  return isIPv6(name) ? `[${name}]` : name;
}
