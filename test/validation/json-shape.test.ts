/**
 * The public validators only accept values that are JSON and survive JSON.stringify unchanged,
 * and they never throw: values that are not JSON, or cannot even be read, become issues with a path.
 */
import { describe, it, expect } from "vitest";
import { validatePayload, validateRequest, validateResponse } from "glass-sdk";

type Issue = { path: string; reason: string };
type Result = { ok: true; value: unknown } | { ok: false; issues: Issue[] };

const REQUEST = { protocolVersion: 1, requestId: "req-1", operation: "browser.project.read", payload: {} };
const SUCCESS = { protocolVersion: 1, requestId: "req-1", ok: true, result: {} };

function validTask(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    task: "dialog.inspect",
    scope: { entityKind: "dialog" },
    limits: { maxActions: 1, timeoutMs: 1000, maxItems: 1 },
    risk: "readOnly",
  };
}

function validIr(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    revision: 3,
    document: { revision: 3 },
    entities: [{ id: "page", kind: "page", quality: "confirmed", evidenceSources: [] }],
    relationships: [],
    coverage: { structural: "strong", semantic: "partial", interactiveEntitiesObserved: 0, opaqueRegions: 0 },
    limits: { truncated: false, omittedFacts: 0, textBytes: 0, missingSources: [] },
  };
}

/** Calls a validator, failing the test (instead of crashing it) if the validator throws. */
function run(validate: () => Result): Result {
  let result: Result | undefined;
  expect(() => {
    result = validate();
  }).not.toThrow();
  return result!;
}

function issuesOf(validate: () => Result): Issue[] {
  const result = run(validate);
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  for (const issue of result.issues) {
    expect(typeof issue.path).toBe("string");
    expect(typeof issue.reason).toBe("string");
    expect(issue.reason.length).toBeGreaterThan(0);
  }
  return result.issues;
}

/**
 * Places where the public API accepts arbitrary JSON. `embed(v)` returns a validation of a value
 * that is valid except that `{value: v}` sits at `path`.
 */
const ENTRY_POINTS: { name: string; path: string; embed: (v: unknown) => () => Result }[] = [
  {
    name: "validateRequest, inside payload",
    path: "payload.value",
    embed: (v) => () => validateRequest({ ...REQUEST, payload: { value: v } }),
  },
  {
    name: "validateResponse, inside result",
    path: "result.value",
    embed: (v) => () => validateResponse({ ...SUCCESS, result: { value: v } }),
  },
  {
    name: "validateResponse { strict }, inside error.details",
    path: "error.details.value",
    embed: (v) => () =>
      validateResponse(
        { protocolVersion: 1, requestId: "r", ok: false, error: { code: "c", message: "m", details: { value: v } } },
        { strict: true },
      ),
  },
  {
    name: "validatePayload of an operation outside the catalog",
    path: "value",
    embed: (v) => () => validatePayload("browser.project.read", { value: v }),
  },
  {
    name: "validatePayload webIr.validate, inside the open surfaceSet object",
    path: "surfaceSet.value",
    embed: (v) => () => validatePayload("webIr.validate", { ir: { ...validIr(), surfaceSet: { value: v } } }),
  },
  {
    name: "validatePayload browser.batch, inside an open step object",
    path: "steps[0].value",
    embed: (v) => () => validatePayload("browser.batch", { steps: [{ value: v }], atomic: true }),
  },
];

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

/** Values that are not JSON: [label, value, path suffix of the issue, reason]. */
const NOT_JSON: [string, () => unknown, string, string][] = [
  ["a function", () => () => 1, "", "is a function, which is not JSON"],
  ["a symbol", () => Symbol("s"), "", "is a symbol, which is not JSON"],
  ["a bigint", () => 10n, "", "is a bigint, which is not JSON"],
  ["undefined", () => undefined, "", "is undefined, which is not JSON: omit the field or give it a value"],
  ["NaN", () => Number.NaN, "", "must be a finite number; NaN is not JSON"],
  ["Infinity", () => Number.POSITIVE_INFINITY, "", "must be a finite number; Infinity is not JSON"],
  ["-Infinity", () => Number.NEGATIVE_INFINITY, "", "must be a finite number; -Infinity is not JSON"],
  ["a Date", () => new Date(0), "", "is a Date instance; only plain objects are JSON"],
  ["a Map", () => new Map([["a", 1]]), "", "is a Map instance; only plain objects are JSON"],
  ["a Set", () => new Set([1]), "", "is a Set instance; only plain objects are JSON"],
  ["a class instance", () => new Point(1, 2), "", "is a Point instance; only plain objects are JSON"],
  ["a typed array", () => new Uint8Array(2), "", "is a Uint8Array instance; only plain objects are JSON"],
  ["a boxed string", () => new String("x"), "", "is a String instance; only plain objects are JSON"],
  [
    "a hole in a sparse array",
    () => [1, , 3],
    "[1]",
    "is undefined, which is not JSON: omit the field or give it a value",
  ],
  [
    "an undefined field of a nested object",
    () => ({ a: { b: undefined } }),
    ".a.b",
    "is undefined, which is not JSON: omit the field or give it a value",
  ],
];

/** Cyclic values: [label, value, path suffix where the cycle closes, one lap of the cycle]. */
const CYCLES: [string, () => unknown, string, string][] = [
  [
    "a cycle (an object that contains itself)",
    () => {
      const o: Record<string, unknown> = { name: "loop" };
      o.self = o;
      return o;
    },
    ".self",
    ".self",
  ],
  [
    "a cycle through an array",
    () => {
      const o: { list: unknown[] } = { list: [1] };
      o.list.push(o);
      return o;
    },
    ".list[1]",
    ".list[1]",
  ],
];

function throwingGetter(): unknown {
  return {
    ok: 1,
    get secret(): never {
      throw new Error("getter exploded");
    },
  };
}

function throwingProxy(): unknown {
  return new Proxy(
    { a: 1 },
    {
      get() {
        throw new Error("proxy get exploded");
      },
    },
  );
}

function deeplyNested(depth: number, kind: "object" | "array"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === "object" ? { a: value } : [value];
  return value;
}

describe.each(ENTRY_POINTS)("$name", ({ path, embed }) => {
  it.each(NOT_JSON)("reports %s at its path without throwing", (_label, make, suffix, reason) => {
    expect(issuesOf(embed(make()))).toEqual([{ path: `${path}${suffix}`, reason }]);
  });

  it.each(CYCLES)(
    "reports %s once, on a path that goes round the cycle, without throwing",
    (_label, make, suffix, step) => {
      const issues = issuesOf(embed(make()));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.reason).toBe("contains a cycle (refers back to itself), which JSON cannot represent");
      // The cycle closes at `${path}${suffix}`; the validator may follow it further round before it
      // notices (it tracks ancestors only below a depth), so the path is that prefix, then whole laps,
      // then possibly part of a lap (an object on the cycle is where the repeat is seen).
      const issuePath = issues[0]?.path ?? "";
      expect(issuePath.startsWith(`${path}${suffix}`)).toBe(true);
      let rest = issuePath.slice(`${path}${suffix}`.length);
      while (rest.startsWith(step)) rest = rest.slice(step.length);
      expect(step.startsWith(rest)).toBe(true);
    },
  );

  it("reports a getter that throws as an issue instead of throwing", () => {
    const issues = issuesOf(embed(throwingGetter()));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("could not be read");
    expect(issues[0]?.reason).toContain("getter exploded");
  });

  it("reports a Proxy whose get trap throws as an issue instead of throwing", () => {
    const issues = issuesOf(embed(throwingProxy()));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("proxy get exploded");
  });

  it("reports objects nested 100000 deep as one issue, where they pass the depth bound, instead of overflowing the stack", () => {
    const issues = issuesOf(embed(deeplyNested(100_000, "object")));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("nested too deeply");
    expect(issues[0]?.path.startsWith(path)).toBe(true);
  });

  it("reports arrays nested 100000 deep as an issue instead of overflowing the stack", () => {
    const issues = issuesOf(embed(deeplyNested(100_000, "array")));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("nested too deeply");
  });

  it("accepts JSON nested 500 deep", () => {
    expect(run(embed(deeplyNested(500, "object"))).ok).toBe(true);
  });

  it("accepts the same object referenced twice (a shared reference is not a cycle)", () => {
    const shared = { x: 1 };
    expect(run(embed({ a: shared, b: [shared, shared] })).ok).toBe(true);
  });

  it("accepts an object with a null prototype and -0", () => {
    expect(run(embed(Object.assign(Object.create(null) as object, { a: -0 }))).ok).toBe(true);
  });

  it("reports every non-JSON value of one object, each at its own path", () => {
    const issues = issuesOf(embed({ f: () => 1, n: Number.NaN, ok: "fine", d: new Date(0) }));
    expect(issues.map((issue) => issue.path)).toEqual([`${path}.f`, `${path}.n`, `${path}.d`]);
  });
});

describe("undefined fields of an envelope are reported, not silently dropped", () => {
  it("reports {correlationId: undefined} in a request at correlationId", () => {
    expect(issuesOf(() => validateRequest({ ...REQUEST, correlationId: undefined }))).toEqual([
      { path: "correlationId", reason: "must be a string (got undefined)" },
    ]);
  });

  it.each([
    ["sessionId", "must be a string (got undefined)"],
    ["deadlineMs", "must be an integer (got undefined)"],
    ["mutationLease", "must be an object (got undefined)"],
    ["payload", "is undefined, which is not JSON: omit the field or give it a value"],
  ])("reports {%s: undefined} in a request", (field, reason) => {
    expect(issuesOf(() => validateRequest({ ...REQUEST, [field]: undefined }))).toEqual([{ path: field, reason }]);
  });

  it("reports {result: undefined} in a response at result", () => {
    expect(issuesOf(() => validateResponse({ ...SUCCESS, result: undefined }))).toEqual([
      { path: "result", reason: "is undefined, which is not JSON: omit the field or give it a value" },
    ]);
  });

  it("reports an undefined unknown field of a response (default mode) at its path", () => {
    expect(issuesOf(() => validateResponse({ ...SUCCESS, hint: undefined }))).toEqual([
      { path: "hint", reason: "is undefined, which is not JSON: omit the field or give it a value" },
    ]);
  });

  it("reports an undefined optional field of a catalog payload", () => {
    expect(issuesOf(() => validatePayload("browser.click", { target: "#go", expectedRevision: undefined }))).toEqual([
      { path: "expectedRevision", reason: "must be an integer (got undefined)" },
    ]);
  });
});

describe("values that cannot be read", () => {
  it("reports a request whose payload getter throws", () => {
    const request = {
      ...REQUEST,
      get payload(): never {
        throw new Error("payload unavailable");
      },
    };
    const issues = issuesOf(() => validateRequest(request));
    expect(issues[0]?.reason).toContain("payload unavailable");
  });

  it("reports a request that is a Proxy whose ownKeys trap throws", () => {
    const request = new Proxy(
      { ...REQUEST },
      {
        ownKeys() {
          throw new Error("no keys for you");
        },
      },
    );
    expect(issuesOf(() => validateRequest(request))).toEqual([
      { path: "", reason: "could not be read: no keys for you" },
    ]);
  });

  it("reports a revoked Proxy as a response", () => {
    const { proxy, revoke } = Proxy.revocable({ ...SUCCESS }, {});
    revoke();
    const issues = issuesOf(() => validateResponse(proxy));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("could not be read");
  });

  it("reports a catalog payload whose field getter throws", () => {
    const payload = {
      get target(): never {
        throw new Error("target unavailable");
      },
    };
    expect(issuesOf(() => validatePayload("browser.click", payload))).toEqual([
      { path: "", reason: "could not be read: target unavailable" },
    ]);
  });

  it("reports a Web IR document nested 100000 deep inside surfaceSet", () => {
    const issues = issuesOf(() =>
      validatePayload("webIr.validate", {
        ir: { ...validIr(), surfaceSet: { deep: deeplyNested(100_000, "object") } },
      }),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.reason).toContain("nested too deeply");
  });

  it("reports a whole request nested 100000 deep (payload) for a catalog operation", () => {
    const issues = issuesOf(() =>
      validateRequest({ ...REQUEST, operation: "browser.batch", payload: deeplyNested(100_000, "array") }),
    );
    expect(issues[0]?.reason).toContain("nested too deeply");
  });

  it("does not hang on a Task that refers back to itself where a string belongs", () => {
    const task = validTask();
    task.postconditions = [{ kind: "pageKind", expected: task }];
    const issues = issuesOf(() => validatePayload("task.validate", { task }));
    expect(issues).toEqual([{ path: "postconditions[0].expected", reason: "must be a string (got object)" }]);
  });

  it("does not hang on a cycle between the two documents of webIr.diff", () => {
    const before = validIr();
    const after = { ...validIr(), surfaceSet: { back: before } };
    (before as Record<string, unknown>).surfaceSet = { forward: after };
    const result = run(() => validatePayload("webIr.diff", { before, after }));
    expect(result.ok).toBe(false);
  });
});

describe("non-object envelopes and payloads", () => {
  const NON_OBJECTS: [string, unknown, string][] = [
    ["null", null, "must be an object (got null)"],
    ["5", 5, "must be an object (got number)"],
    ['"x"', "x", "must be an object (got string)"],
    ["[]", [], "must be an object (got an array)"],
  ];

  it.each(NON_OBJECTS)("validateRequest(%s) reports the root", (_label, value, reason) => {
    expect(issuesOf(() => validateRequest(value))).toEqual([{ path: "", reason }]);
  });

  it.each(NON_OBJECTS)("validateResponse(%s) reports the root", (_label, value, reason) => {
    expect(issuesOf(() => validateResponse(value))).toEqual([{ path: "", reason }]);
  });

  it.each(NON_OBJECTS)("validatePayload('browser.click', %s) reports the root", (_label, value, reason) => {
    expect(issuesOf(() => validatePayload("browser.click", value))).toEqual([{ path: "", reason }]);
  });

  it.each(NON_OBJECTS)(
    "validatePayload('task.validate', { task: %s }) reports the document root",
    (_label, value, reason) => {
      // Paths inside a Task restart at its root, as the daemon reports them.
      expect(issuesOf(() => validatePayload("task.validate", { task: value }))).toEqual([{ path: "", reason }]);
    },
  );

  it('validatePayload of an operation outside the catalog accepts null, 5, "x" and []', () => {
    for (const [, value] of NON_OBJECTS)
      expect(run(() => validatePayload("browser.project.read", value)).ok).toBe(true);
  });
});

/*
 * A typed object position accepts only a plain object and reads only its own fields: a Date, a Map,
 * a class instance or an object whose fields are inherited would pass a naive `typeof` check, yet
 * JSON.stringify writes something else (a Date becomes a string, a Map `{}`, inherited fields vanish).
 */
describe("typed object positions reject values that would not serialize as validated", () => {
  it("rejects a Date as Task inputs (JSON.stringify turns it into a string)", () => {
    const task = { ...validTask(), inputs: new Date(0) };
    const result = run(() => validatePayload("task.validate", { task }));
    expect(JSON.parse(JSON.stringify(task)).inputs).toBe("1970-01-01T00:00:00.000Z");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain("inputs");
  });

  it("rejects a Date as a Web IR surfaceSet (an open object position)", () => {
    const result = run(() => validatePayload("webIr.validate", { ir: { ...validIr(), surfaceSet: new Date(0) } }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain("surfaceSet");
  });

  it("rejects a Map as a browser.batch step (it serializes to {})", () => {
    const result = run(() => validatePayload("browser.batch", { steps: [new Map([["tool", "click"]])], atomic: true }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain("steps[0]");
  });

  it("rejects a catalog payload whose required field is inherited (it serializes to {})", () => {
    const payload = Object.create({ target: "#go" }) as object;
    expect(JSON.stringify(payload)).toBe("{}");
    expect(run(() => validatePayload("browser.click", payload)).ok).toBe(false);
  });

  it("rejects a request whose fields are all inherited (it serializes to {})", () => {
    const request = Object.create({ ...REQUEST }) as object;
    expect(JSON.stringify(request)).toBe("{}");
    expect(run(() => validateRequest(request)).ok).toBe(false);
  });

  it("rejects a request whose requestId is a prototype getter (JSON.stringify drops it)", () => {
    class RequestLike {
      protocolVersion = 1;
      operation = "browser.click";
      payload = {};
      get requestId(): string {
        return "req-1";
      }
    }
    const request = new RequestLike();
    expect(JSON.parse(JSON.stringify(request))).not.toHaveProperty("requestId");
    const result = run(() => validateRequest(request));
    expect(result.ok).toBe(false);
  });

  it("rejects a response whose fields are all inherited (it serializes to {})", () => {
    expect(run(() => validateResponse(Object.create({ ...SUCCESS }) as object)).ok).toBe(false);
  });
});
