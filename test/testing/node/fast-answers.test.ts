import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMockDaemon } from "../../../src/testing/node/start-mock-daemon.js";
import type { GlassResponse } from "glass-sdk";
import { parseFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { handshake, RawPeer, toolCall } from "../../support/raw-mcp-peer.js";
import { webIrSample } from "../../support/web-ir-sample.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const fixture = parseFixture(readGoldenFixture());
const firstRecorded = (operation: string): GlassResponse => {
  const request = fixture.requests.find((r) => r.operation === operation)!;
  return fixture.responses.find((r) => r.requestId === request.requestId)!;
};
/** A valid Web IR document of about 100 KB: far over the daemon's 8 KiB limit for a JSON line. */
const bigIr = webIrSample(100_000);

let fast: SocketHarness;
let full: SocketHarness;
let restricted: SocketHarness;

beforeAll(async () => {
  fast = await startSocketHarness({ fast: true });
  full = await startSocketHarness();
  restricted = await startSocketHarness({ fast: true, capabilities: { webIr: "disabledByPolicy" } });
});
afterEach(async () => {
  await Promise.all([fast.disconnectAll(), full.disconnectAll(), restricted.disconnectAll()]);
});
afterAll(async () => {
  await Promise.all([fast.stop(), full.stop(), restricted.stop()]);
});

describe("mock daemon fast mode", () => {
  it("answers a read-only tool with the fixture's recorded result, addressed to the live id, and records nothing", async () => {
    const peer = await fast.connectReady();
    const observe = fixture.requests.find((r) => r.operation === "browser.observe")!;
    const answer = await peer.request("live-1", "tools/call", fixtureToolCall(observe));
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: "live-1",
      result: expectedToolResult(firstRecorded("browser.observe")),
    });
    expect(fast.daemon.calls).toEqual([]);
    expect(fast.daemon.inFlight()).toBe(0);
  });

  it("answers whatever the payload: neither matched nor validated (the fidelity it trades)", async () => {
    const peer = await fast.connectReady();
    const other = await peer.request(
      1,
      "tools/call",
      toolCall("observe", { level: "interactive", unknownField: true }),
    );
    expect(other.result).toEqual(expectedToolResult(firstRecorded("browser.observe")));
    const fullPeer = await full.connectReady();
    expect(
      (await fullPeer.request(1, "tools/call", toolCall("observe", { level: "interactive", unknownField: true })))
        .result!.isError,
    ).toBe(true);
  });

  it("accepts a 100 KB newline-delimited request (the full daemon closes the connection over it) and answers it as a JSON line", async () => {
    const peer = await fast.connectReady();
    const answer = await peer.request("big", "tools/call", toolCall("validateWebIr", { ir: bigIr }));
    expect(answer.result).toEqual(expectedToolResult(firstRecorded("webIr.validate")));
    expect(peer.received.find((r) => r.message?.id === "big")!.framing).toBe("newline");
    const fullPeer = await full.connectReady();
    const before = fullPeer.received.length;
    fullPeer.send({
      jsonrpc: "2.0",
      id: "big",
      method: "tools/call",
      params: toolCall("validateWebIr", { ir: bigIr }),
    });
    await fullPeer.closed;
    expect(fullPeer.received.slice(before)).toEqual([]);
  });

  it("answers a Content-Length request in Content-Length framing", async () => {
    const peer = await fast.connectReady();
    const answer = await peer.request(
      "framed",
      "tools/call",
      toolCall("validateWebIr", { ir: bigIr }),
      "content-length",
    );
    expect(answer.result).toEqual(expectedToolResult(firstRecorded("webIr.validate")));
    expect(peer.received.find((r) => r.message?.id === "framed")!.framing).toBe("content-length");
  });

  it("keeps the full path for mutating tools, calls carrying a lease, and tools the fixture has no answer for", async () => {
    const peer = await fast.connectReady();
    const click = fixture.requests.find((r) => r.operation === "browser.click")!;
    expect((await peer.request("click", "tools/call", fixtureToolCall(click))).error?.code).toBe(-32003);
    const leased = await peer.request(
      "leased",
      "tools/call",
      toolCall("observe", { level: "summary", mutationLease: { sessionId: "s", token: "t" } }),
    );
    expect(leased.result).toEqual(expectedToolResult(firstRecorded("browser.observe")));
    const unmatched = await peer.request("text", "tools/call", toolCall("getText", {}));
    expect(JSON.parse((unmatched.result!.content as { text: string }[])[0]!.text)).toMatchObject({
      code: "mock.unmatched",
    });
    expect(fast.daemon.calls.map((call) => call.tool)).toEqual(["click", "observe", "getText"]);
  });

  it("precomputes the capability.unavailable failure for a tool whose capability is switched off", async () => {
    const peer = await restricted.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("validateWebIr", { ir: bigIr }));
    expect(answer.result!.isError).toBe(true);
    expect(JSON.parse((answer.result!.content as { text: string }[])[0]!.text)).toMatchObject({
      code: "capability.unavailable",
    });
  });

  it("still enforces the handshake", async () => {
    const peer = await fast.connect();
    expect((await peer.request(1, "tools/call", toolCall("observe", {}))).error?.code).toBe(-32002);
  });

  it("cannot be combined with latency or faults", async () => {
    await expect(
      startMockDaemon({ fast: true, latencyMs: 5, stdin: process.stdin, stdout: process.stdout }),
    ).rejects.toThrow(/latency or faults/);
    await expect(
      startMockDaemon({ fast: true, faults: { stallAfterCalls: 1 }, stdin: process.stdin, stdout: process.stdout }),
    ).rejects.toThrow(/latency or faults/);
  });
});

describe("mock-daemon --fast (the CLI over stdio)", () => {
  it("answers from the precomputed results and exits 0 when stdin ends", async () => {
    const daemon = RawPeer.spawnCli(["mock-daemon", "--fast"]);
    try {
      await handshake(daemon.peer);
      const answer = await daemon.peer.request(7, "tools/call", toolCall("validateWebIr", { ir: bigIr }));
      expect(answer.result).toEqual(expectedToolResult(firstRecorded("webIr.validate")));
      daemon.peer.close();
      expect(await daemon.exit).toBe(0);
      expect(daemon.stderr()).toBe("");
    } finally {
      daemon.child.kill();
    }
  });

  it.each([
    [["--fast", "--latency", "5"], /cannot be combined with --latency or --faults/],
    [["--fast=yes"], /--fast takes no value/],
  ])("refuses %j with exit 2", async (args, message) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock-daemon", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
