/**
 * The mock daemon's conformance rules, checked against the real daemon: this file loads the rule
 * files of test/conformance/ with GLASS_RULES_TARGET=daemon (set by vitest.daemon.config.ts), where
 * `rule()` runs each against glass-browser over stdio and its socket instead of the mock.
 */
import "../conformance/mock-daemon-rules-session.test.js";
import "../conformance/mock-daemon-rules-tools.test.js";
import "../conformance/mock-daemon-rules-leases.test.js";
import "../conformance/mock-daemon-rules-transport.test.js";
