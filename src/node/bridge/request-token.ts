import type { IncomingMessage } from "node:http";
import { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
import { tokenMatches } from "./bridge-token.js";
import { refusal, type Refusal } from "./refusal.js";

/** The tokens a request presents, and what was wrong with an Authorization header that held none. */
export interface PresentedTokens {
  tokens: string[];
  /** Set when an Authorization header is present but is not a Bearer token. */
  malformed?: string;
}

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="glass-sdk bridge"' } as const;

/** Reads `Authorization: Bearer <token>`. */
function bearerTokens(req: IncomingMessage): PresentedTokens {
  const header = req.headers.authorization;
  if (header === undefined) return { tokens: [] };
  const match = /^bearer[ \t]+([^ \t]+)[ \t]*$/i.exec(header);
  return match === null ? { tokens: [], malformed: "the Authorization header is not a Bearer token" } : { tokens: [match[1]!] };
}

/**
 * The tokens an HTTP request presents: only `Authorization: Bearer`. A `?token=` query is not
 * accepted on plain HTTP requests (headers stay out of logs and histories; URLs do not).
 */
export function httpRequestTokens(req: IncomingMessage): PresentedTokens {
  return bearerTokens(req);
}

/**
 * The tokens a WebSocket upgrade presents: `Authorization: Bearer` (non-browser clients), a
 * `glass-bearer.<token>` entry in `Sec-WebSocket-Protocol` (browsers, which cannot set headers), or
 * a `?token=` query (clients that can do neither; less private: URLs end up in histories and proxy
 * logs).
 */
export function webSocketTokens(req: IncomingMessage): PresentedTokens {
  const presented = bearerTokens(req);
  for (const entry of subprotocols(req)) {
    if (entry.startsWith(BRIDGE_DEFAULTS.tokenSubprotocolPrefix)) presented.tokens.push(entry.slice(BRIDGE_DEFAULTS.tokenSubprotocolPrefix.length));
  }
  const query = new URL(req.url ?? "/", "http://bridge.invalid").searchParams.getAll("token");
  presented.tokens.push(...query);
  return presented;
}

/** The entries of the `Sec-WebSocket-Protocol` header(s), trimmed. */
export function subprotocols(req: IncomingMessage): string[] {
  const header = req.headers["sec-websocket-protocol"];
  if (header === undefined) return [];
  return header
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * Checks the presented tokens against the bridge's: there must be at least one, and every one
 * presented must match (in constant time). Refuses with 401 otherwise.
 */
export function checkToken(presented: PresentedTokens, expected: string, channel: "http" | "websocket"): Refusal | undefined {
  if (presented.tokens.length === 0) {
    const how =
      channel === "http"
        ? "send the token in an Authorization header with the Bearer scheme (a token query parameter is accepted only on WebSocket upgrades)"
        : "send the token in an Authorization header with the Bearer scheme, as a subprotocol made of glass-bearer, a dot and the token (next to mcp), or as a token query parameter";
    return refusal(401, `${presented.malformed ?? "missing token"}: ${how}`, CHALLENGE);
  }
  let allMatch = true;
  for (const token of presented.tokens) allMatch = tokenMatches(token, expected) && allMatch;
  return allMatch ? undefined : refusal(401, "wrong token", CHALLENGE);
}
