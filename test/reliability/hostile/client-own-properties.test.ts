/**
 * Names that come from outside — a daemon's request method, an operation name given to the
 * validators, a JSON-RPC error code — were looked up with `obj[name]`, so `constructor`,
 * `toString` and `__proto__` reached what a plain object inherits: a daemon request named
 * `constructor` was "handled" by `Object` (echoing its params back), `validatePayload("constructor",
 * …)` ran `Object` as the validator (ok for a function, NaN or a cycle), and `operations.constructor`
 * was `Object`. Every such lookup now reads own properties (or a Map), and the generated tables have
 * no prototype.
 */
import { describe, expect, it } from "vitest";
import { describeOperation, isRetrySafe, requiresLease, toolFor, type JsonRpcMessage } from "glass-sdk/protocol";
import { Glass, operations, validatePayload, validateResult } from "glass-sdk";
import { payloadValidators, resultValidators } from "../../../generated/validators/index.js";
import { ScriptedDaemon } from "../../support/scripted-daemon.js";

const INHERITED = [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "__defineGetter__",
  "toLocaleString",
];

/** Values `Object` (the inherited `constructor`) would have let through as "valid". */
function notJson(): unknown[] {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  return [() => 1, Number.NaN, cycle, { f: () => 1 }, Symbol("s")];
}

describe("daemon requests named after Object.prototype's members", () => {
  it.each([
    ["no handlers", undefined],
    ["an object literal of handlers", { "elicitation/create": () => ({ action: "decline" }) }],
  ] as const)("with %s: each is answered -32601, never by an inherited member", async (_, handlers) => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    const glass = await Glass.connect(daemon, handlers === undefined ? {} : { serverRequestHandlers: handlers });
    for (const [i, method] of INHERITED.entries())
      daemon.push({ jsonrpc: "2.0", id: `glass-server-${i}`, method, params: { secret: "echo me" } } as JsonRpcMessage);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answers = daemon.received.filter(
      (message) => "id" in message && typeof message.id === "string" && message.id.startsWith("glass-server-"),
    );
    expect(answers).toHaveLength(INHERITED.length);
    for (const answer of answers) {
      expect(answer).toMatchObject({ error: { code: -32601 } });
      expect(JSON.stringify(answer)).not.toContain("echo me");
    }
    await glass.close();
  });
});

describe("validators looked up by an operation name", () => {
  it.each(INHERITED)(
    "validatePayload(%j, …) and validateResult check JSON like any operation outside the catalog",
    (name) => {
      for (const value of notJson()) {
        expect(validatePayload(name, value).ok, `${name}: ${String(typeof value)}`).toBe(false);
        expect(validateResult(name, value).ok, `${name}: ${String(typeof value)}`).toBe(false);
      }
      expect(validatePayload(name, { any: ["json"] }).ok).toBe(true);
    },
  );

  it("the validator tables have no prototype and are frozen", () => {
    for (const table of [payloadValidators, resultValidators]) {
      expect(Object.getPrototypeOf(table)).toBeNull();
      expect(Object.isFrozen(table)).toBe(true);
      for (const name of INHERITED) expect((table as Record<string, unknown>)[name]).toBeUndefined();
    }
  });
});

describe("the operation table", () => {
  it("has no prototype: operations.constructor is undefined, and inherited names are not operations", () => {
    expect(Object.getPrototypeOf(operations)).toBeNull();
    expect(Object.isFrozen(operations)).toBe(true);
    for (const name of INHERITED) {
      expect((operations as Record<string, unknown>)[name]).toBeUndefined();
      expect(name in operations).toBe(false);
      expect(describeOperation(name)).toBeUndefined();
      // Outside the catalog and not a read-only tool: a mutation, never retried.
      expect(requiresLease(name, {})).toBe(true);
      expect(isRetrySafe(name, {})).toBe(false);
      expect(toolFor(name)).toBe(name);
    }
    expect(Object.keys(operations)).toHaveLength(101);
  });
});

describe("a JSON-RPC error whose code is an inherited name", () => {
  it.each(INHERITED)(
    "code %j: a GlassError with a string code, never a function (even with answer checks off)",
    async (code) => {
      const daemon = new ScriptedDaemon(() => ({ error: { code: code as unknown as number, message: "odd" } }));
      const glass = await Glass.connect(daemon, { validate: { responses: false } });
      const error = await glass
        .requestUntyped("browser.project.read", { path: "x" })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "response.invalid" });
      expect(typeof (error as { code: unknown }).code).toBe("string");
      await glass.close();
    },
  );

  it("a capability named after an inherited member is not usable", async () => {
    const glass = await Glass.connect(new ScriptedDaemon(() => ({ result: {} })));
    for (const name of INHERITED) expect(glass.supports(name)).toBe(false);
    await glass.close();
  });
});
