import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, pathPastDepth } from "../../src/validation/json-depth.js";
import { nestedArrays } from "./support/nested-arrays.js";

describe("nestsDeeperThan", () => {
  it("counts [] as one level and [[]] as two, and scalars as none", () => {
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan([[]], 1)).toBe(true);
    expect(nestsDeeperThan({ a: { b: 1 } }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: { b: {} } }, 2)).toBe(true);
    for (const scalar of [null, 1, "x", true, undefined]) expect(nestsDeeperThan(scalar, 0)).toBe(false);
  });

  it("holds MAX_JSON_DEPTH levels by default and refuses one more", () => {
    expect(nestsDeeperThan(nestedArrays(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nestedArrays(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it("reads a million levels without exhausting the stack", () => {
    expect(nestsDeeperThan(nestedArrays(1_000_000))).toBe(true);
  });

  it("counts a cycle as too deep", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(nestsDeeperThan(loop)).toBe(true);
  });

  it("finds the deep branch among wide shallow ones", () => {
    const wide = { shallow: Array.from({ length: 1000 }, () => ({ x: [1] })), deep: nestedArrays(10) };
    expect(nestsDeeperThan(wide, 10)).toBe(true);
    expect(nestsDeeperThan(wide, 11)).toBe(false);
  });
});

describe("pathPastDepth", () => {
  it("is undefined for a value within the bound", () => {
    expect(pathPastDepth({ a: [1, { b: 2 }] }, "payload", 3)).toBeUndefined();
  });

  it("names the first container past the bound, under the root, with property names and indexes", () => {
    const value = { ok: [1], "odd key": [0, { deep: [[]] }] };
    expect(pathPastDepth(value, "payload", 4)).toBe('payload["odd key"][1].deep[0]');
    expect(pathPastDepth([[[]]], "", 2)).toBe("[0][0]");
  });

  it("cuts the path of a very deep place to 200 characters and an ellipsis", () => {
    const path = pathPastDepth(nestedArrays(MAX_JSON_DEPTH + 1), "result");
    expect(path?.startsWith("result[0][0]")).toBe(true);
    expect(path?.endsWith("…")).toBe(true);
    expect(path?.length).toBe(201);
  });
});
