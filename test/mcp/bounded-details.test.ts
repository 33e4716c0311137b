import { describe, expect, it } from "vitest";
import { boundedDetails, MAX_DETAILS_BYTES } from "../../src/mcp/bounded-details.js";
import { MAX_JSON_DEPTH } from "../../src/validation/json-depth.js";
import { nestedArrays } from "../validation/support/nested-arrays.js";

describe("boundedDetails", () => {
  it("keeps details whose JSON fits in 16 KiB as they are (the same object)", () => {
    const details = { kind: "trace", steps: ["a".repeat(1000)] };
    expect(boundedDetails(details)).toBe(details);
    expect(boundedDetails(null)).toBeNull();
    expect(boundedDetails(undefined)).toBeUndefined();
  });

  it("replaces details over the bound with the daemon's marker, counting UTF-8 bytes", () => {
    const fits = { text: "x".repeat(MAX_DETAILS_BYTES - 11) }; // {"text":"…"} is 11 bytes more
    expect(boundedDetails(fits)).toBe(fits);
    const over = { text: "é".repeat(MAX_DETAILS_BYTES / 2) }; // as many characters as bytes / 2, twice the bytes
    expect(boundedDetails(over)).toEqual({
      truncated: true,
      originalBytes: Buffer.byteLength(JSON.stringify(over)),
      maxBytes: MAX_DETAILS_BYTES,
    });
  });

  it("takes a smaller bound for a part of the details", () => {
    expect(boundedDetails("abcdefgh", 8)).toEqual({ truncated: true, originalBytes: 10, maxBytes: 8 });
    expect(boundedDetails("abcdef", 8)).toBe("abcdef");
  });

  it("drops details nested past the bound without serializing them", () => {
    expect(boundedDetails(nestedArrays(MAX_JSON_DEPTH + 1))).toEqual({
      truncated: true,
      maxDepth: MAX_JSON_DEPTH,
      maxBytes: MAX_DETAILS_BYTES,
    });
    expect(boundedDetails(nestedArrays(MAX_JSON_DEPTH))).toEqual(nestedArrays(MAX_JSON_DEPTH));
  });

  it("drops details that are not JSON instead of throwing", () => {
    expect(boundedDetails({ big: 10n })).toEqual({ truncated: true, originalBytes: null, maxBytes: MAX_DETAILS_BYTES });
    const throwing = {
      toJSON() {
        throw new Error("no");
      },
    };
    expect(boundedDetails(throwing)).toEqual({ truncated: true, originalBytes: null, maxBytes: MAX_DETAILS_BYTES });
  });
});
