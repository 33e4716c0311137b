/**
 * The load run of test/reliability/load/: N small read calls (`browser.observe` with the
 * golden fixture's payload) from C concurrent async callers over ONE client connection, each caller
 * passing its own AbortSignal to every call it makes, and what can be checked afterwards:
 *
 * - every call settled exactly once and succeeded with the fixture's result, and each (by its
 *   request id) was written once and answered once on the wire (a counting tap on the transport:
 *   no retry, no stray answer, no daemon request, no retry/cancel/wire log event);
 * - the client holds nothing: `glass.stats()` all zero (in flight, queued, and the MCP session's
 *   pending map), and no `abort` listener is left on any caller's signal;
 * - after closing the client and whatever served it, no Timeout or handle
 *   (`process.getActiveResourcesInfo()`: Timeout, Immediate, PipeWrap, TCPSocketWrap, ProcessWrap…)
 *   is active that was not before, and the heap after a full GC is within 5 MB of where it was
 *   before connecting; and with the connection still open, the run itself left under 10 MB.
 *
 * To show the instruments see what they count, the same counts are sampled every 500 calls during
 * the run (`peakDuringRun`: the exchange's deadline timers, sockets, listeners).
 *
 * What this cannot see: the exchange's own AbortController per call and the limiter's listener on
 * it (internal, unreachable from outside; a leak there would show in the heap and the timer
 * counts), timers that were created and cleared between two samples (the point is that none is
 * left), and anything inside the stdio daemon's process (only our side of it is counted).
 */
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect } from "vitest";
import { Glass, type GlassClientOptions, type GlassLogEvent, type GlassTransport } from "glass-sdk";
import type { JsonRpcMessage } from "../../../src/mcp/json-rpc.js";
import type { TransportHandlers } from "../../../src/transport/transport.js";
import { observePayload, observeResult } from "./fault-rig.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** A full GC, three times, with a turn of the event loop between (so objects freed by callbacks go too). */
async function fullGc(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The heap once what the run left to settle has settled: the least of five readings, each after a
 * full GC and a short pause (sockets, streams and pools free their buffers on timers of their own,
 * so a single reading right after a burst of calls can hold several MB that are about to go).
 */
async function settledHeap(): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fullGc();
    least = Math.min(least, process.memoryUsage().heapUsed);
  }
  return least;
}

/**
 * Counts per request id (`load-<i>`) what the client wrote and what came back, in typed arrays (so
 * the counting itself adds next to nothing to the heap being measured), without keeping messages.
 */
class CountingTap {
  readonly written: Uint8Array;
  readonly answered: Uint8Array;
  strayAnswers = 0;
  otherMessages = 0;
  /**
   * The client's own requests other than the calls (initialize, the connect-time tools/list, ping),
   * by id, with how often each was answered: each may be answered once, anything else is stray.
   */
  readonly #ownRequests = new Map<string | number, number>();

  constructor(calls: number) {
    this.written = new Uint8Array(calls);
    this.answered = new Uint8Array(calls);
  }

  wrap(inner: GlassTransport): GlassTransport {
    return {
      kind: inner.kind,
      maxInFlight: inner.maxInFlight,
      start: (handlers: TransportHandlers) =>
        inner.start({
          onMessage: (message) => {
            this.#received(message);
            handlers.onMessage(message);
          },
          onClose: (error) => handlers.onClose(error),
          onError: (error) => handlers.onError?.(error),
        }),
      send: (message) => {
        if ("method" in message && message.method === "tools/call" && "id" in message)
          this.#count(this.written, message.id);
        else if (
          "method" in message &&
          "id" in message &&
          (typeof message.id === "string" || typeof message.id === "number")
        )
          this.#ownRequests.set(message.id, 0);
        return inner.send(message);
      },
      close: () => inner.close(),
    };
  }

  #received(message: JsonRpcMessage): void {
    if ("method" in message) return void this.otherMessages++;
    const id = (message as { id?: unknown }).id;
    if (typeof id === "string" && id.startsWith("load-")) this.#count(this.answered, id);
    else if ((typeof id === "string" || typeof id === "number") && this.#ownRequests.get(id) === 0)
      this.#ownRequests.set(id, 1); // the client's own initialize/tools/list/ping, answered once
    else this.strayAnswers++;
  }

  #count(counts: Uint8Array, id: unknown): void {
    const index = typeof id === "string" && id.startsWith("load-") ? Number(id.slice(5)) : NaN;
    if (Number.isInteger(index) && index >= 0 && index < counts.length)
      counts[index] = Math.min(255, counts[index]! + 1);
    else this.strayAnswers++;
  }
}

/** What serves one load connection: a transport to it and how to stop it (and whatever it runs on). */
export interface LoadTarget {
  transport: GlassTransport;
  stop(): Promise<void>;
}

/** The figures of one run, for the report. */
export interface LoadFigures {
  transport: string;
  calls: number;
  callers: number;
  ms: number;
  callsPerSecond: number;
  heapBeforeMB: number;
  /** With the client connected, before the run. */
  heapConnectedMB: number;
  /** With the client still connected, after the run. */
  heapAfterRunMB: number;
  heapAfterCloseMB: number;
  heapDeltaMB: number;
  resourcesBefore: Record<string, number>;
  /** Sampled every 500 calls: the most of each resource type, and of abort listeners, seen at once. */
  peakDuringRun: Record<string, number>;
  resourcesAfter: Record<string, number>;
}

/**
 * Mid-run: the most of each resource type active at once, and the most `abort` listeners on one
 * caller's signal (the exchange adds one per call in flight, the limiter one per call queued): it
 * shows that what is counted afterwards is there to be seen while the calls run.
 */
function sample(signals: readonly AbortSignal[], peak: Record<string, number>): void {
  for (const [type, count] of Object.entries(activeResources())) peak[type] = Math.max(peak[type] ?? 0, count);
  let listeners = 0;
  for (const signal of signals) listeners += getEventListeners(signal, "abort").length;
  peak["abort listeners (all callers)"] = Math.max(peak["abort listeners (all callers)"] ?? 0, listeners);
}

/** Counts of `process.getActiveResourcesInfo()` by type (Timeout, TCPSocketWrap, PipeWrap, ProcessWrap, …). */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

const MB = 1024 * 1024;
const round = (bytes: number): number => Math.round((bytes / MB) * 100) / 100;

/**
 * Runs `calls` reads from `callers` concurrent callers over one client on `open()`'s transport,
 * after a warm-up run on a throwaway target (so module loading and lazy compilation do not count
 * as growth), asserts everything the module comment lists, and returns the figures.
 */
export async function runLoad(
  name: string,
  open: () => Promise<LoadTarget>,
  options: { calls?: number; callers?: number; client?: GlassClientOptions } = {},
): Promise<LoadFigures> {
  const calls = options.calls ?? 10_000;
  const callers = options.callers ?? 64;
  await drive(await open(), Math.min(calls, 500), callers, options.client, false);
  await fullGc();
  const resourcesBefore = activeResources();
  const heapBefore = process.memoryUsage().heapUsed;
  const run = await drive(await open(), calls, callers, options.client, true);
  // Sockets closed by the other side go away a few turns later: give them up to 2 s to be gone.
  const until = Date.now() + 2_000;
  while (
    Date.now() < until &&
    Object.entries(activeResources()).some(([type, count]) => count > (resourcesBefore[type] ?? 0))
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await fullGc();
  const heapAfterClose = process.memoryUsage().heapUsed;
  const resourcesAfter = activeResources();

  for (const [type, count] of Object.entries(resourcesAfter)) {
    expect(
      count,
      `${name}: ${count} ${type} active after the run, ${resourcesBefore[type] ?? 0} before`,
    ).toBeLessThanOrEqual(resourcesBefore[type] ?? 0);
  }
  const figures: LoadFigures = {
    transport: name,
    calls,
    callers,
    ms: run.ms,
    callsPerSecond: Math.round((calls / run.ms) * 1000),
    heapBeforeMB: round(heapBefore),
    heapConnectedMB: round(run.heapConnected),
    heapAfterRunMB: round(run.heapAfterRun),
    heapAfterCloseMB: round(heapAfterClose),
    heapDeltaMB: round(heapAfterClose - heapBefore),
    resourcesBefore,
    peakDuringRun: run.peak,
    resourcesAfter,
  };
  expect(
    heapAfterClose - heapBefore,
    `${name}: heap grew by ${figures.heapDeltaMB} MB from before connecting to after closing`,
  ).toBeLessThan(5 * MB);
  // With everything still open, the run itself must not have left a per-call trail behind. This
  // includes what is kept on purpose: the in-process daemon's record of every call (~165 bytes
  // each, 1.6 MB for 10,000) and this harness's counters; and over HTTP, undici's and the HTTP
  // server's pools, which wander by a few MB from one measurement to the next. So the bound is
  // looser (10 MB, i.e. under 1 KB per call), enough to catch a leaked closure or entry per call.
  expect(
    run.heapAfterRun - run.heapConnected,
    `${name}: heap grew by ${round(run.heapAfterRun - run.heapConnected)} MB over the run, connection still open`,
  ).toBeLessThan(10 * MB);
  process.stdout.write(`load ${JSON.stringify(figures)}\n`);
  return figures;
}

/** One run: connect, drive the callers, check the client is clean, close everything. */
async function drive(
  target: LoadTarget,
  calls: number,
  callers: number,
  client: GlassClientOptions | undefined,
  check: boolean,
): Promise<{ ms: number; heapConnected: number; heapAfterRun: number; peak: Record<string, number> }> {
  const tap = new CountingTap(calls);
  const events: GlassLogEvent[] = [];
  const glass = await Glass.connect(tap.wrap(target.transport), {
    deadlineMs: 30_000,
    ...client,
    logger: (event) => {
      if (
        event.type !== "request" &&
        event.type !== "response" &&
        event.type !== "queued" &&
        event.type !== "connection"
      )
        events.push(event);
    },
  });
  const peak: Record<string, number> = {};
  const resolved = new Uint8Array(calls);
  const rejected = new Uint8Array(calls);
  const failures: unknown[] = [];
  const signals: AbortSignal[] = [];
  let next = 0;
  let wrongResults = 0;
  const expected = JSON.stringify(observeResult);
  await fullGc();
  const heapConnected = process.memoryUsage().heapUsed;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      const controller = new AbortController(); // each caller's own signal, passed to every call it makes
      signals.push(controller.signal);
      for (let i = next++; i < calls; i = next++) {
        if (i % 500 === 250) sample(signals, peak);
        await glass.browser.observe(observePayload, { requestId: `load-${i}`, signal: controller.signal }).then(
          (result) => {
            resolved[i]! += 1;
            if (JSON.stringify(result) !== expected) wrongResults++;
          },
          (error: unknown) => {
            rejected[i]! += 1;
            if (failures.length < 5) failures.push(error);
          },
        );
      }
    }),
  );
  const ms = Date.now() - started;
  const heapAfterRun = await settledHeap();
  if (check) {
    expect(failures).toEqual([]);
    let settledOnce = 0;
    for (let i = 0; i < calls; i++) if (resolved[i]! + rejected[i]! === 1) settledOnce++;
    expect(settledOnce, "calls that settled exactly once").toBe(calls);
    expect(
      resolved.reduce((sum, n) => sum + n, 0),
      "calls that succeeded",
    ).toBe(calls);
    expect(wrongResults).toBe(0);
    expect(
      tap.written.every((n) => n === 1),
      "every request written exactly once (no retry)",
    ).toBe(true);
    expect(
      tap.answered.every((n) => n === 1),
      "every request answered exactly once",
    ).toBe(true);
    expect(tap.strayAnswers + tap.otherMessages, "stray answers and daemon requests").toBe(0);
    expect(events, "retries, cancels, wire events").toEqual([]);
    expect(glass.stats()).toEqual({ inFlight: 0, queued: 0, awaitingAnswer: 0, closed: false });
    expect(
      signals.map((signal) => getEventListeners(signal, "abort").length),
      "abort listeners left on the callers' signals",
    ).toEqual(signals.map(() => 0));
  }
  await glass.close();
  await target.stop();
  return { ms, heapConnected, heapAfterRun, peak };
}
