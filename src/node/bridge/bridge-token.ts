import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** What a token given to the bridge must look like: URL-, header- and subprotocol-safe characters. */
const TOKEN_SYNTAX = /^[A-Za-z0-9._~-]{16,512}$/;

/** A fresh bridge token: 32 random bytes (256 bits), base64url (43 characters). */
export function generateBridgeToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Why a token given to the bridge is unusable, or `undefined` when it is fine. It must be 16..512
 * characters of `A-Z a-z 0-9 . _ ~ -`, so that it travels unchanged as `Authorization: Bearer`, as
 * the WebSocket subprotocol `glass-bearer.<token>` and in a `?token=` query.
 */
export function tokenSyntaxProblem(token: string): string | undefined {
  if (TOKEN_SYNTAX.test(token)) return undefined;
  if (token.length < 16) return "the token is too short: use at least 16 characters (or let the bridge generate one)";
  if (token.length > 512) return "the token is too long: use at most 512 characters";
  return "the token may only contain the characters A-Z a-z 0-9 . _ ~ - (so it fits a header, a WebSocket subprotocol and a URL)";
}

/**
 * Compares a presented token with the bridge's in constant time: both are hashed (SHA-256) first,
 * so neither their contents nor their lengths show in the timing.
 */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}
