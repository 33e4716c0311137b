import type { IncomingMessage } from "node:http";
import { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
import { hostAllowed } from "./host-check.js";
import { originAllowed } from "./origin-check.js";
import { refusal, type Refusal } from "./refusal.js";
import type { ResolvedBridgeOptions } from "./resolve-options.js";

/** The path of a request URL, without its query (which may hold a token) or fragment. */
export function requestPath(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** The `Origin` header, when there is exactly one. */
export function requestOrigin(req: IncomingMessage): string | undefined {
  return req.headers.origin;
}

/**
 * The checks every request and upgrade passes before the token is even looked at, in this order:
 * the `Host` header names this bridge (403, DNS rebinding), the `Origin` is absent or allowed
 * (403), the path is `/mcp` (404).
 */
export function admitRequest(req: IncomingMessage, options: ResolvedBridgeOptions, bridgePort: number): Refusal | undefined {
  if (!hostAllowed(req.headers.host, bridgePort, options.allowedHosts)) {
    return refusal(403, `Host ${JSON.stringify(req.headers.host ?? "")} is not this bridge (only loopback names with its port, or --allow-host names)`);
  }
  const origin = requestOrigin(req);
  if (!originAllowed(origin, options.allowedOrigins)) {
    return refusal(403, `Origin ${JSON.stringify(origin)} is not allowed (allow it with allowedOrigins / --allow-origin)`);
  }
  if (requestPath(req) !== BRIDGE_DEFAULTS.path) return refusal(404, `not found: the bridge serves only ${BRIDGE_DEFAULTS.path}`);
  return undefined;
}
