import { describe, expect, it } from "vitest";
import { Glass, type GlassLogEvent } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import { ScriptedDaemon, textResult } from "../support/scripted-daemon.js";

const toolCalls = (daemon: ScriptedDaemon) => daemon.sent("tools/call") as JsonRpcRequest[];

/** A daemon that lists `tools` at connect (its serverInfo: glass-browser 0.3.14) and answers every call with `{}`. */
function daemonListing(tools: readonly string[] | undefined): ScriptedDaemon {
  const daemon = new ScriptedDaemon(() => textResult({ revision: 1 }), 8, {
    capabilities: { tools: {} },
    serverInfo: { name: "glass-browser", version: "0.3.14" },
  });
  daemon.listedTools = tools;
  return daemon;
}

describe("the daemon's tool list, read at connect", () => {
  it("refuses a typed call to a tool the daemon does not list before anything is sent, naming the tool and the daemon's version", async () => {
    const daemon = daemonListing(["observe", "getText"]);
    const glass = await Glass.connect(daemon, { negotiation: false });
    const failure = await glass.browser.screenshot({}).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: "capability.unavailable",
      mutationPossible: false,
      operation: "browser.screenshot",
      details: {
        kind: "toolNotListed",
        tool: "screenshot",
        operation: "browser.screenshot",
        daemon: "glass-browser 0.3.14",
      },
    });
    expect((failure as Error).message).toContain("glass-browser 0.3.14 does not list the screenshot tool");
    expect((failure as Error).message).toContain("nothing was sent");
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("refuses a mutation the daemon does not list without 'may have happened': nothing was sent", async () => {
    const daemon = daemonListing(["observe"]);
    const glass = await Glass.connect(daemon, { negotiation: false });
    const failure = await glass.browser.click({ target: "r1:b1" }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "capability.unavailable", mutationPossible: false });
    expect((failure as Error).message).not.toContain("may have happened");
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("sends calls to the tools the daemon lists", async () => {
    const daemon = new ScriptedDaemon((request) =>
      request.method === "tools/call" ? { result: { content: [{ type: "text", text: "Hello" }] } } : { result: {} },
    );
    daemon.listedTools = ["getText"];
    const glass = await Glass.connect(daemon, { negotiation: false });
    expect(await glass.browser.getText({})).toEqual({ text: "Hello" });
    expect(toolCalls(daemon)).toHaveLength(1);
    await glass.close();
  });

  it("refuses an untyped call to a tool that is neither in the catalog nor listed, and sends one the daemon lists", async () => {
    const daemon = daemonListing(["observe", "project.inspect"]);
    const glass = await Glass.connect(daemon, { negotiation: false });
    await expect(glass.requestUntyped("browser.noSuchTool", {})).rejects.toMatchObject({
      code: "capability.unavailable",
      details: { tool: "noSuchTool" },
    });
    expect(toolCalls(daemon)).toHaveLength(0);
    expect(await glass.requestUntyped("project.inspect", {})).toEqual({ revision: 1 });
    expect(toolCalls(daemon).map((call) => (call.params as { name: string }).name)).toEqual(["project.inspect"]);
    await glass.close();
  });

  it("answers supports() for operations from the tool list, and for capabilities from the agreement", async () => {
    const daemon = daemonListing(["observe", "preflightNavigation"]);
    const before = Glass.create(daemon, { negotiation: false });
    expect(before.supports("browser.observe")).toBe(false);
    await before.connect();
    expect(before.supports("browser.observe")).toBe(true);
    expect(before.supports("browser.preflightNavigation")).toBe(true);
    expect(before.supports("browser.screenshot")).toBe(false);
    expect(before.supports("browser.noSuchTool")).toBe(false);
    await before.close();

    const agreeing = new ScriptedDaemon(() => ({ result: {} }));
    agreeing.listedTools = ["observe", "resolveIntent"];
    const glass = await Glass.connect(agreeing);
    // resolveIntent is listed, but the agreement says its capability (intentResolution) is disabled by policy.
    expect(glass.supports("browser.resolveIntent")).toBe(false);
    expect(glass.supports("intentResolution")).toBe(false);
    expect(glass.supports("webIr")).toBe(true);
    await glass.close();
  });

  it("sends every call unchecked, and says so in the log, when the daemon does not answer tools/list with a list", async () => {
    const events: GlassLogEvent[] = [];
    const daemon = daemonListing(undefined);
    const glass = await Glass.connect(daemon, { negotiation: false, logger: (event) => events.push(event) });
    expect(glass.supports("browser.screenshot")).toBe(true);
    await glass.requestUntyped("browser.anything", {});
    expect(toolCalls(daemon)).toHaveLength(1);
    expect(events).toContainEqual({
      type: "connection",
      detail: expect.stringContaining("the daemon did not list its tools: method not found: tools/list"),
    });
    await glass.close();
  });

  it("follows tools/list's nextCursor at connect", async () => {
    const daemon = new ScriptedDaemon((request) => {
      if (request.method !== "tools/list") return textResult({ revision: 1 });
      const { cursor } = request.params as { cursor?: string };
      return cursor === undefined
        ? { result: { tools: [{ name: "observe" }], nextCursor: "page-2" } }
        : { result: { tools: [{ name: "getText" }] } };
    });
    daemon.listedTools = "handler";
    const glass = await Glass.connect(daemon, { negotiation: false });
    expect(daemon.sent("tools/list").map((message) => (message as JsonRpcRequest).params)).toEqual([
      {},
      { cursor: "page-2" },
    ]);
    expect([
      glass.supports("browser.observe"),
      glass.supports("browser.getText"),
      glass.supports("browser.click"),
    ]).toEqual([true, true, false]);
    await glass.close();
  });

  it("fails the connection when the tool list does not come within the deadline, as a stalled initialize would", async () => {
    const daemon = new ScriptedDaemon((request) =>
      request.method === "tools/list" ? { stall: true } : textResult({}),
    );
    daemon.listedTools = "handler";
    const glass = Glass.create(daemon, { negotiation: false, deadlineMs: 200 });
    await expect(glass.connect()).rejects.toMatchObject({ code: "deadlineExceeded" });
  });
});
