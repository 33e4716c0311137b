/**
 * The places the redaction sweep once found a token leaking — a `?token=` URL quoted in transport
 * errors, a JSON-escaped lease token in a recorded fixture — held to the secrets requirement: lease
 * and bridge tokens never appear in error messages, logs, or recorded fixtures.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError, webSocketTransport, httpTransport } from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import type { GlassTransport, TransportHandlers } from "../../../src/transport/transport.js";
import { recordingTransport } from "../../../src/testing/recording-transport.js";
import { startBridgeHarness, type BridgeHarness } from "../../support/bridge-harness.js";
import { describeHits, findSecrets, OutputCorpus, thrown } from "../support/secrets-scan.js";

const TOKEN = "LeAkS-bridge-token.Wq5Zx2Lm8Kv3Rt7Nb1Pc4_Hf6~Jd9";
const OLD_TOKEN = "LeAkS-old-bridge-token.Mz4Qv8Xk1Lw6Rn3Tb9Pc2_Gd7";

const harnesses: BridgeHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

/** The three ways an error usually reaches a log: its message, its JSON and util.inspect. */
function addError(corpus: OutputCorpus, source: string, error: unknown): void {
  expect(error).toBeInstanceOf(GlassError);
  const glassError = error as GlassError;
  corpus.text(`${source}: message`, glassError.message);
  corpus.text(`${source}: toJSON()`, JSON.stringify(glassError.toJSON()));
  corpus.text(`${source}: util.inspect`, inspect(glassError));
}

function expectNoToken(corpus: OutputCorpus, ...tokens: string[]): void {
  const hits = findSecrets(
    corpus.outputs,
    tokens.map((value, i) => ({ label: `token ${i}`, value })),
  );
  expect(hits, describeHits(hits)).toEqual([]);
}

describe("httpTransport never puts a token carried in the URL (?token=) into its error messages", () => {
  // Repro: Glass.connect(httpTransport({ url: `${bridge.url}?token=${token}` })) against a bridge.
  // The bridge refuses (401: a query token is accepted only on WebSocket upgrades), and the
  // TransportUnavailableError reads "the Glass daemon at http://127.0.0.1:PORT/mcp?token=<token>
  // answered HTTP 401 …" — the (valid) bridge token in an error message. The bridge's own log
  // redacts `?token=` values whatever they are; the client's messages should too.
  it("a refused ?token= URL: the error names the URL without the token", async () => {
    const harness = await startBridgeHarness({ token: TOKEN });
    harnesses.push(harness);
    const corpus = new OutputCorpus();
    addError(
      corpus,
      "HTTP, ?token= URL refused",
      await thrown(() => Glass.connect(httpTransport({ url: `${harness.bridge.url}?token=${TOKEN}` }))),
    );
    expectNoToken(corpus, TOKEN);
  });

  it("a working session whose URL also carries the token as ?token=: the error when the bridge goes away names the URL without it", async () => {
    const harness = await startBridgeHarness({ token: TOKEN });
    harnesses.push(harness);
    const corpus = new OutputCorpus();
    const glass = await Glass.connect(httpTransport({ url: `${harness.bridge.url}?token=${TOKEN}`, token: TOKEN }));
    await glass.browser.observe({ level: "summary" });
    await harness.stop();
    harnesses.length = 0;
    addError(corpus, "HTTP, bridge gone", await thrown(() => glass.browser.observe({ level: "summary" })));
    await glass.close();
    expectNoToken(corpus, TOKEN);
  });
});

describe("webSocketTransport never puts a token carried in the URL (?token=) into its error messages", () => {
  // Repro: the bridge accepts `?token=` on WebSocket upgrades (documented for clients that cannot
  // send a subprotocol). Glass.connect(webSocketTransport({ url: `${bridge.wsUrl}?token=${token}` }))
  // works; when the connection later closes (bridge shutdown, daemon crash: 1001/1011) every call
  // fails with "the WebSocket to ws://127.0.0.1:PORT/mcp?token=<token> closed (code …)", and a
  // refused upgrade with "cannot open a WebSocket to ws://…?token=<token>: …".
  it("a session opened with ?token=: the error when it closes names the URL without the token", async () => {
    const harness = await startBridgeHarness({ token: TOKEN });
    harnesses.push(harness);
    const corpus = new OutputCorpus();
    const glass = await Glass.connect(webSocketTransport({ url: `${harness.bridge.wsUrl}?token=${TOKEN}` }));
    await glass.browser.observe({ level: "summary" });
    await harness.stop();
    harnesses.length = 0;
    addError(corpus, "WebSocket, bridge gone", await thrown(() => glass.browser.observe({ level: "summary" })));
    await glass.close();
    expectNoToken(corpus, TOKEN);
  });

  it("a refused ?token= upgrade (a stale token): the error names the URL without the token", async () => {
    const harness = await startBridgeHarness({ token: TOKEN });
    harnesses.push(harness);
    const corpus = new OutputCorpus();
    addError(
      corpus,
      "WebSocket, stale ?token= refused",
      await thrown(() => Glass.connect(webSocketTransport({ url: `${harness.bridge.wsUrl}?token=${OLD_TOKEN}` }))),
    );
    expectNoToken(corpus, OLD_TOKEN);
  });
});

/**
 * A daemon double that grants a lease token containing `"` and `\` (allowed by the protocol's
 * identifier rule: no whitespace or control characters) and returns a result that quotes the
 * call's arguments as a JSON string — as a trace, an echo or a file read might.
 */
class QuotingDaemon implements GlassTransport {
  readonly kind = "double";
  readonly maxInFlight = 4;
  #handlers: TransportHandlers | undefined;
  constructor(private readonly grant: string) {}
  async start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
  }
  async send(message: JsonRpcMessage): Promise<void> {
    if (!("method" in message) || !("id" in message)) return;
    const request = message as JsonRpcRequest;
    const answer = (result: Record<string, unknown>): void =>
      queueMicrotask(() => this.#handlers?.onMessage({ jsonrpc: "2.0", id: request.id, result }));
    if (request.method === "glass/lease/acquire")
      return answer({ sessionId: "sess-q", ownerId: "c1", token: this.grant, expiresAtMs: Date.now() + 60_000 });
    if (request.method === "tools/call")
      return answer({
        content: [
          { type: "text", text: JSON.stringify({ quotedRequest: JSON.stringify(request.params?.arguments ?? {}) }) },
        ],
      });
  }
  async close(): Promise<void> {
    this.#handlers?.onClose();
  }
}

describe("recordingTransport redacts a lease token even when it appears JSON-escaped inside a recorded string", () => {
  // Repro: a lease token containing `"` or `\` (e.g. `lease"tok\en`), and a tool result holding a
  // string that is itself JSON quoting the request (`{"quotedRequest":"{\"mutationLease\":{\"token\":
  // \"lease\\\"tok\\\\en\"}}"}`). redactSecrets replaces only the token's raw form, so the escaped
  // form stays in fixture().responses[*].result.quotedRequest and in the saved file. Tokens without
  // `"` or `\` (the mock daemon's `lt-<hex>`, the bridge's base64url) are not affected.
  it("the recorded fixture holds no form of the granted token", async () => {
    const grant = 'LeAkS-lease"quoted\\back-Xq8Lm3Rv7Tz2';
    const recorder = recordingTransport(new QuotingDaemon(grant));
    const arrived: JsonRpcMessage[] = [];
    await recorder.start({ onMessage: (message) => arrived.push(message), onClose: () => undefined });
    await recorder.send({ jsonrpc: "2.0", id: "lease", method: "glass/lease/acquire", params: { ttlMs: 5000 } });
    await recorder.send({
      jsonrpc: "2.0",
      id: "click",
      method: "tools/call",
      params: {
        name: "click",
        arguments: { target: "ref=r1:b2", sessionId: "sess-q", mutationLease: { sessionId: "sess-q", token: grant } },
      },
    });
    while (arrived.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    await recorder.close();
    const recorded = recorder.fixture();
    expect(recorded.requests[0]?.mutationLease?.token).toBe("[redacted]"); // the obvious place is handled
    const corpus = new OutputCorpus();
    corpus.text("recorded fixture", JSON.stringify(recorded, null, 2));
    corpus.text(
      "recorded result string",
      String((recorded.responses[0] as { result?: { quotedRequest?: string } }).result?.quotedRequest),
    );
    expectNoToken(corpus, grant);
  });
});
