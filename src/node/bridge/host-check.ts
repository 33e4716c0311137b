import { LOOPBACK_HOST_NAMES } from "./loopback.js";

/** The Host header names the bridge accepts, split by whether any port or only the bridge's port goes. */
export interface AllowedHosts {
  /** Names that must carry the bridge's port (or none, when the port is 80). */
  readonly namesOnBridgePort: ReadonlySet<string>;
  /** Names that match with the bridge's port or without a port (from `allowedHosts`). */
  readonly namesPortOptional: ReadonlySet<string>;
  /** Exact `name:port` pairs (from `allowedHosts`). */
  readonly exact: ReadonlySet<string>;
}

/**
 * Builds the accepted Host names: the loopback names, the address the bridge listens on (when it
 * is a specific address), and the configured `allowedHosts` (`name` or `name:port`).
 */
export function buildAllowedHosts(allowedHosts: readonly string[], listenHost: string | undefined): AllowedHosts {
  const namesOnBridgePort = new Set(LOOPBACK_HOST_NAMES);
  if (listenHost !== undefined) namesOnBridgePort.add(listenHost.toLowerCase());
  const namesPortOptional = new Set<string>();
  const exact = new Set<string>();
  for (const entry of allowedHosts) {
    const { name, port } = splitHost(entry.trim().toLowerCase());
    if (port === undefined) namesPortOptional.add(name);
    else exact.add(`${name}:${port}`);
  }
  return { namesOnBridgePort, namesPortOptional, exact };
}

/**
 * Whether a request's `Host` header names this bridge: a loopback name with the bridge's port, or
 * an allowed host. A missing Host is refused. This defeats DNS rebinding: a page on
 * `evil.example` whose name was re-pointed at 127.0.0.1 still sends `Host: evil.example`.
 */
export function hostAllowed(host: string | undefined, bridgePort: number, allowed: AllowedHosts): boolean {
  if (host === undefined || host === "") return false;
  const { name, port } = splitHost(host.trim().toLowerCase());
  if (name === "") return false;
  if (port !== undefined && !/^[0-9]{1,5}$/.test(port)) return false;
  const portNumber = port === undefined ? 80 : Number(port);
  if (allowed.namesOnBridgePort.has(name) && portNumber === bridgePort) return true;
  if (allowed.namesPortOptional.has(name) && (port === undefined || portNumber === bridgePort)) return true;
  return port !== undefined && allowed.exact.has(`${name}:${port}`);
}

/** Splits `name:port`, `[v6]:port`, `name` or `[v6]`; IPv6 names keep their brackets. */
function splitHost(host: string): { name: string; port: string | undefined } {
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close === -1) return { name: "", port: undefined };
    const rest = host.slice(close + 1);
    return { name: host.slice(0, close + 1), port: rest.startsWith(":") ? rest.slice(1) : rest === "" ? undefined : "invalid" };
  }
  const colon = host.lastIndexOf(":");
  if (colon === -1) return { name: host, port: undefined };
  if (host.indexOf(":") !== colon) return { name: `[${host}]`, port: undefined }; // a bare IPv6 address
  return { name: host.slice(0, colon), port: host.slice(colon + 1) };
}
