import { performance } from "node:perf_hooks";
import { sdk, sdkNode, sdkProtocol, sdkTesting } from "../lib/dist.js";
import type { BenchFixture, BenchOperation, PayloadKey } from "../lib/fixture.js";
import type { BenchSettings } from "../lib/settings.js";
import { median } from "../lib/stats.js";
import type { Glass, GlassTransport, TransportHandlers, WebIrDocument } from "glass-sdk";
import type { JsonRpcMessage, JsonRpcResponse } from "glass-sdk/protocol";
import { countJsonCalls, type JsonCount } from "./json-count.js";

/**
 * What one call costs in the SDK itself, without I/O, in µs of CPU time (user + system of this
 * process: what the call costs, which other load on the machine skews far less than wall time);
 * the wall-clock figures are kept alongside.
 */
export interface OverheadResult {
  payload: PayloadKey;
  /** A glass-sdk call over the instant transport, per call. */
  glassMicros: number;
  /** The equivalent trivial loop (same fake daemon, a pending map and a microtask hop), per call. */
  trivialMicros: number;
  /** glass − trivial: validate + map + encode + decode + lift, and the client's bookkeeping. */
  overheadMicros: number;
  /** The same three in wall-clock time. */
  wall: { glassMicros: number; trivialMicros: number; overheadMicros: number };
  /** Each stage on its own (sync loops), per call. */
  stages: { stage: string; micros: number; wallMicros: number }[];
  /** What the glass call did with JSON over the instant transport. */
  json: JsonCount;
}

const utf8 = new TextEncoder();

/** Builds the answer frame the fake daemon sends for a tool call: precomputed text around the live id. */
function answerFrames(
  operations: Readonly<Record<PayloadKey, BenchOperation>>,
): (id: unknown, tool: string) => Uint8Array {
  const tails = new Map<string, string>();
  for (const op of Object.values(operations)) {
    const result = sdkTesting.toMcpToolResult({
      protocolVersion: 1,
      requestId: "bench",
      ok: true,
      result: op.result as never,
    });
    tails.set(op.tool, `,"result":${JSON.stringify(result)}}\n`);
  }
  return (id, tool) => utf8.encode(`{"jsonrpc":"2.0","id":${JSON.stringify(id)}${tails.get(tool)!}`);
}

/**
 * A transport with no I/O: the handshake goes to the in-memory replay daemon; each tool call is
 * encoded with the SDK's `encodeFrame` (as the stdio and socket transports do) and answered at
 * once, one microtask later, with a precomputed answer frame decoded by the SDK's frame reader.
 */
class InstantTransport implements GlassTransport {
  readonly kind = "instant";
  readonly maxInFlight = 8;
  readonly #inner: GlassTransport;
  readonly #answer: (id: unknown, tool: string) => Uint8Array;
  readonly #reader = sdkNode.createFrameReader();
  #handlers: TransportHandlers | undefined;
  /** Bytes encoded so far (keeps the encoding observable). */
  encodedBytes = 0;

  constructor(inner: GlassTransport, answer: (id: unknown, tool: string) => Uint8Array) {
    this.#inner = inner;
    this.#answer = answer;
  }

  start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
    return this.#inner.start(handlers);
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.encodedBytes += sdkNode.encodeFrame(message).length;
    if (!("method" in message) || message.method !== "tools/call" || !("id" in message))
      return this.#inner.send(message);
    const frame = this.#answer(message.id, (message.params as { name: string }).name);
    queueMicrotask(() => {
      for (const decoded of this.#reader.push(frame)) this.#handlers!.onMessage(decoded as JsonRpcMessage);
    });
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** glass-sdk connected over the instant transport, with the two measured calls. */
export async function connectInstant(fixture: BenchFixture): Promise<{
  glass: Glass;
  calls: Record<PayloadKey, () => Promise<unknown>>;
  answer: (id: unknown, tool: string) => Uint8Array;
}> {
  const answer = answerFrames(fixture.operations);
  const replay = sdkTesting.inMemoryTransport(await sdkTesting.loadFixture(fixture.path));
  const glass: Glass = await sdk.Glass.connect(new InstantTransport(replay, answer));
  const observe = fixture.operations.small.payload as { level: "summary" };
  const validate = fixture.operations.large.payload as { ir: WebIrDocument };
  return {
    glass,
    answer,
    calls: {
      small: () => glass.browser.observe(observe),
      large: () => glass.webIr.validate(validate),
    },
  };
}

/** µs per call, of CPU time and of wall-clock time. */
interface PerCall {
  cpu: number;
  wall: number;
}

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** µs per call of an async call, sequential, run for about `ms`. */
async function asyncMicros(run: () => Promise<unknown>, ms: number): Promise<PerCall> {
  let calls = 0;
  const cpu = cpuNow();
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 32; i++) await run();
    calls += 32;
    elapsed = performance.now() - start;
  }
  return { cpu: (cpuNow() - cpu) / calls, wall: (elapsed * 1000) / calls };
}

/** µs per call of a sync function, run for about `ms`. */
function syncMicros(run: () => unknown, ms: number): PerCall {
  let calls = 0;
  let batch = 1;
  const cpu = cpuNow();
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) run();
    calls += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 10) batch *= 2;
  }
  return { cpu: (cpuNow() - cpu) / calls, wall: (elapsed * 1000) / calls };
}

/**
 * The SDK's own cost per call, without I/O: glass-sdk over the instant transport, in alternating
 * rounds with a trivial loop doing the same fake-daemon work (building the answer frame) plus a
 * pending map and a microtask hop; overhead = median glass − median trivial. Then each stage on its
 * own, and a count of JSON work during one call.
 */
export async function measureOverhead(
  fixture: BenchFixture,
  settings: BenchSettings,
  root: string,
): Promise<OverheadResult[]> {
  const { glass, calls: glassCall, answer } = await connectInstant(fixture);
  const pending = new Map<string, (frame: Uint8Array) => void>();
  let next = 0;
  const trivialCall = (tool: string) => (): Promise<Uint8Array> => {
    const id = `trivial-${next++}`;
    const frame = answer(id, tool);
    return new Promise((resolve) => {
      pending.set(id, resolve);
      queueMicrotask(() => {
        const settle = pending.get(id)!;
        pending.delete(id);
        settle(frame);
      });
    });
  };

  const results: OverheadResult[] = [];
  for (const key of ["small", "large"] as const) {
    const op = fixture.operations[key];
    const trivial = trivialCall(op.tool);
    const ms = key === "small" ? settings.overheadRoundMs : settings.overheadRoundMs * 2;
    await asyncMicros(glassCall[key], ms); // warm-up
    await asyncMicros(trivial, ms);
    const glassRounds: PerCall[] = [];
    const trivialRounds: PerCall[] = [];
    for (let round = 0; round < settings.overheadRounds; round++) {
      if (round % 2 === 0) {
        glassRounds.push(await asyncMicros(glassCall[key], ms));
        trivialRounds.push(await asyncMicros(trivial, ms));
      } else {
        trivialRounds.push(await asyncMicros(trivial, ms));
        glassRounds.push(await asyncMicros(glassCall[key], ms));
      }
    }
    const glassMicros = median(glassRounds.map((r) => r.cpu));
    const trivialMicros = median(trivialRounds.map((r) => r.cpu));
    const glassWall = median(glassRounds.map((r) => r.wall));
    const trivialWall = median(trivialRounds.map((r) => r.wall));
    const json = await countJsonCalls(glassCall[key], op.payloadBytes, root);
    results.push({
      payload: key,
      glassMicros,
      trivialMicros,
      overheadMicros: glassMicros - trivialMicros,
      wall: { glassMicros: glassWall, trivialMicros: trivialWall, overheadMicros: glassWall - trivialWall },
      stages: stages(op, answer, ms),
      json,
    });
  }
  await glass.close();
  return results;
}

/** Each stage of a call on its own: what the client does between the caller and the bytes. */
function stages(
  op: BenchOperation,
  answer: (id: unknown, tool: string) => Uint8Array,
  ms: number,
): OverheadResult["stages"] {
  const request = sdk.createRequest(op.operation, op.payload as never, { deadlineMs: 60_000 });
  const message = sdkProtocol.toMcpRequest(request);
  const frame = answer(request.requestId, op.tool);
  const reader = sdkNode.createFrameReader();
  const response = reader.push(frame)[0] as JsonRpcResponse;
  const envelope = sdkProtocol.fromMcpResponse(response, request);
  const result = envelope.ok ? envelope.result : undefined;
  const stageMs = ms / 2;
  const stage = (name: string, run: () => unknown): OverheadResult["stages"][number] => {
    const { cpu, wall } = syncMicros(run, stageMs);
    return { stage: name, micros: cpu, wallMicros: wall };
  };
  return [
    stage("createRequest (new id, envelope check)", () =>
      sdk.createRequest(op.operation, op.payload as never, { deadlineMs: 60_000 }),
    ),
    stage("validatePayload (preflight)", () => sdk.validatePayload(op.operation, op.payload)),
    stage("toMcpRequest (map)", () => sdkProtocol.toMcpRequest(request)),
    stage("encodeFrame (encode)", () => sdkNode.encodeFrame(message)),
    stage("frame reader (decode)", () => reader.push(frame)),
    stage("fromMcpResponse (lift)", () => sdkProtocol.fromMcpResponse(response, request)),
    stage(
      "validateResponse + validateResult (check)",
      () => sdk.validateResponse(envelope).ok && sdk.validateResult(op.operation, result).ok,
    ),
  ];
}
