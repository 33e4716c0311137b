/**
 * How the typed catalog and the daemon's tool list (glass-browser, the version in
 * scripts/glass-browser.version) line up. The handshake test fails when the daemon lists a tool that
 * is not typed and not named in {@link UNTYPED_DAEMON_TOOLS}, and when a typed tool is not listed
 * and not named in {@link TYPED_TOOLS_NEWER_THAN_DAEMON}.
 */

/** The daemon's tools the catalog deliberately does not type, each with the reason: none. */
export const UNTYPED_DAEMON_TOOLS: Readonly<Record<string, string>> = {};

/** Typed tools the daemon does not have yet, each with the reason (a newer daemon lists them). */
export const TYPED_TOOLS_NEWER_THAN_DAEMON: Readonly<Record<string, string>> = {
  extractWebIr: "added to the daemon after glass-browser 0.3.14: the Web IR of the live page",
};
