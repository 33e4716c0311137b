/**
 * glass-sdk/testing/msw: Mock Service Worker handlers that serve a golden fixture over the Glass
 * bridge's HTTP and WebSocket endpoints, in Node or a browser. Needs the optional peer dependency
 * `msw` (2.x); the rest of the testing kit is `glass-sdk/testing`, which does not.
 *
 * @module glass-sdk/testing/msw
 */
export { createGlassHandlers, type GlassHandlersOptions } from "./msw-http-handlers.js";
export { createGlassWsHandlers, type GlassWsHandlersOptions } from "./msw-ws-handlers.js";
