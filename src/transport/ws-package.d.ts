/**
 * The `ws` package as the browser-safe core sees it when it compiles on its own
 * (tsconfig.core.json maps `ws` here): only its WebSocket class, as a {@link WebSocketConstructor}.
 * The package's own types (`@types/ws`) would bring in Node's, which the core must not lean on.
 */
import type { WebSocketConstructor } from "./websocket-transport.js";

declare const WebSocket: WebSocketConstructor;
export default WebSocket;
