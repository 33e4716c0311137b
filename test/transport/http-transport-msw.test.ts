/**
 * httpTransport runs on ky, which calls the global `fetch` at each request: MSW's setupServer (which
 * patches it) intercepts every request, a caller's ky instance included, and a refusal it stages is
 * retried like one from a real server.
 */
import ky from "ky";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createGlassHandlers } from "../../src/testing/msw/msw-http-handlers.js";
import { httpTransport } from "../../src/transport/http-transport.js";
import { goldenFixture } from "../support/fixture-outcomes.js";

const ENDPOINT = "http://glass.test/mcp";
const server = setupServer(...createGlassHandlers({ fixture: goldenFixture, url: ENDPOINT }));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("httpTransport under MSW", () => {
  it("MSW intercepts the transport's requests through a caller's ky instance, and a 503 it stages once is retried (by the client's retry)", async () => {
    const hooked: string[] = [];
    const instance = ky.create({ hooks: { beforeRequest: [(request) => void hooked.push(request.method)] } });
    const glass = await Glass.connect(httpTransport({ url: ENDPOINT, ky: instance }), { negotiation: false });
    try {
      let refused = 0;
      server.use(
        http.post(
          ENDPOINT,
          () => {
            refused++;
            return new HttpResponse(null, { status: 503, headers: { "retry-after": "0" } });
          },
          { once: true },
        ),
      );
      expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
      expect(refused).toBe(1);
      expect(hooked).toEqual(["POST", "POST", "POST", "POST", "POST"]); // initialize, initialized, the connect-time tools/list, the refused ping, its retry
    } finally {
      await glass.close();
    }
    expect(hooked.at(-1)).toBe("DELETE");
  });
});
