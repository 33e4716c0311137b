import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { BenchClient, BenchTargets, TransportName } from "./bench-client.js";

/** The transports the official MCP SDK `Client` is measured on (it has no Unix-socket transport). */
export const MCP_SDK_TRANSPORTS: readonly TransportName[] = ["stdio", "http", "websocket"];

/** The MCP SDK stdio client's read buffer in the bench: 32 MiB (its default, 10 MiB, is below the 30 MB ladder rung). */
export const MCP_SDK_STDIO_BUFFER_BYTES = 32 * 1024 * 1024;

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
    // Its read buffer holds at most 10 MiB by default (a larger answer closes the transport): raised
    // to the daemon's response limit, 32 MiB, as a user receiving large answers would.
    await client.connect(
      new StdioClientTransport({
        command: targets.stdioDaemon.command,
        args: targets.stdioDaemon.args,
        stderr: "ignore",
        maxBufferSize: MCP_SDK_STDIO_BUFFER_BYTES,
      }),
    );
  } else if (transport === "http") {
    const http = new StreamableHTTPClientTransport(new URL(bridge.url), {
      requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
    });
    await client.connect(http);
    end = async () => {
      await http.terminateSession(); // ends the bridge session (close() alone leaves it to idle out)
      await client.close();
    };
  } else if (transport === "websocket") {
    await client.connect(
      new WebSocketClientTransport(new URL(`${bridge.wsUrl}?token=${encodeURIComponent(bridge.token)}`)),
    );
  } else {
    throw new Error(`the MCP SDK has no ${transport} client transport`);
  }
  const calls = Object.fromEntries(
    Object.values(targets.operations).map((op) => [op.key, { name: op.tool, arguments: op.payload }]),
  );
  return {
    transport,
    client: "mcp-sdk",
    call: async (key) => {
      const result = await client.callTool(calls[key]!);
      if (result.isError === true) throw new Error(`tool error: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result;
    },
    close: () => end(),
  };
}
