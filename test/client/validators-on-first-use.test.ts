import { afterEach, describe, expect, it, vi } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import { failure } from "../support/glass-failure.js";
import { semanticObservation } from "../support/result-samples.js";
import { ScriptedDaemon, textResult } from "../support/scripted-daemon.js";

// The client as the browser build bundlers take runs it: each operation's validators come from a
// module of their own (the compact back end's), imported on the operation's first call, as
// tsup.config.ts arranges. Here the import can be made to fail, as a chunk a page cannot fetch does.
const chunks = vi.hoisted(() => ({
  loads: [] as string[],
  unreachable: new Set<string>(),
  hanging: new Set<string>(),
  /** Operations whose chunk comes only once the promise given settles. */
  held: new Map<string, Promise<void>>(),
}));

vi.mock("../../generated/validators/by-operation.js", async () => {
  const { lazyOperationValidators } = await import("../../src/validation/operation-validators.js");
  const { operations } = await import("../../src/operations/catalog.js");
  const load = async (operation: string) => {
    chunks.loads.push(operation);
    if (chunks.hanging.has(operation)) return new Promise<never>(() => {});
    await chunks.held.get(operation);
    if (chunks.unreachable.has(operation))
      throw new TypeError(`Failed to fetch dynamically imported module: http://127.0.0.1/chunks/${operation}.js`);
    return import(`../../generated/validators-compact/operations/${operation}.ts`);
  };
  return {
    operationValidators: lazyOperationValidators(
      operations,
      Object.keys(operations).map((operation) => () => load(operation)),
    ),
  };
});

const toolCalls = (daemon: ScriptedDaemon) =>
  (daemon.sent("tools/call") as JsonRpcRequest[]).map((request) => (request.params as { name: string }).name);

function observingDaemon(result: unknown = semanticObservation(3)): ScriptedDaemon {
  return new ScriptedDaemon((request) => (request.method === "tools/call" ? textResult(result) : { result: {} }));
}

afterEach(() => {
  chunks.loads.length = 0;
  chunks.unreachable.clear();
  chunks.hanging.clear();
  chunks.held.clear();
});

describe("validators loaded on an operation's first call", () => {
  it("loads an operation's validators once, before its first call is sent, and checks its result with them", async () => {
    const daemon = observingDaemon();
    const glass = Glass.create(daemon);
    await glass.browser.observe({ level: "interactive" });
    await glass.browser.observe({ level: "interactive" });
    expect(chunks.loads).toEqual(["browser.observe"]);
    expect(toolCalls(daemon)).toEqual(["observe", "observe"]);
    await glass.close();

    const lying = observingDaemon({ ...semanticObservation(3), revision: "three" });
    const checked = Glass.create(lying);
    expect((await failure(checked.browser.observe({ level: "interactive" }))).code).toBe("response.invalid");
    await checked.close();
  });

  it("refuses a payload that breaks the loaded schema without sending it", async () => {
    const daemon = observingDaemon();
    const glass = Glass.create(daemon);
    const refused = await failure(glass.browser.observe({ level: "everything" } as never));
    expect(refused.code).toBe("payload.invalid");
    expect(toolCalls(daemon)).toEqual([]);
    await glass.close();
  });

  it("fails a call whose validators cannot be loaded with validators.unavailable, sending nothing, and loads them again on the next call", async () => {
    // An operation no other test here calls: its validators are not loaded yet.
    chunks.unreachable.add("browser.getText");
    const daemon = new ScriptedDaemon((request) =>
      request.method === "tools/call" ? { result: { content: [{ type: "text", text: "Sign in" }] } } : { result: {} },
    );
    const glass = Glass.create(daemon);
    const refused = await failure(glass.browser.getText());
    expect(refused).toBeInstanceOf(GlassError);
    expect({ code: refused.code, phase: refused.phase, mutationPossible: refused.mutationPossible }).toEqual({
      code: "validators.unavailable",
      phase: "preflight",
      mutationPossible: false,
    });
    expect(refused.message).toMatch(/validators of browser\.getText could not be loaded, so nothing was sent/);
    expect(refused.message).toContain("Failed to fetch dynamically imported module");
    expect(refused.retry.classification).toBe("safeImmediate");
    expect(toolCalls(daemon)).toEqual([]);

    chunks.unreachable.clear();
    expect((await glass.browser.getText()).text).toBe("Sign in");
    expect(chunks.loads).toEqual(["browser.getText", "browser.getText"]);
    expect(toolCalls(daemon)).toEqual(["getText"]);
    await glass.close();
  });

  it("ends a call whose validators never load at its deadline, or when its caller aborts, sending nothing", async () => {
    chunks.hanging.add("browser.scroll");
    const daemon = observingDaemon();
    const glass = Glass.create(daemon);
    const late = await failure(glass.browser.scroll({ direction: "down" } as never, { deadlineMs: 50 }));
    expect({ code: late.code, phase: late.phase, mutationPossible: late.mutationPossible }).toEqual({
      code: "deadlineExceeded",
      phase: "preflight",
      mutationPossible: false,
    });
    expect(late.message).toMatch(/validators of browser\.scroll were loading; nothing was sent/);
    const controller = new AbortController();
    const aborted = failure(glass.browser.scroll({ direction: "down" } as never, { signal: controller.signal }));
    controller.abort();
    expect((await aborted).code).toBe("cancelled");
    expect(toolCalls(daemon)).toEqual([]);
    await glass.close();
  });

  it("loads nothing for a call with validation off", async () => {
    const daemon = observingDaemon();
    const glass = Glass.create(daemon, { validate: { payloads: false, responses: false } });
    await glass.browser.observe({ level: "interactive" });
    await glass.browser.hover({ target: "ref=1" }).catch(() => undefined);
    expect(chunks.loads).toEqual([]);
    await glass.close();
  });

  it("keeps calls in the order they were made while an earlier call waits for its chunk", async () => {
    const daemon = observingDaemon();
    const glass = Glass.create(daemon);
    await glass.browser.observe({ level: "interactive" }); // observe's validators are at hand from now on
    let chunkArrives!: () => void;
    chunks.held.set("browser.hover", new Promise<void>((resolve) => (chunkArrives = resolve)));
    // Made without await: hover waits for its chunk, the observe and the call with validation off behind it.
    const calls = [
      glass.browser.hover({ target: "ref=1" }).catch(() => undefined),
      glass.browser.observe({ level: "interactive" }),
      glass.browser.observe({ level: "interactive" }, { validate: false }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(toolCalls(daemon)).toEqual(["observe"]);
    chunkArrives();
    await Promise.all(calls);
    expect(toolCalls(daemon)).toEqual(["observe", "hover", "observe", "observe"]);
    await glass.close();
  });

  it("ends a call waiting behind an earlier call's chunk at its own deadline, and lets the next go once the earlier call gives up", async () => {
    chunks.hanging.add("browser.scroll");
    const daemon = observingDaemon();
    const glass = Glass.create(daemon);
    await glass.browser.observe({ level: "interactive" });
    const stuck = failure(glass.browser.scroll({ direction: "down" } as never, { deadlineMs: 150 }));
    const behind = await failure(glass.browser.observe({ level: "interactive" }, { deadlineMs: 30 }));
    expect({ code: behind.code, phase: behind.phase }).toEqual({ code: "deadlineExceeded", phase: "preflight" });
    expect(behind.message).toMatch(/validators of an earlier call were loading; nothing was sent/);
    const after = glass.browser.observe({ level: "interactive" });
    expect((await stuck).code).toBe("deadlineExceeded");
    await after;
    expect(toolCalls(daemon)).toEqual(["observe", "observe"]);
    await glass.close();
  });
});
