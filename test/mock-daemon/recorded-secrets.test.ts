import { describe, expect, it } from "vitest";
import {
  holdsRedacted,
  onlyHidden,
  recordedSecrets,
  shownDifference,
  withoutSecrets,
} from "../../src/mock-daemon/recorded-secrets.js";

describe("onlyHidden", () => {
  it("is true when the sent text is the recorded one with something where it has [redacted]", () => {
    expect(onlyHidden({ path: "/auth", sent: "Bearer s3cret", recorded: "Bearer [redacted]" })).toBe(true);
    expect(onlyHidden({ path: "/q", sent: "a=1&key=k9&b=2", recorded: "a=1&key=[redacted]&b=2" })).toBe(true);
  });

  it("is false when the text differs elsewhere too, or the recording hides nothing", () => {
    expect(onlyHidden({ path: "/auth", sent: "Basic s3cret", recorded: "Bearer [redacted]" })).toBe(false);
    expect(onlyHidden({ path: "/auth", sent: "Bearer x", recorded: "Bearer y" })).toBe(false);
    expect(onlyHidden({ path: "/auth", sent: 5, recorded: "[redacted]" })).toBe(false);
    expect(onlyHidden({ path: "/auth", recorded: "[redacted]" })).toBe(false);
  });
});

describe("holdsRedacted", () => {
  it("finds [redacted] in any string of a JSON value", () => {
    expect(holdsRedacted({ a: [1, { b: "token [redacted]" }] })).toBe(true);
    expect(holdsRedacted({ a: [1, { b: "token" }], c: null })).toBe(false);
    expect(holdsRedacted("[redacted]")).toBe(true);
    expect(holdsRedacted(7)).toBe(false);
  });
});

describe("recordedSecrets", () => {
  it("collects the sent text standing where recordings hide a secret, longest first", () => {
    expect(
      recordedSecrets([
        { path: "/a", sent: "key=abc", recorded: "key=[redacted]" },
        { path: "/b", sent: "abcdef and xy", recorded: "[redacted] and [redacted]" },
        { path: "/c", sent: "plain", recorded: "other" },
      ]),
    ).toEqual({ secrets: ["abcdef", "abc", "xy"], unplaced: false });
  });

  it("says a secret is unplaced when the sent value differs in a way that does not show where it is", () => {
    expect(recordedSecrets([{ path: "/a", sent: "something else", recorded: "key=[redacted]" }])).toEqual({
      secrets: [],
      unplaced: true,
    });
    expect(recordedSecrets([{ path: "/a", sent: { k: 1 }, recorded: "[redacted]" }]).unplaced).toBe(true);
    expect(recordedSecrets([{ path: "/a", recorded: "[redacted]" }]).unplaced).toBe(false);
  });
});

describe("withoutSecrets", () => {
  it("replaces every secret in strings and keys, and leaves the rest as it was", () => {
    expect(withoutSecrets({ "tok-abc": ["Bearer tok-abc", 3, null], other: "x" }, ["tok-abc"])).toEqual({
      "[redacted]": ["Bearer [redacted]", 3, null],
      other: "x",
    });
    const value = { a: "tok" };
    expect(withoutSecrets(value, [])).toBe(value);
  });
});

describe("shownDifference", () => {
  it("hides the sent value where the secret in it cannot be told apart, and keeps it where it can", () => {
    const unplaced = { path: "/a", sent: "Basic s3cret", recorded: "Bearer [redacted]" };
    expect(shownDifference(unplaced)).toEqual({ ...unplaced, sent: "[redacted]" });
    const placed = { path: "/a", sent: "Bearer s3cret", recorded: "Bearer [redacted]" };
    expect(shownDifference(placed)).toBe(placed);
    const plain = { path: "/a", sent: "x", recorded: "y" };
    expect(shownDifference(plain)).toBe(plain);
  });
});
