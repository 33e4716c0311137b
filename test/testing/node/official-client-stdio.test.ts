import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, ROOT } from "../../support/bridge-harness.js";

/**
 * The official client's stdio transport to `glass-sdk mock-daemon`, asking in `initialize` for
 * `version` instead of the SDK's newest revision — as SDK releases whose newest revision was
 * 2025-06-18 did (this one asks for 2025-11-25).
 */
class AskingFor extends StdioClientTransport {
  constructor(readonly version: string | undefined) {
    super({ command: process.execPath, args: ["--import", "tsx", CLI, "mock-daemon"], cwd: ROOT, stderr: "pipe" });
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (this.version !== undefined && "method" in message && message.method === "initialize") {
      return super.send({ ...message, params: { ...message.params, protocolVersion: this.version } } as JSONRPCMessage);
    }
    return super.send(message);
  }
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(version: string | undefined): Promise<Client> {
  const client = new Client({ name: "official-over-stdio", version: "1.0.0" });
  clients.push(client);
  await client.connect(new AskingFor(version));
  return client;
}

describe("the official MCP client over stdio to glass-sdk mock-daemon (as to the daemon, §3)", () => {
  it("asking for MCP 2025-06-18 is refused with -32602 naming the versions the daemon speaks", async () => {
    const refused = await connect("2025-06-18").catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'unsupported MCP protocol version "2025-06-18"; this daemon supports 2024-11-05 and 2025-11-25',
      ),
    });
  });

  it("asking for 2024-11-05 or 2025-11-25 (this SDK's own request) gets a session", async () => {
    for (const version of ["2024-11-05", undefined]) {
      const client = await connect(version);
      const { tools } = await client.listTools();
      expect(
        tools.map((tool) => tool.name),
        String(version),
      ).toContain("observe");
    }
  });
});
