import type {
  GlassCapabilityAgreement,
  GlassCapabilityManifest,
  GlassCapabilityName,
} from "../../generated/types/glass-capabilities-v1.js";
import type { GlassOperationNamespaces } from "../../generated/methods.js";
import type {
  OperationName,
  PayloadOf,
  ResponseModeOperation,
  ResultOf,
  TraceOperation,
} from "../../generated/operation-map.js";
import { assembleRequest, responseEnvelope } from "../envelope/create-request.js";
import {
  validateGlassIdentifier,
  validateGlassOperationName,
  validateGlassRequest,
} from "../../generated/validators/core.js";
import { describeIssues, type ValidationIssue } from "../validation/issue.js";
import type { GlassErrorObject, GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { runValidator } from "../envelope/validate.js";
import { boundedIssues } from "../mcp/answer-check.js";
import { requestInvalid, TransportClosedError } from "../errors/error-classes.js";
import { describeError } from "../errors/redact.js";
import { GlassError } from "../errors/glass-error.js";
import { McpSession } from "../mcp/mcp-session.js";
import type { GlassTransport } from "../transport/transport.js";
import type { JsonValue } from "../validation/json-value.js";
import { describeOperation, operations, toolFor, type OperationDescriptor } from "../operations/catalog.js";
import type { ResponseModeOption, TraceOption } from "../operations/response-mode.js";
import { toolNotListed } from "./daemon-tools.js";
import { callEnvelope, rpcCall, type CallSettings } from "./call.js";
import { CallOrder } from "./call-order.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import { DeadlineScheduler } from "./deadline-scheduler.js";
import { InFlightLimiter } from "./in-flight-limiter.js";
import type { Lease } from "./lease.js";
import { LeaseKeeper, type WithLeaseOptions } from "./lease-keeper.js";
import { capabilityUsable } from "./negotiation.js";
import { ClientRedaction } from "./redaction.js";
import type { CallOptions, GlassClientOptions, GlassLogEvent } from "./options.js";
import { resolveRetryPolicy, type ResolvedRetryPolicy } from "./retry.js";
import { handshake, type HandshakeResult } from "./handshake.js";
import { debugLogRequested, stderrLogger } from "./debug-log.js";
import { serverRequestHandlersWith } from "./dialogs.js";

/** A tool as `tools/list` describes it. */
export interface McpToolDescription {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  [key: string]: unknown;
}

const DEFAULT_DEADLINE_MS = 60_000;
const MAX_DEADLINE_MS = 900_000;

/**
 * A {@link Glass} client that {@link Glass.connect} connected with the Glass negotiation (the
 * default): what the daemon offers and what it agreed to are known, so `manifest` and `agreement`
 * are never undefined.
 */
export type ConnectedGlass = Glass & {
  /** What the daemon offers (`result.glass` of initialize). */
  readonly manifest: GlassCapabilityManifest;
  /** What client and daemon agreed on (`result.glassAgreement`). */
  readonly agreement: GlassCapabilityAgreement;
};

/**
 * A Glass client: typed operations over any transport.
 *
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { socketTransport } from "glass-sdk/node";
 *
 * // The daemon's socket (GLASS_SOCKET, or the daemon's default path): mutation leases exist there.
 * const glass = await Glass.connect(socketTransport());
 * const page = await glass.browser.observe({ level: "interactive" });
 * // A target is a reference from the observation, or a locator such as an accessible name.
 * await glass.withLease(() => glass.browser.click({ target: "Sign in", expectedRevision: page.revision }));
 * await glass.close();
 * ```
 *
 * Every call has a deadline and can be aborted; read-only calls are retried on overload, mutations
 * never; failures throw a {@link GlassError} (or, with {@link Glass.send}, come back as envelopes).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface Glass below adds the generated operation namespaces, which the constructor installs (attachOperationNamespaces).
export class Glass {
  readonly #session: McpSession;
  readonly #limiter: InFlightLimiter;
  readonly #deadlines = new DeadlineScheduler();
  readonly #retryPolicy: ResolvedRetryPolicy;
  readonly #defaultDeadlineMs: number;
  /** Whether the client accepts experimental capabilities (it asked for them in the negotiation). */
  readonly #acceptsExperimental: boolean;
  readonly #leases: LeaseKeeper;
  /** Scrubs the secrets the client knows out of every failure and log event it reports. */
  readonly #redaction: ClientRedaction;
  /** The caller's logger, fed scrubbed events. */
  readonly #log: ((event: GlassLogEvent) => void) | undefined;
  #initializing: Promise<void> | undefined;
  #handshakeResult: HandshakeResult | undefined;
  #closedWith: GlassError | undefined;
  #callSettings: CallSettings | undefined;

  readonly #transport: GlassTransport;
  readonly #options: GlassClientOptions;

  private constructor(transport: GlassTransport, options: GlassClientOptions) {
    this.#transport = transport;
    this.#options = options;
    this.#defaultDeadlineMs = checkDeadline(options.deadlineMs ?? DEFAULT_DEADLINE_MS, "deadlineMs");
    this.#retryPolicy = resolveRetryPolicy(options.retry);
    this.#acceptsExperimental = options.negotiation !== false && options.negotiation?.acceptsExperimental === true;
    this.#limiter = new InFlightLimiter(options.maxInFlight ?? transport.maxInFlight);
    this.#redaction = new ClientRedaction(transport);
    const logger = withDebugLog(options.logger);
    const log =
      logger === undefined ? undefined : (event: GlassLogEvent): void => logger(this.#redaction.logEvent(event));
    this.#log = log;
    this.#session = new McpSession(transport, {
      // onDialog answers elicitation/create beside the caller's own handlers (a TypeError when both do).
      serverRequestHandlers: serverRequestHandlersWith(options, log),
      onEvent: (event) =>
        log?.(
          event.type === "transportNotice"
            ? { type: "connection", detail: event.detail }
            : {
                type: "wire",
                detail:
                  event.type === "serverRequest"
                    ? `daemon request ${event.method} answered (${event.answered})`
                    : event.type,
              },
        ),
      onClose: (error) => {
        log?.({ type: "connection", detail: `connection closed: ${error.rawMessage}` });
        this.#closedWith ??= this.#redaction.glassError(error);
        this.#leases.forget();
        // Pending calls were just rejected (and took their deadlines out); nothing is left to time.
        queueMicrotask(() => this.#deadlines.stop());
      },
      // A transport that had to start a new daemon session (HTTP after the old one expired): the
      // lease belonged to the old session.
      onReset: () => {
        log?.({
          type: "connection",
          detail:
            "the daemon session expired and the transport started a new one (a lease held in the old one is gone)",
        });
        this.#leases.invalidate(undefined);
      },
    });
    this.#leases = new LeaseKeeper({
      call: (method, params, call) => this.#rpc(method, params, call),
      log,
      remember: (token) => this.#redaction.rememberToken(token),
    });
    attachOperationNamespaces(this, (operation, payload, call) => this.#run(operation, payload, call ?? {}));
  }

  /**
   * Creates a client and performs the MCP handshake (§3). Rejects with a GlassError that says what
   * failed — a server that answers the Glass negotiation without its manifest and agreement is not
   * a Glass daemon. Resolves with the client connected, whose `manifest` and `agreement` are
   * therefore known ({@link ConnectedGlass}); with `negotiation: false` (a plain MCP server) there
   * are none, and it resolves with a `Glass` whose `manifest` may be undefined.
   */
  static async connect(transport: GlassTransport, options: GlassClientOptions & { negotiation: false }): Promise<Glass>;
  static async connect(transport: GlassTransport, options?: GlassClientOptions): Promise<ConnectedGlass>;
  static async connect(transport: GlassTransport, options: GlassClientOptions = {}): Promise<Glass> {
    const glass = Glass.create(transport, options);
    await glass.connect();
    return glass;
  }

  /**
   * Creates a client without connecting: the first call (or {@link Glass.connect}) performs the handshake, once.
   * @throws TypeError for dialog options it cannot use (`onDialog` beside an `elicitation/create` handler of
   * `serverRequestHandlers`, or `dialogTimeoutMs` outside 1..900000).
   */
  static create(transport: GlassTransport, options: GlassClientOptions = {}): Glass {
    return new Glass(transport, options);
  }

  /** Performs the handshake if it has not been done; concurrent callers share one `initialize`. */
  connect(): Promise<void> {
    if (this.#closedWith !== undefined) return Promise.reject(this.#closedWith);
    this.#initializing ??= handshake(
      this.#session,
      { ...this.#options, logger: this.#log },
      this.#defaultDeadlineMs,
    ).then(
      (result) => {
        this.#handshakeResult = result;
      },
      async (thrown: unknown) => {
        const error = this.#redaction.glassError(thrown);
        this.#closedWith = error;
        await this.#session.close(error).catch(() => undefined);
        throw error;
      },
    );
    return this.#initializing;
  }

  /** What the daemon offers (`result.glass` of initialize), once connected (always, after a connect with Glass negotiation). */
  get manifest(): GlassCapabilityManifest | undefined {
    return this.#handshakeResult?.manifest;
  }

  /** What client and daemon agreed on (`result.glassAgreement`), once connected (always, after a connect with Glass negotiation). */
  get agreement(): GlassCapabilityAgreement | undefined {
    return this.#handshakeResult?.agreement;
  }

  /** The daemon's name and version. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#handshakeResult?.serverInfo;
  }

  /** The mutation lease this client holds, if any. */
  get lease(): Lease | undefined {
    return this.#leases.current;
  }

  /**
   * What the client has in hand right now: requests in flight (holding a slot), calls queued for a
   * slot, answers still awaited on the connection, and whether it is closed. All zero when idle.
   */
  stats(): { inFlight: number; queued: number; awaitingAnswer: number; closed: boolean } {
    return {
      inFlight: this.#limiter.inFlight,
      queued: this.#limiter.queued,
      awaitingAnswer: this.#session.pendingCount,
      closed: this.#closedWith !== undefined,
    };
  }

  /**
   * Whether the connected daemon can be used for it. For an operation name (`"browser.extractWebIr"`):
   * the daemon lists its tool (a daemon older than the tool does not) and any capability it needs is
   * usable. For a capability name (`"webIr"`): the agreement (or, for a capability not negotiated,
   * the manifest) says it can be used. Connect first: before the handshake nothing is known and the
   * answer is false.
   */
  supports(name: OperationName | GlassCapabilityName | (string & {})): boolean {
    if (!name.includes("."))
      return capabilityUsable(name, this.agreement, this.manifest, this.#acceptsExperimental) === true;
    if (this.#handshakeResult === undefined) return false;
    const { tools } = this.#handshakeResult;
    const known = describeOperation(name);
    if (tools === undefined ? known === undefined : !tools.has(toolFor(name))) return false;
    const capability = known?.capability;
    return (
      capability === undefined ||
      capabilityUsable(capability, this.agreement, this.manifest, this.#acceptsExperimental) !== false
    );
  }

  /**
   * Runs a catalog operation by name and returns its typed result, or throws a GlassError:
   * `glass.request("webIr.diff", { before, after })` is `glass.webIr.diff({ before, after })`. A name
   * outside the catalog does not compile; call such a tool with {@link Glass.requestUntyped}.
   */
  request<Op extends OperationName>(
    operation: Op,
    payload: PayloadOf<Op>,
    options: OperationCallOptions<Op> = {},
  ): Promise<ResultOf<Op>> {
    return this.#run(operation, payload, options) as Promise<ResultOf<Op>>;
  }

  /**
   * Runs any operation by name — one the daemon lists but the catalog does not type — with any JSON
   * payload, and returns its result as untyped JSON, or throws a GlassError. A tool the connected
   * daemon does not list fails before anything is sent (`capability.unavailable`), as a typed call does.
   */
  requestUntyped(
    operation: string,
    payload: JsonValue,
    options: CallOptions & ResponseModeOption & TraceOption = {},
  ): Promise<JsonValue> {
    return this.#run(operation, payload, options) as Promise<JsonValue>;
  }

  /** Builds the request of a call by name, runs it, and returns its result or throws its failure. */
  async #run(
    operation: string,
    payload: unknown,
    options: CallOptions & ResponseModeOption & TraceOption,
  ): Promise<unknown> {
    const deadlineMs = checkDeadline(options.deadlineMs ?? this.#defaultDeadlineMs, "deadlineMs", operation);
    const request = buildRequest(operation, payload, options, deadlineMs);
    const response = await this.#execute(request, options);
    if (response.ok) return response.result;
    throw errorFromEnvelope(response.error, operation, request.requestId);
  }

  /**
   * Sends a Glass request envelope and returns the response envelope. Never throws for the call's
   * outcome: a daemon error, an invalid request, a deadline or a closed connection all come back as
   * `ok: false` envelopes.
   */
  async send(
    request: GlassRequest,
    options: Omit<CallOptions, "requestId" | "correlationId" | "deadlineMs"> = {},
  ): Promise<GlassResponse> {
    const checked = runValidator<GlassRequest>(validateGlassRequest, request);
    if (!checked.ok) {
      const error = requestInvalid(
        `the request envelope is invalid: ${describeIssues(checked.issues, "request")}`.slice(0, 500),
        {
          details: { kind: "requestValidation", issues: boundedIssues(checked.issues) },
        },
      ).toJSON() as GlassErrorObject;
      const requestId =
        typeof (request as { requestId?: unknown }).requestId === "string"
          ? (request as { requestId: string }).requestId
          : "invalid";
      const token = (request as { mutationLease?: { token?: unknown } } | null)?.mutationLease?.token;
      return {
        protocolVersion: 1,
        requestId,
        ok: false,
        error: this.#redaction.errorObject(error, typeof token === "string" ? [token] : []),
      } as GlassResponse;
    }
    return this.#execute(request, options);
  }

  /** Lists the daemon's tools (`tools/list`; no paging). Catalog or not, any tool can be called with {@link Glass.request}. */
  async listTools(options: CallOptions = {}): Promise<McpToolDescription[]> {
    const result = await this.#rpc("tools/list", {}, options);
    return Array.isArray(result.tools) ? (result.tools as McpToolDescription[]) : [];
  }

  /** Checks the daemon answers; resolves with the round trip in milliseconds. */
  async ping(options: CallOptions = {}): Promise<number> {
    const started = Date.now();
    await this.#rpc("ping", {}, options);
    return Date.now() - started;
  }

  /** Acquires the mutation lease (§4, daemon socket): mutating calls then carry it automatically. */
  acquireLease(options: { ttlMs: number } & CallOptions): Promise<Lease> {
    return this.#leases.acquire(options.ttlMs, options);
  }

  /** Renews the held lease for another `ttlMs`. */
  renewLease(options: { ttlMs: number } & CallOptions): Promise<Lease> {
    return this.#leases.renew(options.ttlMs, options);
  }

  /** Releases the held lease (a no-op when none is held). */
  releaseLease(options: CallOptions = {}): Promise<void> {
    return this.#leases.release(options);
  }

  /**
   * Runs `fn` holding the mutation lease: acquires it, renews it before it expires, and releases it
   * afterwards, whatever happens. If a renewal fails, the AbortSignal passed to `fn` (its second
   * argument) aborts: stop mutating and re-observe.
   */
  withLease<T>(fn: (lease: Lease, signal: AbortSignal) => Promise<T> | T, options: WithLeaseOptions = {}): Promise<T> {
    return this.#leases.withLease(fn, options);
  }

  /**
   * Closes the client: releases the lease, rejects calls still pending (with `mutationPossible`
   * set for mutating calls that had been written), and closes the transport. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closedWith !== undefined && this.#session.closeReason !== undefined) {
      await this.#transport.close().catch(() => undefined);
      return;
    }
    if (this.#leases.current !== undefined && this.#closedWith === undefined)
      await this.#leases.release({ deadlineMs: 2000, retry: false }).catch(() => undefined);
    this.#leases.forget();
    const reason = new TransportClosedError({ message: "the client was closed" });
    this.#closedWith ??= reason;
    await this.#session.close(reason);
    this.#deadlines.stop();
  }

  /**
   * Sends a request envelope through the whole pipeline; always resolves with an envelope. Not
   * async once connected: the call's own promise is returned as it is, with no extra wrapping.
   */
  #execute(
    request: GlassRequest,
    options: Omit<CallOptions, "requestId" | "correlationId"> & ResponseModeOption & TraceOption,
  ): Promise<GlassResponse> {
    if (this.#handshakeResult === undefined) return this.#connectThenExecute(request, options);
    return callEnvelope(this.#settings, request, options, request.deadlineMs ?? this.#defaultDeadlineMs);
  }

  /** {@link execute} before the handshake: connects first (a failed connect is the call's failure). */
  async #connectThenExecute(
    request: GlassRequest,
    options: Omit<CallOptions, "requestId" | "correlationId"> & ResponseModeOption & TraceOption,
  ): Promise<GlassResponse> {
    try {
      await this.connect();
    } catch (error) {
      return failure(request, error);
    }
    return this.#execute(request, options);
  }

  /** What every call (tool or MCP method) borrows from the client (made once; the lease is read when a call starts). */
  get #settings(): CallSettings {
    if (this.#callSettings !== undefined) return this.#callSettings;
    const leases = this.#leases;
    this.#callSettings = {
      session: this.#session,
      limiter: this.#limiter,
      deadlines: this.#deadlines,
      retryPolicy: this.#retryPolicy,
      cancelGraceMs: this.#options.cancelGraceMs ?? 5000,
      log: this.#log,
      validatePayloads: this.#options.validate?.payloads !== false,
      validateResponses: this.#options.validate?.responses !== false,
      callOrder: new CallOrder(),
      get lease() {
        return leases.current;
      },
      capabilityUsable: (capability) =>
        capabilityUsable(capability, this.agreement, this.manifest, this.#acceptsExperimental),
      unlistedTool: (operation) => {
        const tool = toolFor(operation);
        return this.#handshakeResult?.tools === undefined || this.#handshakeResult.tools.has(tool)
          ? undefined
          : toolNotListed(operation, tool, this.serverInfo);
      },
      onLeaseRefused: (error, request) =>
        leases.invalidate(errorFromEnvelope(error, request.operation, request.requestId)),
      redact: (error, secrets) => this.#redaction.errorObject(error, secrets),
    };
    return this.#callSettings;
  }

  /** A JSON-RPC method call that is not a tool (ping, tools/list, leases); throws a GlassError on failure. */
  async #rpc(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    await this.connect();
    const deadlineMs = checkDeadline(options.deadlineMs ?? this.#defaultDeadlineMs, "deadlineMs", method);
    try {
      return await rpcCall(this.#settings, method, params, { ...options, deadlineMs });
    } catch (error) {
      throw this.#redaction.glassError(error);
    }
  }
}

// The typed operation namespaces (glass.browser.click, glass.webIr.diff, ...) are generated.
export interface Glass extends GlassOperationNamespaces<CallOptions> {}

/**
 * The per-call options of an operation: {@link CallOptions}, plus `responseMode` where its tool
 * takes one and `includeTrace` where its tool can return a failure trace.
 */
export type OperationCallOptions<Op extends OperationName> = CallOptions &
  (Op extends ResponseModeOperation ? ResponseModeOption : unknown) &
  (Op extends TraceOperation ? TraceOption : unknown);

/** Runs one operation for a typed method. */
type OperationInvoker = (operation: string, payload: unknown, options: CallOptions | undefined) => Promise<unknown>;

/**
 * Gives the client one property per catalog namespace (`browser`, `webIr`, `task`) holding one
 * method per operation (`glass.browser.click(payload, options)`), built from the generated
 * operation table; their types come from the generated method signatures. A method whose payload
 * has no required field may be called without one.
 */
function attachOperationNamespaces(target: object, invoke: OperationInvoker): void {
  const namespaces = new Map<string, Record<string, (payload?: unknown, options?: CallOptions) => Promise<unknown>>>();
  for (const op of Object.values(operations) as OperationDescriptor[]) {
    let methods = namespaces.get(op.namespace);
    if (methods === undefined) {
      methods = {};
      namespaces.set(op.namespace, methods);
    }
    const operation = op.operation;
    methods[op.method] = (payload?: unknown, options?: CallOptions) => invoke(operation, payload ?? {}, options);
  }
  for (const [name, methods] of namespaces) {
    Object.defineProperty(target, name, { value: Object.freeze(methods), enumerable: true });
  }
}

/**
 * The request envelope of a typed call. The operation name and the ids the caller gave are checked
 * here (the deadline already was); the payload is checked by the preflight (or, without one, for
 * being JSON) when it is sent.
 */
function buildRequest(operation: string, payload: unknown, options: CallOptions, deadlineMs: number): GlassRequest {
  const issues: ValidationIssue[] = [];
  validateGlassOperationName(operation, "operation", issues);
  if (options.requestId !== undefined) validateGlassIdentifier(options.requestId, "requestId", issues);
  if (options.correlationId !== undefined) validateGlassIdentifier(options.correlationId, "correlationId", issues);
  if (issues.length > 0) {
    throw requestInvalid(`cannot build the request: ${describeIssues(issues, "request")}`, {
      details: { kind: "requestValidation", issues },
      ...(typeof operation === "string" ? { operation } : {}),
    });
  }
  return assembleRequest(operation, payload, {
    requestId: options.requestId,
    correlationId: options.correlationId,
    deadlineMs,
  }) as GlassRequest;
}

function checkDeadline(value: number, name: string, operation?: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DEADLINE_MS) {
    throw requestInvalid(
      `${name} must be an integer from 1 to ${MAX_DEADLINE_MS} ms (fifteen minutes); got ${String(value)}`,
      { operation },
    );
  }
  return value;
}

function failure(request: GlassRequest, error: unknown): GlassResponse {
  const glassError =
    error instanceof GlassError ? error : new GlassError({ code: "internal", message: describeError(error) });
  return responseEnvelope(request, false, glassError.toJSON() as GlassErrorObject);
}

/**
 * The caller's logger and, when the environment asks for it (`GLASS_DEBUG=1` or `DEBUG=glass-sdk`,
 * Node only), the debug log on stderr: both get every event.
 */
function withDebugLog(
  logger: ((event: GlassLogEvent) => void) | undefined,
): ((event: GlassLogEvent) => void) | undefined {
  if (!debugLogRequested()) return logger;
  const debug = stderrLogger();
  if (logger === undefined) return debug;
  return (event) => {
    debug(event);
    logger(event);
  };
}
