import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { fromMcpResponse } from "../mcp/from-mcp-response.js";
import { idKey, type JsonRpcMessage, type JsonRpcResponse } from "../mcp/json-rpc.js";
import type { GlassTransport, TransportHandlers } from "../transport/transport.js";
import { isJsonObject } from "../validation/json-value.js";
import type { GoldenFixture } from "../mock-daemon/golden-fixture.js";
import { readToolCall } from "../mock-daemon/read-tool-call.js";
import { REDACTED, redactSecrets } from "./redact-secrets.js";

/** Options of {@link recordingTransport}. */
export interface RecordingTransportOptions {
  /**
   * More secrets to keep out of the recording (the bridge token, which a daemon or page could echo
   * bare; values users type): replaced by `[redacted]` in every recorded string, also where it is
   * JSON-escaped, percent-encoded (`encodeURIComponent`, `URLSearchParams`) or HTML-escaped.
   */
  redact?: readonly string[];
}

/** A transport that records the tool calls it carries as a golden fixture. */
export interface RecordingTransport extends GlassTransport {
  /**
   * The tool calls answered so far, as a golden fixture in the order they were sent (JSON-RPC id as
   * `requestId`); a request sent again with the same id (a retry) is kept once, with its last
   * answer, and calls not answered yet are left out. Secrets are redacted as docs/testing.md,
   * "Testing without a daemon", says. Save it with `saveFixture`.
   */
  fixture(): GoldenFixture;
}

/** The lease methods whose answers carry a lease token. */
const GRANTING_LEASE_METHODS: ReadonlySet<string> = new Set(["glass/lease/acquire", "glass/lease/renew"]);

/**
 * Wraps a transport so that everything passes through unchanged while each `tools/call` and its
 * answer is recorded as a golden-fixture entry (see {@link RecordingTransport.fixture}). Record
 * against a real daemon once, save the fixture, and replay it in CI with `inMemoryTransport` or the
 * MSW handlers. No token is ever recorded (see {@link RecordingTransport.fixture}).
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { socketTransport } from "glass-sdk/node";
 * import { recordingTransport, saveFixture } from "glass-sdk/testing";
 *
 * const recorder = recordingTransport(socketTransport());
 * const glass = await Glass.connect(recorder);
 * await glass.withLease(() => glass.browser.click({ target: "Sign in" }));
 * await glass.close();
 * await saveFixture("fixtures/sign-in.json", recorder.fixture());
 * ```
 */
export function recordingTransport(inner: GlassTransport, options: RecordingTransportOptions = {}): RecordingTransport {
  return new Recorder(inner, options);
}

class Recorder implements RecordingTransport {
  readonly kind: string;
  readonly maxInFlight: number;
  readonly #inner: GlassTransport;
  readonly #secrets: Set<string>;
  /** Tool calls sent and not answered yet, by JSON-RPC id. */
  readonly #calls = new Map<string, GlassRequest>();
  /** Ids of lease requests whose answer carries a token. */
  readonly #leaseGrants = new Set<string>();
  /** Recorded exchanges by request id, in the order first sent. */
  readonly #entries = new Map<string, { request: GlassRequest; response: GlassResponse }>();

  constructor(inner: GlassTransport, options: RecordingTransportOptions) {
    this.#inner = inner;
    this.kind = inner.kind;
    this.maxInFlight = inner.maxInFlight;
    this.#secrets = new Set(options.redact ?? []);
  }

  start(handlers: TransportHandlers): Promise<void> {
    return this.#inner.start({
      onMessage: (message) => {
        this.#observe(() => this.#received(message));
        handlers.onMessage(message);
      },
      onClose: (error) => handlers.onClose(error),
      ...(handlers.onError === undefined ? {} : { onError: (error) => handlers.onError?.(error) }),
      ...(handlers.onReset === undefined ? {} : { onReset: () => handlers.onReset?.() }),
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.#observe(() => this.#sent(message));
    return this.#inner.send(message);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  fixture(): GoldenFixture {
    const requests: GlassRequest[] = [];
    const responses: GlassResponse[] = [];
    for (const { request, response } of this.#entries.values()) {
      const shown =
        request.mutationLease === undefined
          ? request
          : { ...request, mutationLease: { ...request.mutationLease, token: REDACTED } };
      requests.push(redactSecrets(shown, this.#secrets));
      responses.push(redactSecrets(response, this.#secrets));
    }
    return { schemaVersion: 1, requests, responses, invalidResponses: [] };
  }

  /** Recording must never disturb the traffic: a message it cannot read is simply not recorded. */
  #observe(step: () => void): void {
    try {
      step();
    } catch {
      // not recordable; it still goes through
    }
  }

  #sent(message: JsonRpcMessage): void {
    if (!("method" in message) || !("id" in message) || message.id === undefined) return;
    const key = idKey(message.id);
    const params = message.params;
    if (message.method === "tools/call") {
      const call = readToolCall(message.id, params);
      if (typeof call === "string") return;
      if (typeof call.leaseToken === "string") this.#secrets.add(call.leaseToken);
      this.#calls.set(key, call.request);
      return;
    }
    if (message.method.startsWith("glass/lease/")) {
      if (isJsonObject(params) && typeof params.token === "string") this.#secrets.add(params.token);
      if (GRANTING_LEASE_METHODS.has(message.method)) this.#leaseGrants.add(key);
    }
  }

  #received(message: JsonRpcMessage): void {
    if ("method" in message || message.id === null || message.id === undefined) return;
    const key = idKey(message.id);
    if (this.#leaseGrants.delete(key)) {
      const result = "result" in message && isJsonObject(message.result) ? message.result : undefined;
      if (typeof result?.token === "string") this.#secrets.add(result.token);
      return;
    }
    const request = this.#calls.get(key);
    if (request === undefined) return;
    this.#calls.delete(key);
    this.#entries.set(request.requestId, { request, response: fromMcpResponse(message as JsonRpcResponse, request) });
  }
}
