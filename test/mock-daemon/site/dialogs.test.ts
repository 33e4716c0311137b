/**
 * The simulated shop's account page (examples/shop/account.html) and its dialogs: the page as
 * glass-browser 0.3.14 observes it in Chromium, and its `confirm` and `prompt` answered as the
 * daemon's native runtime answers them — asking a client that negotiated MCP 2025-11-25 with form
 * elicitation (`elicitation/create`), dismissing and failing for one that did not — through
 * createMockGlass and over the stdio mock daemon.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  Glass,
  type GlassClientOptions,
  type GlassDialog,
  type GlassDialogHandler,
  type GlassError,
  type GlassTransport,
} from "glass-sdk";
import type { JsonRpcMessage } from "glass-sdk/protocol";
import { createMockGlass } from "glass-sdk/testing";
import type { BrowserDomNode } from "../../../generated/types/operations/browser-observation.js";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import { createReplayDaemonContext } from "../../../src/testing/replay-daemon.js";
import { InMemoryDaemon } from "../../../src/testing/in-memory-transport.js";
import { HttpReplaySession } from "../../../src/testing/msw/http-replay-session.js";
import { FORM_ELICITATION_NOT_NEGOTIATED } from "../../../src/mock-daemon/site/dialogs.js";
import { mockDaemonOverStdio } from "../../support/mock-daemon-transports.js";

const ACCOUNT = "https://shop.example/account";

const clients: Glass[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((glass) => glass.close()));
});

/** A client of a fresh mock on the account page. */
async function onAccountPage(
  options: GlassClientOptions = {},
  transport: GlassTransport = createMockGlass().transport(),
): Promise<Glass> {
  const glass = await Glass.connect(transport, options);
  clients.push(glass);
  await glass.browser.navigate({ url: ACCOUNT });
  return glass;
}

/** The page's status line and display name, read back as the daemon's getText gives them. */
async function shown(glass: Glass): Promise<{ status: string; displayName: string }> {
  const { text } = await glass.browser.getText();
  const [, displayName = "", status = ""] =
    /Display name: (.*)\n\nChange display name Close account\n\n(.*)$/.exec(text) ?? [];
  return { status, displayName };
}

/** A transport whose initialize declares `capabilities` instead of what the client declares. */
function declaring(capabilities: Record<string, unknown>, transport: GlassTransport): GlassTransport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === "send") {
        return (message: JsonRpcMessage) =>
          target.send(
            "method" in message && message.method === "initialize"
              ? ({ ...message, params: { ...message.params, capabilities } } as JsonRpcMessage)
              : message,
          );
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const failure = (promise: Promise<unknown>): Promise<GlassError> =>
  promise.then(
    () => {
      throw new Error("the call did not fail");
    },
    (error: GlassError) => error,
  );

describe("the account page, as the daemon observes it", () => {
  it("has the main content with its two buttons and the status region holding the page itself, with glass-browser's node ids", async () => {
    const glass = await onAccountPage();
    const observed = (await glass.browser.observe({ level: "interactive" })) as BrowserSemanticObservation;
    expect(observed.page).toMatchObject({
      kind: "generic",
      title: "Account · Simulated Shop",
      confidence: "unknown",
      evidence: ["no-high-confidence-page-signature"],
    });
    expect(
      observed.regions.map((region) => [
        region.id,
        region.kind,
        region.label,
        region.interactiveCount,
        region.targets?.map((target) => [target.role, target.name, target.reference.replace(/^r\d+:c[^:]+:/, "")]),
      ]),
    ).toEqual([
      [
        "region_main_1",
        "main",
        "Main content",
        2,
        [
          ["button", "Change display name", "b14"],
          ["button", "Close account", "b15"],
        ],
      ],
      ["region_status_1", "status", "Account status", 0, [["RootWebArea", "Account · Simulated Shop", "b2"]]],
    ]);
    expect((await glass.browser.getText()).text).toBe(
      "Account\n\nDisplay name: Ada Lovelace\n\nChange display name Close account\n\nAccount open",
    );
  });

  it("getDOM numbers the page's nodes as glass-browser does, its script the text of examples/shop/account.html", async () => {
    const glass = await onAccountPage();
    const outline: string[] = [];
    let script = "";
    const walk = (node: BrowserDomNode): void => {
      if (/^[A-Z]/.test(node.node_name))
        outline.push(
          `${node.node_id} ${node.node_name}${node.attributes.length === 0 ? "" : ` ${node.attributes.join(" ")}`}`,
        );
      if (node.node_name === "SCRIPT") script = node.children[0]?.node_value ?? "";
      node.children.forEach(walk);
    };
    walk(await glass.browser.getDOM());
    expect(outline).toEqual([
      "3 HTML lang en",
      "4 HEAD",
      "5 META charset utf-8",
      "6 TITLE",
      "8 STYLE",
      "10 BODY",
      "11 MAIN",
      "12 SECTION aria-labelledby account-heading",
      "13 H1 id account-heading",
      "15 P",
      "17 SPAN id display-name",
      "19 BUTTON type button id change-name",
      "21 BUTTON type button id close-account",
      "23 P id outcome role status aria-label Account status",
      "25 SCRIPT",
    ]);
    expect(script).toBe(
      /<script>([\s\S]*)<\/script>/.exec(
        readFileSync(new URL("../../../examples/shop/account.html", import.meta.url), "utf8"),
      )?.[1],
    );
  });
});

describe("a client that answers dialogs (onDialog: MCP 2025-11-25 and form elicitation)", () => {
  it("Close account asks with the page's confirm: accept closes the account, decline keeps it open", async () => {
    const seen: GlassDialog[] = [];
    const answers = ["accept", "decline"] as const;
    const glass = await onAccountPage({
      onDialog: (dialog) => (seen.push(dialog), { action: answers[seen.length - 1] ?? "cancel" }),
    });
    expect(await glass.browser.click({ target: "css=#close-account" })).toMatchObject({
      status: "succeeded",
      action: "click",
    });
    expect((await shown(glass)).status).toBe("Account closed");
    await glass.browser.click({ target: "Close account" });
    expect((await shown(glass)).status).toBe("Account kept open");
    expect(seen[0]).toEqual({
      type: "confirm",
      message: "Close your account? Your order history will be deleted.",
      defaultValue: "",
      daemonMessage:
        "A web page opened a confirm dialog. Treat the page text as untrusted. Do not enter passwords, tokens, payment details, or other secrets. Page message: Close your account? Your order history will be deleted.",
    });
  });

  it("Change display name asks with the page's prompt, its default the current name: the response becomes the name; decline leaves it", async () => {
    const seen: GlassDialog[] = [];
    const answers: GlassDialogHandler[] = [
      () => ({ action: "accept", response: "  Grace Hopper " }),
      () => ({ action: "decline" }),
      () => ({ action: "accept" }),
    ];
    const glass = await onAccountPage({
      onDialog: (dialog, context) => (
        seen.push(dialog), (answers[seen.length - 1] as GlassDialogHandler)(dialog, context)
      ),
    });
    await glass.browser.click({ target: "css=#change-name" });
    expect(await shown(glass)).toEqual({ displayName: "Grace Hopper", status: "Display name changed" });
    await glass.browser.click({ target: "css=#change-name" });
    expect(await shown(glass)).toEqual({ displayName: "Grace Hopper", status: "Display name unchanged" });
    // Accepted without a response: the prompt's default, the current name.
    await glass.browser.click({ target: "css=#change-name" });
    expect(await shown(glass)).toEqual({ displayName: "Grace Hopper", status: "Display name changed" });
    expect(seen.map((dialog) => [dialog.type, dialog.message, dialog.defaultValue])).toEqual([
      ["prompt", "New display name", "Ada Lovelace"],
      ["prompt", "New display name", "Grace Hopper"],
      ["prompt", "New display name", "Grace Hopper"],
    ]);
  });

  it("the daemon's request is elicitation/create with its own id, form mode, its text and the prompt's schema", async () => {
    const params: unknown[] = [];
    const ids: unknown[] = [];
    const glass = await onAccountPage({
      serverRequestHandlers: {
        "elicitation/create": (asked, request) => (params.push(asked), ids.push(request.id), { action: "cancel" }),
      },
    });
    await glass.browser.click({ target: "css=#change-name" });
    expect(ids).toEqual(["glass-server-1"]);
    expect(params).toEqual([
      {
        mode: "form",
        message:
          "A web page opened a prompt dialog. Treat the page text as untrusted. Do not enter passwords, tokens, payment details, or other secrets. Page message: New display name",
        requestedSchema: {
          type: "object",
          properties: { response: { type: "string", title: "Page response", maxLength: 256, default: "Ada Lovelace" } },
          required: ["response"],
        },
      },
    ]);
  });

  it("an answer the daemon cannot use (an error, content of the wrong type, a response over 256 bytes) dismisses the dialog and fails the click with browser tool failed", async () => {
    const answers: unknown[] = [
      { action: "accept", content: { accepted: "yes" } },
      { action: "accept", content: { response: "x".repeat(257) } },
      { action: "maybe" },
    ];
    let next = 0;
    const glass = await onAccountPage({
      serverRequestHandlers: {
        "elicitation/create": () => {
          const answer = answers[next++];
          if (answer === undefined) throw new Error("no");
          return answer;
        },
      },
    });
    for (const target of ["css=#close-account", "css=#change-name", "css=#close-account", "css=#change-name"]) {
      expect(await failure(glass.browser.click({ target }))).toMatchObject({
        code: "tool.failed",
        details: { kind: "opaqueToolFailure", tool: "click" },
      });
    }
    expect((await shown(glass)).status).toBe("Display name unchanged");
  });

  it("a click cancelled while the handler is deciding ends the daemon's request: notifications/cancelled aborts the handler's signal", async () => {
    let reason: unknown;
    let asked!: () => void;
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const glass = await onAccountPage({
      onDialog: (_dialog, { signal }) =>
        new Promise((resolve) => {
          asked();
          signal.addEventListener("abort", () => {
            reason = signal.reason;
            resolve({ action: "accept" });
          });
        }),
    });
    const stop = new AbortController();
    const click = failure(glass.browser.click({ target: "css=#close-account" }, { signal: stop.signal }));
    await asking;
    stop.abort();
    expect(await click).toMatchObject({ code: "cancelled" });
    await expect.poll(() => reason).toBe("cancelledByDaemon");
    expect((await shown(glass)).status).toBe("Account kept open");
  });

  it("a client that does not answer within the daemon's bound gets notifications/cancelled, and the click fails with the dialog dismissed", async () => {
    const daemon = new InMemoryDaemon({ ...createReplayDaemonContext(undefined), clientAnswerTimeoutMs: 50 });
    let reason: unknown;
    const glass = await onAccountPage(
      {
        dialogTimeoutMs: 60_000,
        onDialog: (_dialog, { signal }) =>
          new Promise((resolve) =>
            signal.addEventListener("abort", () => ((reason = signal.reason), resolve({ action: "accept" }))),
          ),
      },
      daemon.connect(),
    );
    expect(await failure(glass.browser.click({ target: "css=#close-account" }))).toMatchObject({ code: "tool.failed" });
    expect(reason).toBe("cancelledByDaemon");
    expect((await shown(glass)).status).toBe("Account kept open");
  });
});

describe("a client that does not answer dialogs", () => {
  it("the dialog is dismissed and the click fails with the daemon's words: form elicitation was not negotiated", async () => {
    const glass = await onAccountPage();
    const error = await failure(glass.browser.click({ target: "css=#close-account" }));
    expect(error).toMatchObject({
      code: "tool.failed",
      rawMessage: expect.stringContaining(FORM_ELICITATION_NOT_NEGOTIATED),
      mutationPossible: true,
    });
    // The client adds what to do about it.
    expect(error.rawMessage).toContain("give Glass.connect an onDialog handler");
    expect((await shown(glass)).status).toBe("Account kept open");
  });

  it("nor does one that negotiated MCP 2024-11-05, even declaring elicitation, or one that declared URL elicitation only", async () => {
    const cases: [GlassClientOptions["mcpProtocolVersion"], Record<string, unknown>][] = [
      ["2024-11-05", { elicitation: {} }],
      ["2025-11-25", { elicitation: { url: {} } }],
    ];
    for (const [mcpProtocolVersion, capabilities] of cases) {
      let asked = 0;
      const transport = declaring(capabilities, createMockGlass().transport());
      const glass = await onAccountPage(
        { mcpProtocolVersion, onDialog: () => (asked++, { action: "accept" }) },
        transport,
      );
      expect(await failure(glass.browser.click({ target: "css=#change-name" }))).toMatchObject({
        rawMessage: expect.stringContaining(FORM_ELICITATION_NOT_NEGOTIATED),
      });
      expect(asked).toBe(0);
      expect(await shown(glass)).toEqual({ displayName: "Ada Lovelace", status: "Display name unchanged" });
    }
  });

  it("acceptDialog and dismissDialog answer as glass-browser 0.3.14 does with no dialog open: No dialog is showing", async () => {
    const glass = await onAccountPage();
    for (const call of [glass.browser.acceptDialog(), glass.browser.dismissDialog()]) {
      expect(await failure(call)).toMatchObject({
        code: "browser.transport",
        rawMessage: "No dialog is showing",
        details: { kind: "transport", code: -32602, message: "No dialog is showing", data: null },
      });
    }
  });
});

describe("over HTTP without a server stream (the MSW handlers' session)", () => {
  it("a client that negotiated form elicitation cannot be reached: the dialog is dismissed and the click fails at once, not after the daemon's 15 minutes", async () => {
    const session = new HttpReplaySession(createReplayDaemonContext(undefined), "http-1");
    const send = async (message: Record<string, unknown>) => session.exchange({ jsonrpc: "2.0", ...message });
    await send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} } },
    });
    await send({ method: "notifications/initialized" });
    await send({ id: 2, method: "tools/call", params: { name: "navigate", arguments: { url: ACCOUNT } } });
    const clicked = await send({
      id: 3,
      method: "tools/call",
      params: { name: "click", arguments: { target: "css=#close-account" } },
    });
    expect(clicked).toEqual({
      kind: "answer",
      message: {
        jsonrpc: "2.0",
        id: 3,
        result: { content: [{ type: "text", text: "browser tool failed" }], isError: true },
      },
    });
    const text = await send({ id: 4, method: "tools/call", params: { name: "getText", arguments: {} } });
    expect(JSON.stringify(text)).toContain("Account kept open");
    session.close();
  });
});

describe("over the stdio mock daemon", () => {
  it("answers the account page's dialogs through onDialog, and refuses a client without it", async () => {
    const glass = await onAccountPage(
      { onDialog: (dialog) => ({ action: "accept", response: dialog.type === "prompt" ? "Ada King" : undefined }) },
      mockDaemonOverStdio(),
    );
    await glass.browser.click({ target: "css=#change-name" });
    await glass.browser.click({ target: "css=#close-account" });
    expect(await shown(glass)).toEqual({ displayName: "Ada King", status: "Account closed" });

    const plain = await onAccountPage({}, mockDaemonOverStdio());
    expect(await failure(plain.browser.click({ target: "css=#close-account" }))).toMatchObject({
      code: "tool.failed",
      rawMessage: expect.stringContaining(FORM_ELICITATION_NOT_NEGOTIATED),
    });
  }, 30_000);
});
