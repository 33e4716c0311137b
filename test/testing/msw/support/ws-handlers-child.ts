// Run by no-global-websocket.test.ts in a child process, with or without --experimental-websocket:
// creates the WebSocket handlers and connects through them, then prints one JSON line saying what
// happened ({"threw": message} or {"connected": serverName}).
import { setupServer } from "msw/node";
import { Glass } from "../../../../src/client/glass.js";
import { goldenFixture } from "../../../../src/testing/index.js";
import { createGlassWsHandlers } from "../../../../src/testing/msw/msw-ws-handlers.js";
import { webSocketTransport } from "../../../../src/transport/websocket-transport.js";

const url = "ws://glass.test/mcp";
const fixture = await goldenFixture();
let handlers: ReturnType<typeof createGlassWsHandlers>;
try {
  handlers = createGlassWsHandlers({ fixture, url });
} catch (error) {
  console.log(JSON.stringify({ threw: error instanceof Error ? error.message : String(error) }));
  process.exit(0);
}
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: "error" });
try {
  const glass = await Glass.connect(webSocketTransport({ url }));
  console.log(JSON.stringify({ connected: glass.serverInfo?.name }));
  await glass.close();
} catch (error) {
  console.log(JSON.stringify({ failed: error instanceof Error ? error.message : String(error) }));
} finally {
  server.close();
}
