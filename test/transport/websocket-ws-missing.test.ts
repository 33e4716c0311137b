/**
 * webSocketTransport where the `ws` package cannot be loaded (a bundle that left it out, a runtime
 * whose installation lacks it): `import("ws")` fails for every module of this file.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { TransportUnavailableError } from "../../src/errors/error-classes.js";
import { webSocketTransport, type WebSocketConstructor } from "../../src/transport/websocket-transport.js";

vi.mock("ws", () => {
  throw new Error("Cannot find package 'ws'");
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("webSocketTransport without the ws package", () => {
  it("fails start() with TransportUnavailableError saying to install ws, where the runtime has no WebSocket", async () => {
    vi.stubGlobal("WebSocket", undefined);
    const transport = webSocketTransport({ url: "ws://127.0.0.1:9/mcp" });
    const error = await transport.start({ onMessage: () => {}, onClose: () => {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as TransportUnavailableError).code).toBe("transport.unavailable");
    expect((error as TransportUnavailableError).rawMessage).toMatch(
      /^cannot open a WebSocket to ws:\/\/127\.0\.0\.1:9\/mcp: this runtime has no WebSocket and the ws package could not be loaded \(.*Cannot find package 'ws'.*\); install ws or pass the WebSocket option$/s,
    );
  });

  it("does not load ws when given the WebSocket option", async () => {
    vi.stubGlobal("WebSocket", undefined);
    const made: [string, string[]][] = [];
    const Refusing = class {
      constructor(url: string, protocols: string[]) {
        made.push([url, protocols]);
        throw new Error("refused here");
      }
    } as unknown as WebSocketConstructor;
    const transport = webSocketTransport({ url: "ws://127.0.0.1:9/mcp", WebSocket: Refusing });
    const error = await transport.start({ onMessage: () => {}, onClose: () => {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(made).toEqual([["ws://127.0.0.1:9/mcp", ["mcp"]]]);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as TransportUnavailableError).rawMessage).toBe(
      "cannot open a WebSocket to ws://127.0.0.1:9/mcp: refused here",
    );
  });
});
