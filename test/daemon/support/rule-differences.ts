/**
 * How the mock daemon's conformance rules (test/conformance/mock-daemon-rules-*.test.ts) fare
 * against the real daemon (the version in scripts/glass-browser.version), by rule title, where they
 * do not simply pass. `npm run test:daemon` runs every rule against it: a rule in
 * {@link RULE_DIFFERENCES} must still fail there (the reason says what the daemon does instead and
 * why the mock keeps the rule), a rule in {@link FIXTURE_BOUND_RULES} is skipped, and every other
 * rule must pass.
 */

/** What a newer daemon does, which the mock follows (it speaks for the newest daemons). */
const NEWER = "the mock follows newer daemons";

/** Rules the real daemon breaks: what it does instead, and why the rule stays. */
export const RULE_DIFFERENCES: Readonly<Record<string, string>> = {
  "§3.1 an unsupported or missing MCP protocolVersion gets -32602 and no counter-offer": `0.3.14 refuses MCP 2025-11-25 too (-32602) and speaks only 2024-11-05; ${NEWER}, and the client falls back`,
  "§2 a tools/call string id must be an identifier (non-empty, ≤ 128 UTF-8 bytes, no whitespace or control characters), else -32602 before anything else": `0.3.14 serves a call whose string id holds a control character (the socket's lease gate answers first); ${NEWER}`,
  "§2 a JSON array (a batch) gets one -32600 with id null, and none of its requests is served": `0.3.14 answers a batch -32700 (parse error); ${NEWER}`,
  "§2 a message without jsonrpc or without a method gets -32600 with id null": `0.3.14 answers -32700 "missing field \`jsonrpc\`"; ${NEWER}`,
  "§3.4 prompts/list and resources/list answer empty lists": "the daemon lists 4 prompts and 6 markdown resources (its own guides); the mock lists none, which a client must handle anyway, rather than copy the daemon's prose",
  "§5 a malformed Content-Length header": "the daemon accepts a header line ended by LF alone (`Content-Length: 2\\n\\r\\n{}` is read as a frame and answered -32700), where the mock ends the connection (to align in the mock's framing)",
};

/**
 * Rules that compare the daemon's answers with the mock's golden fixture (answers on a library
 * site the daemon's browser is not on): skipped against the real daemon. Rewriting them to check
 * the answer's form rather than its content would let them run on both.
 */
export const FIXTURE_BOUND_RULES: ReadonlySet<string> = new Set([
  "§2 a tools/call without arguments counts as arguments {}",
  "§7 an optional number such as expectedRevision or quality accepts null as absent; an optional string does not",
  "§7 a string responseMode other than minimal, normal or diagnostic gets 'browser tool failed'",
  "§2 a success is one compact JSON text item with _meta.contextCost and no structuredContent",
  "§2 a string arguments.sessionId must be an identifier and equal mutationLease.sessionId, else -32602",
  "§4 a stray lease token on a read-only tool is accepted, and never checked",
  "§4 executeIntent and actAndVerify take leaseToken alone, and the strict tools their own arguments",
  "§4 on stdio the glass/lease/* methods get -32601",
  "§2 the token is read from arguments.mutationLease.token, else from arguments.leaseToken",
  "§2 a mutating call needs no sessionId, and a sessionId is never compared with the lease's",
]);
