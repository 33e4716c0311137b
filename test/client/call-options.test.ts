import { describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import { ScriptedDaemon, textResult } from "../support/scripted-daemon.js";

const toolCalls = (daemon: ScriptedDaemon) => daemon.sent("tools/call") as JsonRpcRequest[];
const argumentsOf = (request: JsonRpcRequest) => (request.params as { arguments: Record<string, unknown> }).arguments;

const PAGE = { url: "https://shop.example/login", title: "Sign in", kind: "form" };

/** The daemon's opaque failure, with the trace a call asked for (includeTrace) as a second text item. */
const failedWithTrace = (reason: string) => ({
  result: {
    isError: true,
    content: [
      { type: "text", text: "browser tool failed" },
      { type: "text", text: JSON.stringify({ error: reason }) },
    ],
  },
});

describe("responseMode and includeTrace, per-call options", () => {
  it("sends responseMode as the tool's argument, beside the payload, for operations whose tool takes it", async () => {
    const daemon = new ScriptedDaemon(() =>
      textResult({
        detailAvailability: { resultId: "mcp_1_1", detailsAvailable: true, detailsTruncated: false },
        result: [],
      }),
    );
    const glass = await Glass.connect(daemon, { negotiation: false });
    await glass.browser.sessionSnapshot({ operation: "list" }, { responseMode: "diagnostic" });
    await glass.browser.sessionSnapshot({ operation: "list" });
    expect(toolCalls(daemon).map(argumentsOf)).toEqual([
      { operation: "list", responseMode: "diagnostic" },
      { operation: "list" },
    ]);
    await glass.close();
  });

  it("refuses responseMode or includeTrace on an operation whose tool does not take it, before sending", async () => {
    const daemon = new ScriptedDaemon(() => textResult({}));
    const glass = await Glass.connect(daemon, { negotiation: false });
    const options = { responseMode: "normal" } as never;
    await expect(glass.browser.getText({}, options)).rejects.toMatchObject({
      code: "request.invalid",
      message: expect.stringContaining("browser.getText does not take responseMode"),
    });
    await expect(glass.browser.getDOM({}, { includeTrace: true } as never)).rejects.toMatchObject({
      code: "request.invalid",
      message: expect.stringContaining("browser.getDOM does not take includeTrace"),
    });
    await expect(
      glass.browser.sessionSnapshot({ operation: "list" }, { responseMode: "verbose" as never }),
    ).rejects.toMatchObject({
      code: "request.invalid",
      message: expect.stringContaining('responseMode must be "minimal", "normal" or "diagnostic", not "verbose"'),
    });
    expect(toolCalls(daemon)).toHaveLength(0);
    await glass.close();
  });

  it("asks for the failure trace with includeTrace and gives its reason in the error instead of the bare 'browser tool failed'", async () => {
    const daemon = new ScriptedDaemon((request) =>
      argumentsOf(request).includeTrace === true
        ? failedWithTrace("no element matches r9:b9")
        : { result: { isError: true, content: [{ type: "text", text: "browser tool failed" }] } },
    );
    const glass = await Glass.connect(daemon, { negotiation: false });
    const traced = await glass.browser.screenshot({}, { includeTrace: true }).catch((error: unknown) => error);
    expect(argumentsOf(toolCalls(daemon)[0]!)).toEqual({ includeTrace: true });
    expect(traced).toMatchObject({
      code: "tool.failed",
      message: expect.stringContaining("the daemon's screenshot tool failed: no element matches r9:b9"),
      details: { kind: "opaqueToolFailure", trace: "no element matches r9:b9" },
    });
    const bare = await glass.browser.screenshot({}).catch((error: unknown) => error);
    expect((bare as Error).message).toContain('failed without saying why ("browser tool failed")');
    expect(argumentsOf(toolCalls(daemon)[1]!)).toEqual({});
    await glass.close();
  });

  it("keeps 'the action may have happened' on a traced failure of a mutation", async () => {
    const daemon = new ScriptedDaemon(() => failedWithTrace("element is not visible"));
    const glass = await Glass.connect(daemon, { negotiation: false });
    const failure = await glass.browser
      .click({ target: "r1:b2" }, { includeTrace: true })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "tool.failed", mutationPossible: true });
    expect((failure as Error).message).toContain(
      "the daemon's click tool failed: element is not visible; the action may have happened",
    );
    await glass.close();
  });

  it("passes the options on for an untyped operation, whose tool the catalog cannot vouch for", async () => {
    const daemon = new ScriptedDaemon(() => textResult({ page: PAGE }));
    const glass = await Glass.connect(daemon, { negotiation: false });
    await glass.requestUntyped("browser.futureTool", { a: 1 }, { responseMode: "minimal", includeTrace: true });
    expect(argumentsOf(toolCalls(daemon)[0]!)).toEqual({ a: 1, responseMode: "minimal", includeTrace: true });
    await glass.close();
  });
});
