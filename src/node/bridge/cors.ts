import type { IncomingMessage } from "node:http";
import { originAllowed } from "./origin-check.js";

/** The request headers a browser page may send (the token, the session and MCP's own headers). */
const ALLOWED_REQUEST_HEADERS = "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id";

/**
 * CORS response headers for a request from an allowed browser origin; nothing for requests without
 * `Origin` or from any other origin (the browser then hides the answer from the page). The origin
 * is echoed, never `*`; no cookies are involved, so credentials are not allowed. The session id
 * header is exposed so pages can read it.
 */
export function corsHeaders(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = req.headers.origin;
  if (origin === undefined || !originAllowed(origin, allowedOrigins)) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "mcp-session-id",
    Vary: "Origin",
  };
}

/**
 * The headers of a CORS preflight answer (OPTIONS) for an allowed origin: the methods and headers
 * the bridge takes, cached for ten minutes, and Chrome's Private Network Access opt-in (a public
 * page may reach this loopback bridge only because its origin was allowed).
 */
export function preflightHeaders(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const headers: Record<string, string> = {
    ...corsHeaders(req, allowedOrigins),
    "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": ALLOWED_REQUEST_HEADERS,
    "Access-Control-Max-Age": "600",
  };
  if (req.headers["access-control-request-private-network"] === "true") headers["Access-Control-Allow-Private-Network"] = "true";
  return headers;
}
