// A plain MCP server, not a Glass daemon: built with the official MCP TypeScript SDK (McpServer over
// StdioServerTransport), run as `node plain-mcp-server.mjs`. It reads JSON lines only, with no size
// limit, and knows nothing of Content-Length framing or of Glass negotiation. Tools:
//   measure {text}  answers {"length": <characters of text>} as JSON text
//   hello   {}      answers the plain text "hello from a plain MCP server"

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const server = new McpServer({ name: "plain-mcp-server", version: "1.0.0" });

server.registerTool(
  "measure",
  { description: "Measures a text", inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: "text", text: JSON.stringify({ length: text.length }) }],
  }),
);

server.registerTool("hello", { description: "Says hello" }, async () => ({
  content: [{ type: "text", text: "hello from a plain MCP server" }],
}));

await server.connect(new StdioServerTransport());
