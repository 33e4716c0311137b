import { describe, expect, it } from "vitest";
import type { Glass } from "glass-sdk";
import { requireInstalledDaemon, type StdioDaemon, spawnDaemon, killDaemon } from "./support/real-daemon.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";
import { failure } from "../support/glass-failure.js";
import { stdioLabClient } from "./support/lab-client.js";

requireInstalledDaemon();

/** The daemon's answer to every argument problem: a tool result, not a JSON-RPC error. */
const OPAQUE = { content: [{ type: "text", text: "browser tool failed" }], isError: true };

const BAD_CALLS: ReadonlyArray<{ what: string; tool: string; args: Record<string, unknown> }> = [
  { what: "a missing required argument", tool: "click", args: {} },
  { what: "an ill-typed argument", tool: "click", args: { target: 5 } },
  { what: "an unknown tool", tool: "noSuchTool", args: {} },
  { what: "a bad responseMode", tool: "getText", args: { responseMode: "loud" } },
  { what: "a wait condition of an unknown kind", tool: "wait", args: { condition: "unknown=value" } },
];

describe("bad calls on the real daemon", () => {
  let glass: Glass;
  let daemon: StdioDaemon;
  stdioLabClient((client) => {
    ({ glass, daemon } = client);
  }, "/lab");

  it("answers every bad argument and an unknown tool with the bare isError text 'browser tool failed', never -32602", async () => {
    const child = spawnDaemon(daemon.command.slice(1), daemon.state.env);
    const peer = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    try {
      await handshake(peer);
      let id = 0;
      for (const { what, tool, args } of BAD_CALLS) {
        const answer = await peer.request(++id, "tools/call", toolCall(tool, args), "newline");
        expect(answer.error, what).toBeUndefined();
        expect(answer.result, what).toEqual(OPAQUE);
      }
      // a missing or non-string tool name is the one argument problem that is a JSON-RPC error
      const nameless = await peer.request(++id, "tools/call", { arguments: {} });
      expect(nameless.error).toMatchObject({ code: -32602, data: { code: "protocol.invalidParams" } });
    } finally {
      peer.endInput();
      await peer.closed;
      killDaemon(child);
    }
  });

  it("the SDK refuses missing and ill-typed arguments itself, before sending: payload.invalid, nothing happened", async () => {
    const missing = await failure(glass.browser.click({} as never));
    expect(missing).toMatchObject({
      code: "payload.invalid",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable" },
    });
    const illTyped = await failure(glass.browser.click({ target: 5 } as never));
    expect(illTyped).toMatchObject({ code: "payload.invalid", mutationPossible: false });
  });

  it("refuses a tool the daemon does not list before sending it (the daemon would answer its bare 'browser tool failed')", async () => {
    const error = await failure(glass.requestUntyped("browser.noSuchTool", {}));
    expect(error).toMatchObject({
      code: "capability.unavailable",
      operation: "browser.noSuchTool",
      mutationPossible: false,
      retry: { classification: "notRetryable" },
      details: { kind: "toolNotListed", tool: "noSuchTool" },
    });
    expect(error.rawMessage).toContain("does not list the noSuchTool tool");
  });

  it("the SDK refuses a bad responseMode itself, before sending: payload.invalid naming the field", async () => {
    const error = await failure(glass.browser.getText({ responseMode: "loud" } as never));
    expect(error).toMatchObject({ code: "payload.invalid", phase: "preflight", mutationPossible: false });
    expect(error.message).toContain("responseMode");
  });

  it("lifts 'browser tool failed' for a mutating tool as possibly mutated: observe before deciding", async () => {
    const error = await failure(glass.browser.wait({ condition: "unknown=value" }));
    expect(error).toMatchObject({
      code: "tool.failed",
      phase: "dispatch",
      mutationPossible: true,
      retry: { classification: "notRetryable", recommendedOperation: "inspect_page" },
    });
  });

  it("keeps the connection usable after every failure", async () => {
    expect((await glass.browser.getText({})).text).toContain("Lab");
  });
});
