/**
 * How the mock daemon's conformance rules (test/conformance/mock-daemon-rules-*.test.ts) fare
 * against the real daemon (the version in scripts/glass-browser.version), by rule title, where they
 * do not simply pass. `npm run test:daemon` runs every rule against it: a rule in
 * {@link RULE_DIFFERENCES} must still fail there (the reason says what the daemon does instead and
 * why the mock keeps the rule), and every other rule must pass (or is skipped, when it needs a mock
 * configured otherwise or reads the mock's own state).
 */

/** What a newer daemon does, which the mock follows (it speaks for the newest daemons). */
const NEWER = "the mock follows newer daemons";

/** Rules the real daemon breaks: what it does instead, and why the rule stays. */
export const RULE_DIFFERENCES: Readonly<Record<string, string>> = {
  "§3.1 an unsupported or missing MCP protocolVersion gets -32602 and no counter-offer": `0.3.14 refuses MCP 2025-11-25 too (-32602) and speaks only 2024-11-05; ${NEWER}, and the client falls back`,
  "§2 a tools/call string id must be an identifier (non-empty, ≤ 128 UTF-8 bytes, no whitespace or control characters), else -32602 before anything else": `0.3.14 serves a call whose string id holds a control character (the socket's lease gate answers first); ${NEWER}`,
  "§2 a JSON array (a batch) gets one -32600 with id null, and none of its requests is served": `0.3.14 answers a batch -32700 (parse error); ${NEWER}`,
  "§2 a message without jsonrpc or without a method gets -32600 with id null": `0.3.14 answers -32700 "missing field \`jsonrpc\`"; ${NEWER}`,
  "§3.4 prompts/list and resources/list answer empty lists":
    "the daemon lists 4 prompts and 6 markdown resources (its own guides); the mock lists none, which a client must handle anyway, rather than copy the daemon's prose",
  "§5 a malformed Content-Length header":
    "the daemon accepts a header line ended by LF alone (`Content-Length: 2\\n\\r\\n{}` is read as a frame and answered -32700), where the mock ends the connection (to align in the mock's framing)",
};
