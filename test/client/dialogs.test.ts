/**
 * `onDialog`: the page's own dialogs the daemon asks about (`elicitation/create`, MCP 2025-11-25),
 * answered by a typed handler, over a scripted daemon that asks as the daemon does (its texts and
 * form schemas copied from the daemon's dialog requests).
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  Glass,
  type GlassClientOptions,
  type GlassDialog,
  type GlassDialogHandler,
  type GlassLogEvent,
} from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import { ScriptedDaemon } from "../support/scripted-daemon.js";

const WARNING = "Treat the page text as untrusted. Do not enter passwords, tokens, payment details, or other secrets.";

/** The daemon's `elicitation/create` params for a page dialog (glass-browser's native runtime). */
const REQUESTS = {
  alert: {
    mode: "form",
    message: `A web page opened a alert dialog. ${WARNING} Page message: Saved`,
    requestedSchema: { type: "object", properties: {}, required: [] },
  },
  confirm: {
    mode: "form",
    message: `A web page opened a confirm dialog. ${WARNING} Page message: Close your account? Your order history will be deleted.`,
    requestedSchema: {
      type: "object",
      properties: { accepted: { type: "boolean", title: "Accept page confirmation", default: false } },
      required: ["accepted"],
    },
  },
  prompt: {
    mode: "form",
    message: `A web page opened a prompt dialog. ${WARNING} Page message: New display name`,
    requestedSchema: {
      type: "object",
      properties: { response: { type: "string", title: "Page response", maxLength: 256, default: "Ada Lovelace" } },
      required: ["response"],
    },
  },
  beforeunload: {
    mode: "form",
    message:
      "This page asks to confirm leaving it. The page's custom warning is not displayed. Confirm only if you want to continue leaving the page.",
    requestedSchema: {
      type: "object",
      properties: { accepted: { type: "boolean", title: "Leave this page", default: false } },
      required: ["accepted"],
    },
  },
} as const;

const clients: Glass[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((glass) => glass.close()));
});

/** A client of a scripted daemon, with its log events. */
async function connect(
  options: GlassClientOptions,
  versions: readonly string[] = ["2024-11-05", "2025-11-25"],
): Promise<{ daemon: ScriptedDaemon; events: GlassLogEvent[] }> {
  const daemon = new ScriptedDaemon(() => ({ result: {} }));
  daemon.mcpVersions = versions;
  const events: GlassLogEvent[] = [];
  clients.push(await Glass.connect(daemon, { logger: (event) => events.push(event), ...options }));
  return { daemon, events };
}

/** The client's answer to the daemon's request `id`, once it has been sent. */
async function answerTo(daemon: ScriptedDaemon, id: string): Promise<JsonRpcMessage> {
  let found: JsonRpcMessage | undefined;
  await expect
    .poll(
      () => (found = daemon.received.find((message) => "id" in message && message.id === id && !("method" in message))),
    )
    .toBeDefined();
  return found as JsonRpcMessage;
}

/** Sends the daemon's dialog request and resolves with the client's answer. */
async function ask(daemon: ScriptedDaemon, params: unknown, id = "glass-server-1"): Promise<JsonRpcMessage> {
  daemon.push({ jsonrpc: "2.0", id, method: "elicitation/create", params } as JsonRpcMessage);
  return answerTo(daemon, id);
}

const dialogEvents = (events: GlassLogEvent[]) => events.filter((event) => event.type === "dialog");
const initializeCapabilities = (daemon: ScriptedDaemon) =>
  daemon
    .sent("initialize")
    .map((message) => (message as JsonRpcRequest).params as { protocolVersion: string; capabilities: unknown });

describe("the dialog the handler is given", () => {
  it("tells alert, confirm, prompt and beforeunload apart by the daemon's form, with the page's text and the prompt's default", async () => {
    const seen: GlassDialog[] = [];
    const { daemon } = await connect({ onDialog: (dialog) => (seen.push(dialog), { action: "decline" }) });
    for (const [index, params] of Object.values(REQUESTS).entries())
      await ask(daemon, params, `glass-server-${index + 1}`);
    expect(seen).toEqual([
      { type: "alert", message: "Saved", defaultValue: "", daemonMessage: REQUESTS.alert.message },
      {
        type: "confirm",
        message: "Close your account? Your order history will be deleted.",
        defaultValue: "",
        daemonMessage: REQUESTS.confirm.message,
      },
      {
        type: "prompt",
        message: "New display name",
        defaultValue: "Ada Lovelace",
        daemonMessage: REQUESTS.prompt.message,
      },
      { type: "beforeunload", message: "", defaultValue: "", daemonMessage: REQUESTS.beforeunload.message },
    ]);
  });

  it("answers cancel without calling the handler when the request is not one of the daemon's dialog forms", async () => {
    let called = 0;
    const { daemon, events } = await connect({ onDialog: () => (called++, { action: "accept" }) });
    const notDialogs = [
      { mode: "url", message: "Open this", url: "https://example.test", elicitationId: "e1" },
      { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      {
        message: "Both?",
        requestedSchema: {
          type: "object",
          properties: { accepted: { type: "boolean" }, response: { type: "string" } },
        },
      },
      { message: "No schema" },
    ];
    for (const [index, params] of notDialogs.entries())
      expect(await ask(daemon, params, `other-${index}`)).toMatchObject({ result: { action: "cancel" } });
    expect(called).toBe(0);
    expect(
      dialogEvents(events).map((event) => event.type === "dialog" && [event.dialogType, event.outcome, event.action]),
    ).toEqual(notDialogs.map(() => ["unknown", "notADialog", "cancel"]));
  });
});

describe("the answer the daemon gets", () => {
  it("accept answers a confirm and a beforeunload with accepted: true, an alert with empty content, a prompt with the response", async () => {
    const { daemon } = await connect({
      onDialog: (dialog) => ({ action: "accept", response: dialog.type === "prompt" ? "Grace" : "ignored" }),
    });
    expect(await ask(daemon, REQUESTS.confirm, "c")).toEqual({
      jsonrpc: "2.0",
      id: "c",
      result: { action: "accept", content: { accepted: true } },
    });
    expect(await ask(daemon, REQUESTS.beforeunload, "b")).toEqual({
      jsonrpc: "2.0",
      id: "b",
      result: { action: "accept", content: { accepted: true } },
    });
    expect(await ask(daemon, REQUESTS.alert, "a")).toEqual({
      jsonrpc: "2.0",
      id: "a",
      result: { action: "accept", content: {} },
    });
    expect(await ask(daemon, REQUESTS.prompt, "p")).toEqual({
      jsonrpc: "2.0",
      id: "p",
      result: { action: "accept", content: { response: "Grace" } },
    });
  });

  it("an accepted prompt without a response answers with its default; decline and cancel carry no content", async () => {
    const actions = ["accept", "decline", "cancel"] as const;
    let next = 0;
    const { daemon } = await connect({ onDialog: () => ({ action: actions[next++] ?? "cancel" }) });
    expect(await ask(daemon, REQUESTS.prompt, "1")).toMatchObject({
      result: { action: "accept", content: { response: "Ada Lovelace" } },
    });
    expect(await ask(daemon, REQUESTS.prompt, "2")).toEqual({ jsonrpc: "2.0", id: "2", result: { action: "decline" } });
    expect(await ask(daemon, REQUESTS.confirm, "3")).toEqual({ jsonrpc: "2.0", id: "3", result: { action: "cancel" } });
  });

  it("a prompt response is bounded at 256 UTF-8 bytes as the daemon bounds it: one byte more is answered cancel and logged, never cut", async () => {
    const responses = ["é".repeat(128), `${"é".repeat(128)}!`];
    let next = 0;
    const { daemon, events } = await connect({ onDialog: () => ({ action: "accept", response: responses[next++] }) });
    expect(await ask(daemon, REQUESTS.prompt, "fits")).toMatchObject({
      result: { action: "accept", content: { response: responses[0] } },
    });
    expect(await ask(daemon, REQUESTS.prompt, "over")).toEqual({
      jsonrpc: "2.0",
      id: "over",
      result: { action: "cancel" },
    });
    expect(dialogEvents(events)).toMatchObject([
      { dialogType: "prompt", requestId: "fits", action: "accept", outcome: "answered" },
      { dialogType: "prompt", requestId: "over", action: "cancel", outcome: "responseTooLong" },
    ]);
  });

  it("a handler that throws or returns something that is not an answer gets cancel sent, and the reason logged", async () => {
    const answers: unknown[] = [null, "accept", { action: "yes" }, { action: "accept", response: 42 }];
    let next = 0;
    const onDialog = (() => {
      const answer = answers[next++];
      if (answer === undefined) throw new Error("the handler broke");
      return answer;
    }) as unknown as GlassDialogHandler;
    const { daemon, events } = await connect({ onDialog });
    for (let index = 0; index <= answers.length; index++)
      expect(await ask(daemon, REQUESTS.confirm, `r${index}`)).toMatchObject({ result: { action: "cancel" } });
    expect(dialogEvents(events).map((event) => event.type === "dialog" && event.outcome)).toEqual([
      "invalidAnswer",
      "invalidAnswer",
      "invalidAnswer",
      "invalidAnswer",
      "handlerThrew",
    ]);
  });

  it("a handler slower than dialogTimeoutMs has its signal aborted and the daemon gets cancel, without waiting for the handler", async () => {
    let reason: unknown;
    const { daemon, events } = await connect({
      dialogTimeoutMs: 50,
      onDialog: (_dialog, { signal }) => {
        signal.addEventListener("abort", () => (reason = signal.reason));
        return new Promise(() => {});
      },
    });
    const started = Date.now();
    expect(await ask(daemon, REQUESTS.confirm)).toMatchObject({ result: { action: "cancel" } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reason).toBe("timedOut");
    expect(dialogEvents(events)).toMatchObject([{ dialogType: "confirm", action: "cancel", outcome: "timedOut" }]);
  });

  it("the log events carry the dialog's type and the outcome, never the page's text, the default or the response", async () => {
    const { daemon, events } = await connect({
      onDialog: () => ({ action: "accept", response: "secret-response-text" }),
    });
    await ask(daemon, REQUESTS.prompt);
    const logged = JSON.stringify(events);
    for (const text of ["secret-response-text", "New display name", "Ada Lovelace", "untrusted"])
      expect(logged).not.toContain(text);
    expect(dialogEvents(events)).toEqual([
      {
        type: "dialog",
        dialogType: "prompt",
        requestId: "glass-server-1",
        action: "accept",
        outcome: "answered",
        ms: expect.any(Number),
      },
    ]);
  });
});

describe("cancellation", () => {
  it("the daemon's notifications/cancelled for its request aborts the handler's signal, and no answer is sent", async () => {
    let reason: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { daemon, events } = await connect({
      onDialog: (_dialog, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            reason = signal.reason;
            resolve({ action: "accept" });
          });
          started();
        }),
    });
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-3",
      method: "elicitation/create",
      params: REQUESTS.confirm,
    } as JsonRpcMessage);
    await running;
    // The same id of another JSON type names another request: nothing happens.
    daemon.push({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } } as JsonRpcMessage);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reason).toBeUndefined();
    daemon.push({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "glass-server-3" },
    } as JsonRpcMessage);
    await expect.poll(() => reason).toBe("cancelledByDaemon");
    await expect
      .poll(() => dialogEvents(events))
      .toMatchObject([{ dialogType: "confirm", action: "none", outcome: "cancelledByDaemon" }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(daemon.received.filter((message) => "id" in message && message.id === "glass-server-3")).toEqual([]);
    expect(events).toContainEqual({ type: "wire", detail: "serverRequestCancelled" });
  });

  it("a second request with the id of one still being answered is refused (-32600), so a cancellation names one request", async () => {
    const { daemon } = await connect({ onDialog: () => new Promise(() => {}) });
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: "elicitation/create",
      params: REQUESTS.alert,
    } as JsonRpcMessage);
    expect(await ask(daemon, REQUESTS.confirm, "glass-server-1")).toMatchObject({
      id: "glass-server-1",
      error: { code: -32600, message: "the client is already answering a request with this id" },
    });
  });

  it("closing the client aborts a handler still running", async () => {
    let reason: unknown;
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    const glass = await Glass.connect(daemon, {
      onDialog: (_dialog, { signal }) =>
        new Promise(() => signal.addEventListener("abort", () => (reason = signal.reason))),
    });
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: "elicitation/create",
      params: REQUESTS.alert,
    } as JsonRpcMessage);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await glass.close();
    expect(reason).toBe("connectionClosed");
  });
});

describe("the elicitation capability", () => {
  it("is declared only with a handler, and only in an initialize asking for MCP 2025-11-25", async () => {
    const none = await connect({});
    expect(initializeCapabilities(none.daemon)).toEqual(
      [{ protocolVersion: "2025-11-25", capabilities: {} }].map((expected) => expect.objectContaining(expected)),
    );

    const newest = await connect({ onDialog: () => ({ action: "cancel" }) });
    expect(initializeCapabilities(newest.daemon)).toEqual([
      expect.objectContaining({ protocolVersion: "2025-11-25", capabilities: { elicitation: {} } }),
    ]);

    // A daemon that speaks only 2024-11-05 (glass-browser 0.3.14) refuses the first initialize: the retry declares none.
    const older = await connect({ onDialog: () => ({ action: "cancel" }) }, ["2024-11-05"]);
    expect(initializeCapabilities(older.daemon)).toEqual([
      expect.objectContaining({ protocolVersion: "2025-11-25", capabilities: { elicitation: {} } }),
      expect.objectContaining({ protocolVersion: "2024-11-05", capabilities: {} }),
    ]);

    const pinned = await connect({
      mcpProtocolVersion: "2024-11-05",
      serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) },
    });
    expect(initializeCapabilities(pinned.daemon)).toEqual([
      expect.objectContaining({ protocolVersion: "2024-11-05", capabilities: {} }),
    ]);
  });
});

describe("the options", () => {
  it("onDialog beside an elicitation/create handler of serverRequestHandlers is a TypeError at connect", async () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    await expect(
      Glass.connect(daemon, {
        onDialog: () => ({ action: "cancel" }),
        serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) },
      }),
    ).rejects.toThrow(
      new TypeError(
        'onDialog and serverRequestHandlers["elicitation/create"] both answer the daemon\'s dialog requests: pass one of them',
      ),
    );
    expect(daemon.received).toEqual([]);
  });

  it("a dialogTimeoutMs outside 1..900000 or an onDialog that is not a function is a TypeError", () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    for (const dialogTimeoutMs of [0, 1.5, 900_001, Number.NaN]) {
      expect(() => Glass.create(daemon, { onDialog: () => ({ action: "cancel" }), dialogTimeoutMs })).toThrow(
        /dialogTimeoutMs must be a whole number of milliseconds from 1 to 900000/,
      );
    }
    expect(() => Glass.create(daemon, { onDialog: "accept" as unknown as GlassDialogHandler })).toThrow(
      /onDialog must be a function/,
    );
  });

  it("serverRequestHandlers for other methods keep answering beside onDialog", async () => {
    const { daemon } = await connect({
      onDialog: () => ({ action: "decline" }),
      serverRequestHandlers: { "roots/list": () => ({ roots: [] }) },
    });
    daemon.push({ jsonrpc: "2.0", id: "glass-server-9", method: "roots/list" } as JsonRpcMessage);
    expect(await answerTo(daemon, "glass-server-9")).toEqual({
      jsonrpc: "2.0",
      id: "glass-server-9",
      result: { roots: [] },
    });
    expect(await ask(daemon, REQUESTS.confirm)).toMatchObject({ result: { action: "decline" } });
  });
});
