/**
 * The page's own dialogs on the real daemon (glass-browser 0.3.14, Chromium runtime) on the example
 * shop's account page (examples/shop/account.html): 0.3.14 speaks MCP 2024-11-05 only, so a client
 * with `onDialog` declares no elicitation in the initialize the daemon takes, and the daemon never
 * asks. A click that opens a `confirm` or `prompt` gets no answer while the dialog is open — the
 * daemon's browser waits on it, and the daemon's other calls wait behind the click — until the
 * click's call ends (here at its deadline; the action may have happened). The dialog is still open
 * then: `acceptDialog` / `dismissDialog` answer it, and the page shows the outcome. `acceptDialog`
 * takes no text: an accepted prompt gets the empty string, not its default.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, type GlassError, type GlassTransport } from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { requireInstalledDaemon, type StdioDaemon, stdioDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

/** How long a click that opens a dialog is given before its call ends (the daemon never answers it while the dialog is open). */
const BLOCKED_CLICK_DEADLINE_MS = 3000;

/** A transport that keeps what the client sends. */
function recording(transport: GlassTransport, sent: JsonRpcMessage[]): GlassTransport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === "send") return (message: JsonRpcMessage) => (sent.push(message), target.send(message));
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("the page's dialogs on glass-browser 0.3.14 (Chromium runtime): acceptDialog and dismissDialog, never elicitation", () => {
  let lab: LabServer;
  let daemon: StdioDaemon;
  let glass: Glass;
  const sent: JsonRpcMessage[] = [];
  let asked = 0;

  /** The account page's status line and display name. */
  const shown = async (): Promise<{ status: string; displayName: string }> => {
    const status = (await glass.browser.evaluate({ expression: "document.getElementById('outcome').textContent" }))
      .result;
    const displayName = (
      await glass.browser.evaluate({ expression: "document.getElementById('display-name').textContent" })
    ).result;
    return { status: String(status), displayName: String(displayName) };
  };
  /** Clicks a button that opens a dialog: the call gets no answer and ends at its deadline. */
  const blockedClick = async (target: string): Promise<GlassError> => {
    const started = Date.now();
    const error = await glass.browser.click({ target }, { deadlineMs: BLOCKED_CLICK_DEADLINE_MS }).then(
      () => {
        throw new Error(`the click on ${target} was answered while its dialog was open`);
      },
      (thrown: GlassError) => thrown,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(BLOCKED_CLICK_DEADLINE_MS - 50);
    return error;
  };

  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
    glass = await Glass.connect(recording(daemon.transport, sent), { onDialog: () => (asked++, { action: "accept" }) });
    await glass.browser.navigate({ url: lab.url("/account") });
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
    await lab?.close();
  });

  it("the client asks for MCP 2025-11-25 with elicitation, is refused, and asks for 2024-11-05 without it", () => {
    const initializes = sent
      .filter((message): message is JsonRpcRequest => "method" in message && message.method === "initialize")
      .map((message) => message.params);
    expect(initializes).toMatchObject([
      { protocolVersion: "2025-11-25", capabilities: { elicitation: {} } },
      { protocolVersion: "2024-11-05", capabilities: {} },
    ]);
    expect(glass.serverInfo).toEqual({ name: "glass", version: "0.3.14" });
  });

  it("Close account: the click waits on the open confirm until its deadline; acceptDialog then accepts it and the page shows Account closed", async () => {
    expect(await blockedClick("css=#close-account")).toMatchObject({
      code: "deadlineExceeded",
      mutationPossible: true,
    });
    expect(await glass.browser.acceptDialog()).toEqual({ dialog: "accepted" });
    expect((await shown()).status).toBe("Account closed");
  });

  it("dismissDialog answers the confirm with false: Account kept open", async () => {
    await blockedClick("css=#close-account");
    expect(await glass.browser.dismissDialog()).toEqual({ dialog: "dismissed" });
    expect((await shown()).status).toBe("Account kept open");
  });

  it("Change display name: acceptDialog gives the prompt no text — the empty string, not its default — so the name stays", async () => {
    await blockedClick("css=#change-name");
    expect(await glass.browser.acceptDialog()).toEqual({ dialog: "accepted" });
    expect(await shown()).toEqual({ status: "Display name unchanged", displayName: "Ada Lovelace" });
    // What the prompt itself returned, read back from one the page opens on its own.
    await glass.browser.evaluate({
      expression:
        "setTimeout(() => { window.answered = JSON.stringify(prompt('New display name', 'Ada Lovelace')); }, 50); 'scheduled'",
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await glass.browser.acceptDialog()).toEqual({ dialog: "accepted" });
    expect((await glass.browser.evaluate({ expression: "window.answered" })).result).toBe('""');
  });

  it("dismissDialog answers the prompt with null: Display name unchanged", async () => {
    await blockedClick("css=#change-name");
    expect(await glass.browser.dismissDialog()).toEqual({ dialog: "dismissed" });
    expect(await shown()).toEqual({ status: "Display name unchanged", displayName: "Ada Lovelace" });
    await glass.browser.evaluate({
      expression:
        "setTimeout(() => { window.answered = JSON.stringify(prompt('New display name', 'Ada Lovelace')); }, 50); 'scheduled'",
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await glass.browser.dismissDialog()).toEqual({ dialog: "dismissed" });
    expect((await glass.browser.evaluate({ expression: "window.answered" })).result).toBe("null");
  });

  it("with no dialog open both fail as the DevTools refusal No dialog is showing; the daemon never sent elicitation/create", async () => {
    for (const call of [glass.browser.acceptDialog(), glass.browser.dismissDialog()]) {
      await expect(call).rejects.toMatchObject({
        code: "browser.transport",
        rawMessage: "No dialog is showing",
        details: { kind: "transport", code: -32602, message: "No dialog is showing", data: null },
      });
    }
    expect(asked).toBe(0);
  });
});
