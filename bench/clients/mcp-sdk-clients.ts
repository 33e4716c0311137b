import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { PayloadKey } from "../lib/fixture.js";
import type { BenchClient, BenchTargets, TransportName } from "./bench-client.js";

/** The transports the official MCP SDK `Client` is measured on (it has no Unix-socket transport). */
export const MCP_SDK_TRANSPORTS: readonly TransportName[] = ["stdio", "http", "websocket"];

/**
 * `@modelcontextprotocol/sdk`'s `Client` — the client users would pick instead — with
 * `client.callTool({name, arguments})`: `StdioClientTransport` spawning the same fast daemon
 * (newline JSON only), `StreamableHTTPClientTransport` (token in `requestInit.headers`) and
 * `WebSocketClientTransport` (token in `?token=`; it needs a global WebSocket, which main.ts sets to
 * the `ws` package's on Node 20) through the same bridge.
 */
export async function openMcpSdkClient(transport: TransportName, targets: BenchTargets): Promise<BenchClient> {
  const { bridge } = targets;
  const client = new Client({ name: "glass-bench", version: "1.0.0" });
  let end: () => Promise<void> = () => client.close();
  if (transport === "stdio") {
    await client.connect(new StdioClientTransport({ command: targets.stdioDaemon.command, args: targets.stdioDaemon.args, stderr: "ignore" }));
  } else if (transport === "http") {
    const http = new StreamableHTTPClientTransport(new URL(bridge.url), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } });
    await client.connect(http);
    end = async () => {
      await http.terminateSession(); // ends the bridge session (close() alone leaves it to idle out)
      await client.close();
    };
  } else if (transport === "websocket") {
    await client.connect(new WebSocketClientTransport(new URL(`${bridge.wsUrl}?token=${encodeURIComponent(bridge.token)}`)));
  } else {
    throw new Error(`the MCP SDK has no ${transport} client transport`);
  }
  const calls: Record<PayloadKey, { name: string; arguments: Record<string, unknown> }> = {
    small: { name: targets.operations.small.tool, arguments: targets.operations.small.payload },
    large: { name: targets.operations.large.tool, arguments: targets.operations.large.payload },
  };
  return {
    transport,
    client: "mcp-sdk",
    call: async (payload) => {
      const result = await client.callTool(calls[payload]);
      if (result.isError === true) throw new Error(`tool error: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result;
    },
    close: () => end(),
  };
}
