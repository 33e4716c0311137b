/**
 * A stdio command that does not speak MCP fails the connection at once, saying what it did, instead
 * of leaving initialize to run into its deadline.
 */
import { describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { stdioTransport } from "glass-sdk/node";

/** Connects over stdio to `command` with a deadline far beyond the test's own timeout. */
async function connectFailure(command: string, args: string[]): Promise<GlassError> {
  const error = await Glass.connect(stdioTransport({ command, args }), { deadlineMs: 120_000 }).catch(
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GlassError);
  return error as GlassError;
}

describe("a stdio command that does not speak MCP", () => {
  it("printing ordinary text (a daemon started without its MCP mode): the connection ends at once, quoting what it printed", async () => {
    const error = await connectFailure(process.execPath, [
      "-e",
      "console.log('Usage: glass-browser [OPTIONS] <COMMAND>'); setInterval(() => {}, 1000)",
    ]);
    expect(error.code).toBe("transport.closed");
    expect(error.rawMessage).toContain('printed "Usage: glass-browser [OPTIONS] <COMMAND>" where MCP was expected');
    expect(error.rawMessage).toContain("`--mcp`");
    expect(error.details).toMatchObject({ reason: "notMcp", printed: "Usage: glass-browser [OPTIONS] <COMMAND>" });
  }, 20_000);

  it("echoing its input (cat): the connection ends at once, saying the client's own initialize came back, not blaming the daemon's refusal", async () => {
    const error = await connectFailure("cat", []);
    expect(error.code).toBe("transport.closed");
    expect(error.rawMessage).toContain(
      "the daemon sent the client's own initialize back: it echoes what it reads (like cat)",
    );
    expect(error.rawMessage).not.toContain("the client does not handle initialize");
  }, 20_000);

  it("text after the daemon spoke MCP is skipped as a bad frame, and the session goes on", async () => {
    // A plain MCP server whose stdout gets a stray line right after its answer to initialize.
    const script = [
      "const { createInterface } = require('node:readline');",
      "const lines = createInterface({ input: process.stdin });",
      "lines.on('line', (line) => {",
      "  const message = JSON.parse(line);",
      "  if (message.id === undefined) return;",
      "  const result = message.method === 'initialize' ? { protocolVersion: message.params.protocolVersion, capabilities: {}, serverInfo: { name: 'plain', version: '1' } } : {};",
      // One write: the answer and the stray line reach the client in the same chunk.
      "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n' + (message.method === 'initialize' ? 'a stray log line\\n' : ''));",
      "});",
    ].join("\n");
    const glass = await Glass.connect(stdioTransport({ command: process.execPath, args: ["-e", script] }), {
      negotiation: false,
      deadlineMs: 10_000,
    });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
    await glass.close();
  }, 20_000);
});
