import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, type GlassRequest } from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "../../src/mcp/json-rpc.js";
import { parseFixture, type GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { inMemoryTransport } from "../../src/testing/in-memory-transport.js";
import { loadFixture } from "../../src/testing/load-fixture.js";
import { recordingTransport } from "../../src/testing/recording-transport.js";
import { saveFixture } from "../../src/testing/save-fixture.js";
import type { GlassTransport, TransportHandlers } from "../../src/transport/transport.js";
import {
  callTyped,
  expectMatchesFixture,
  fixtureCases,
  goldenFixture,
  recordedResponses,
} from "../support/fixture-outcomes.js";
import { mockDaemonOnSocket, type SocketMock } from "../support/mock-daemon-transports.js";

/** A fixture request without the lease context it was recorded with (the live client adds its own). */
function withoutLease(request: GlassRequest): GlassRequest {
  const { mutationLease: _lease, sessionId: _session, ...rest } = request;
  return rest as GlassRequest;
}

describe("recording the golden fixture against the mock daemon over its Unix socket, under a lease", () => {
  let mock: SocketMock;
  let recorded: GoldenFixture;
  const tokens = new Set<string>();

  beforeAll(async () => {
    mock = await mockDaemonOnSocket();
    const recorder = recordingTransport(mock.transport());
    expect(recorder.kind).toBe("socket");
    expect(recorder.maxInFlight).toBe(4);
    const glass = await Glass.connect(recorder);
    for (const request of goldenFixture.requests) {
      await glass.withLease(
        async (lease) => {
          tokens.add(lease.token);
          await glass.send(withoutLease(request), { validate: false });
        },
        { ttlMs: 10_000 },
      );
    }
    await glass.close();
    recorded = recorder.fixture();
  });
  afterAll(async () => {
    await mock.stop();
  });

  it("recorded every request with the daemon's answer, as a valid fixture", () => {
    expect(() => parseFixture(recorded)).not.toThrow();
    expect(recorded.schemaVersion).toBe(1);
    expect(recorded.invalidResponses).toEqual([]);
    expect(recorded.requests.map((request) => request.requestId)).toEqual(
      goldenFixture.requests.map((request) => request.requestId),
    );
    expect(recorded.requests.map((request) => [request.operation, request.payload])).toEqual(
      goldenFixture.requests.map((request) => [request.operation, request.payload]),
    );
    // The correlation id does not travel over MCP, so a recording cannot hold it.
    const withoutCorrelation = goldenFixture.responses.map(({ correlationId: _correlation, ...response }) => response);
    expect(recorded.responses).toEqual(withoutCorrelation);
  });

  it("contains no lease token anywhere, nor any lease context (the client sends mutating calls only arguments.leaseToken)", () => {
    expect(tokens.size).toBe(goldenFixture.requests.length);
    const text = JSON.stringify(recorded);
    for (const token of tokens) expect(text).not.toContain(token);
    for (const request of recorded.requests) {
      expect(request.payload).not.toHaveProperty("leaseToken");
      if (request.mutationLease !== undefined) expect(request.mutationLease.token).toBe("[redacted]");
    }
  });

  it("replays in CI through inMemoryTransport: every typed call equals the original fixture", async () => {
    const glass = await Glass.connect(inMemoryTransport(parseFixture(recorded)));
    for (const [, request] of fixtureCases()) expectMatchesFixture(await callTyped(glass, request, true), request);
    await glass.close();
  });

  it("replays under a lease too (inMemoryTransport in socket mode)", async () => {
    const glass = await Glass.connect(inMemoryTransport(recorded, { mode: "socket" }));
    for (const [, request] of fixtureCases()) {
      expectMatchesFixture(await glass.withLease(() => callTyped(glass, request, false), { ttlMs: 10_000 }), request);
    }
    await glass.close();
  });

  it("saveFixture writes it (no token in the file) and loadFixture reads it back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "glass-recording-"));
    try {
      const path = join(dir, "nested", "recorded.json");
      await saveFixture(path, recorded);
      const text = await readFile(path, "utf8");
      expect(text.endsWith("}\n")).toBe(true);
      for (const token of tokens) expect(text).not.toContain(token);
      expect(await loadFixture(path)).toEqual(recorded);
      expect(await loadFixture(new URL(`file://${path}`))).toEqual(recorded);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A daemon double that answers lease requests with a known token and echoes it back in tool
 * results, to prove the recorder scrubs a token wherever it shows up.
 */
class EchoingDaemon implements GlassTransport {
  readonly kind = "double";
  readonly maxInFlight = 4;
  readonly sent: JsonRpcMessage[] = [];
  #handlers: TransportHandlers | undefined;

  constructor(private readonly grantToken: string) {}

  async start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    if (!("method" in message) || !("id" in message)) return;
    const request = message as JsonRpcRequest;
    const answer = (result: Record<string, unknown>): void => {
      queueMicrotask(() => this.#handlers?.onMessage({ jsonrpc: "2.0", id: request.id, result }));
    };
    if (request.method === "glass/lease/acquire")
      return answer({ sessionId: "sess-1", ownerId: "c1", token: this.grantToken, expiresAtMs: 1 });
    if (request.method === "tools/call") {
      const args = JSON.stringify(request.params?.arguments ?? {});
      return answer({
        content: [{ type: "text", text: JSON.stringify({ echoed: args, note: `granted ${this.grantToken}` }) }],
      });
    }
  }

  async close(): Promise<void> {
    this.#handlers?.onClose();
  }
}

describe("recordingTransport redaction and bookkeeping", () => {
  const GRANT = "grant-token-abcdef123456";

  async function record(
    calls: JsonRpcRequest[],
    redact?: string[],
  ): Promise<{ fixture: GoldenFixture; inner: EchoingDaemon }> {
    const inner = new EchoingDaemon(GRANT);
    const recorder = recordingTransport(inner, redact === undefined ? {} : { redact });
    const arrived: JsonRpcMessage[] = [];
    await recorder.start({ onMessage: (message) => arrived.push(message), onClose: () => {} });
    for (const call of calls) await recorder.send(call);
    while (arrived.length < calls.length) await new Promise((resolve) => setTimeout(resolve, 1));
    await recorder.close();
    return { fixture: recorder.fixture(), inner };
  }

  const acquire: JsonRpcRequest = { jsonrpc: "2.0", id: "l1", method: "glass/lease/acquire", params: { ttlMs: 5000 } };
  const click = (id: string, args: Record<string, unknown>): JsonRpcRequest => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "click", arguments: { target: "ref=r1:b2", ...args } },
  });

  it("passes every message through unchanged (the token still reaches the daemon)", async () => {
    const call = click("c1", { sessionId: "sess-1", mutationLease: { sessionId: "sess-1", token: GRANT } });
    const { inner } = await record([acquire, call]);
    expect(inner.sent).toEqual([acquire, call]);
  });

  it("redacts a granted lease token wherever it occurs, and mutationLease.token always", async () => {
    const { fixture } = await record([
      acquire,
      click("c1", { sessionId: "sess-1", mutationLease: { sessionId: "sess-1", token: GRANT } }),
    ]);
    expect(JSON.stringify(fixture)).not.toContain(GRANT);
    expect(fixture.requests).toEqual([
      {
        protocolVersion: 1,
        requestId: "c1",
        operation: "browser.click",
        payload: { target: "ref=r1:b2" },
        sessionId: "sess-1",
        mutationLease: { sessionId: "sess-1", token: "[redacted]" },
      },
    ]);
    expect(fixture.responses[0]).toMatchObject({ ok: true, result: { note: "granted [redacted]" } });
  });

  it("redacts a legacy leaseToken argument (it is MCP-only, so it is not in the payload either)", async () => {
    const { fixture } = await record([click("c1", { leaseToken: "legacy-secret-token-1" })]);
    expect(JSON.stringify(fixture)).not.toContain("legacy-secret-token-1");
    expect(fixture.requests[0]!.payload).toEqual({ target: "ref=r1:b2" });
  });

  it("redacts the strings of options.redact wherever they occur", async () => {
    const { fixture } = await record([click("c1", { text: "my password is hunter2-secret" })], ["hunter2-secret"]);
    expect(JSON.stringify(fixture)).not.toContain("hunter2-secret");
    expect(fixture.requests[0]!.payload).toEqual({ target: "ref=r1:b2", text: "my password is [redacted]" });
  });

  it("redacts a secret of options.redact form-urlencoded (URLSearchParams) and HTML-escaped (named and numeric references), also inside JSON text", async () => {
    const secret = 'p&ss<w0rd "it\'s" (ok)!~';
    const form = new URLSearchParams({ q: secret }).toString();
    const named = secret
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll('"', "&quot;")
      .replaceAll("'", "&#39;");
    const numeric = secret
      .replaceAll("&", "&#38;")
      .replaceAll("<", "&#x3C;")
      .replaceAll('"', "&#34;")
      .replaceAll("'", "&#x27;");
    const texts = [
      `https://shop.test/search?${form}`,
      `<input value="${named}">`,
      `<p>${numeric}</p>`,
      JSON.stringify({ html: `<b title='${secret.replaceAll("&", "&amp;")}'>` }),
    ];
    const { fixture } = await record(
      texts.map((text, i) => click(`c${i}`, { text })),
      [secret],
    );
    const saved = JSON.stringify(fixture);
    for (const leaked of [form.slice(2), named, numeric, "p&amp;ss", "w0rd"]) expect(saved).not.toContain(leaked);
    expect(fixture.requests.map((request) => (request.payload as { text: string }).text)).toEqual([
      "https://shop.test/search?q=[redacted]",
      '<input value="[redacted]">',
      "<p>[redacted]</p>",
      '{"html":"<b title=\'[redacted]\'>"}',
    ]);
  });

  it("records only tool calls (not lease or other methods), with a numeric JSON-RPC id as its decimal text", async () => {
    const { fixture } = await record([
      acquire,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "observe", arguments: { level: "summary" } } },
    ]);
    expect(fixture.requests.map((request) => [request.requestId, request.operation])).toEqual([
      ["7", "browser.observe"],
    ]);
  });

  it("keeps a retried call once, with its last answer", async () => {
    const recorder = recordingTransport(
      inMemoryTransport(goldenFixture, { faults: { overloadBurst: { afterCalls: 0, count: 1 } } }),
    );
    const glass = await Glass.connect(recorder, { retry: { baseDelayMs: 1 } });
    const request = goldenFixture.requests[0]!;
    expect(await glass.send(request)).toEqual(recordedResponses().get(request.requestId));
    await glass.close();
    const fixture = recorder.fixture();
    expect(fixture.requests).toEqual([request]);
    expect(fixture.responses).toEqual([recordedResponses().get(request.requestId)]);
  });
});
