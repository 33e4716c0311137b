/**
 * A hostile daemon against the frame reader of the stdio and socket transports (§5 framing).
 *
 * 1. A `Content-Length:1<spaces>x` header: trimming the value with a regular expression costs the
 *    square of its length (80 ms for 8 KiB, the event loop stalled for seconds under repetition).
 *    The reader now parses the header in one pass; proven by comparing two sizes, not by a clock
 *    threshold: 8 times the bytes must cost about 8 times the work, not 64 times.
 * 2. A lying `Content-Length: 2^40`: the reader skipped the declared length forever, swallowing
 *    every later answer while the calls waited for their deadlines. A length past the 32 MiB bound
 *    now ends the connection at once (a Glass daemon answers -32001 instead of sending such a
 *    frame), and a length under it whose frame never ends ends it once the skip outlasts the frame
 *    timeout (as the daemon ends one whose frame is late): the calls fail with TransportClosedError
 *    instead of each waiting out its deadline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  BadFrameError,
  Glass,
  type GlassError,
  TransportClosedError,
  type GlassLogEvent,
  type GlassTransport,
} from "glass-sdk";
import {
  createDaemonFrameReader,
  createFrameReader,
  type FrameReader,
  type FrameReaderOptions,
} from "../../../src/node/framing/frame-reader.js";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { clickPayload } from "../support/fault-rig.js";
import { growth } from "../support/growth.js";

const HOSTILE_DAEMON = fileURLToPath(new URL("../support/hostile-daemon.mjs", import.meta.url));
const utf8 = new TextEncoder();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("hostile daemon: a Content-Length header padded with whitespace", () => {
  /** A header whose value is `1`, `size` spaces and a stray `x`: a bad header the reader must reject. */
  const paddedHeader = (size: number): Uint8Array => utf8.encode(`Content-Length:1${" ".repeat(size)}x\r\n`);

  it.each<[string, (options: FrameReaderOptions) => FrameReader]>([
    ["the client's reader", createFrameReader],
    ["the mock daemon's reader (createDaemonFrameReader)", createDaemonFrameReader],
  ])(
    "%s rejects it in time linear in its length (8x the bytes cost < 24x, where a quadratic trim costs 64x)",
    (_name, create) => {
      const reader = create({ maxHeaderBytes: 64 * 1024 });
      const headers = new Map([2048, 16 * 1024].map((size) => [size, paddedHeader(size)]));
      const parse = (size: number): unknown => {
        try {
          reader.push(headers.get(size)!);
          return undefined;
        } catch (error) {
          return error;
        }
      };
      for (const size of headers.keys())
        expect((parse(size) as Error).message).toMatch(/Content-Length value '1 +…' is not a decimal number/);
      const ratio = growth(parse, 2048, 16 * 1024);
      console.info(`${_name}: a 16 KiB padded header costs ${ratio.toFixed(1)}x a 2 KiB one`);
      expect(ratio).toBeLessThan(24);
      expect(reader.push(utf8.encode('{"jsonrpc":"2.0","id":1,"result":{}}\n'))).toEqual([
        { jsonrpc: "2.0", id: 1, result: {} },
      ]);
    },
  );

  it("200 of them in a row, then an answer: each is one bad frame, and the answer is decoded", () => {
    const reader = createFrameReader();
    const stream = new Uint8Array(200 * (8000 + 20) + 64);
    let offset = 0;
    for (let index = 0; index < 200; index++) {
      const header = paddedHeader(8000);
      stream.set(header, offset);
      offset += header.length;
    }
    const answer = utf8.encode('{"jsonrpc":"2.0","id":7,"result":{}}\n');
    stream.set(answer, offset);
    let badFrames = 0;
    let input = stream.subarray(0, offset + answer.length);
    const decoded: unknown[] = [];
    for (;;) {
      try {
        decoded.push(...reader.push(input));
        break;
      } catch (error) {
        expect(error).toBeInstanceOf(BadFrameError);
        badFrames++;
        input = new Uint8Array(0);
      }
    }
    expect(badFrames).toBe(200);
    expect(decoded).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  });
});

describe("hostile daemon: a lying Content-Length the reader would skip forever", () => {
  it("the reader says since when it skips, and giving up on the skip says the framing is lost", () => {
    let clock = 1000;
    const reader = createFrameReader({ now: () => clock });
    let tooLarge: unknown;
    try {
      reader.push(utf8.encode(`Content-Length: ${2 ** 40}\r\n\r\n`));
    } catch (error) {
      tooLarge = error;
    }
    expect(tooLarge).toBeInstanceOf(BadFrameError);
    expect((tooLarge as BadFrameError).rawMessage).toMatch(/over the 33554432-byte limit/);
    expect((tooLarge as BadFrameError).details).toEqual({
      framing: "content-length",
      tooLarge: true,
      declaredBytes: 2 ** 40,
      maxBytes: 33_554_432,
    });
    expect(reader.partialSince()).toBeUndefined();
    expect(reader.skippingSince()).toBe(1000);
    clock = 5000;
    expect(reader.push(utf8.encode('{"jsonrpc":"2.0","id":1,"result":{}}\n'))).toEqual([]); // swallowed by the skip
    const lost = reader.discardPartial("late");
    expect(lost).toBeInstanceOf(BadFrameError);
    expect(lost?.details).toEqual({ framing: "content-length", framingLost: true });
    expect(lost?.rawMessage).toMatch(
      /^late: still skipping the rest of a Content-Length frame \(1099511627739 bytes it declared are still to come\)/,
    );
  });

  it("a skip that ends in time is no loss: an oversized frame that does arrive whole is skipped and reading goes on", () => {
    const reader = createFrameReader({ maxContentLengthBytes: 16 });
    expect(() => reader.push(utf8.encode("Content-Length: 40\r\n\r\n"))).toThrow(/over the 16-byte limit/);
    expect(reader.skippingSince()).toBeDefined();
    expect(reader.push(utf8.encode(`${" ".repeat(40)}{"n":1}\n`))).toEqual([{ n: 1 }]);
    expect(reader.skippingSince()).toBeUndefined();
    expect(reader.discardPartial("late")).toBeUndefined();
  });

  /** The hostile daemon as a child process: over its stdio, or listening on a Unix socket. */
  async function hostileTransport(
    kind: "stdio" | "socket",
    frameTimeoutMs: number,
    length: number,
    heartbeatMs?: number,
  ): Promise<GlassTransport> {
    const args = [
      HOSTILE_DAEMON,
      "--behaviour",
      "lying-length",
      "--length",
      String(length),
      ...(heartbeatMs === undefined ? [] : ["--heartbeat-ms", String(heartbeatMs)]),
    ];
    if (kind === "stdio")
      return stdioTransport({ command: process.execPath, args, frameTimeoutMs, closeTimeoutMs: 200 });
    const dir = mkdtempSync(join(tmpdir(), "glass-hostile-"));
    const path = join(dir, "glass.sock");
    const child: ChildProcess = spawn(process.execPath, [...args, "--socket", path], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(() => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the hostile daemon exited with ${code}`)));
    });
    return socketTransport({ path, frameTimeoutMs });
  }

  /** A ping and a click against the lying daemon; both outcomes and how long they took. */
  async function callsAgainst(
    transport: GlassTransport,
  ): Promise<{ outcomes: GlassError[]; elapsed: number; events: GlassLogEvent[]; glass: Glass }> {
    const events: GlassLogEvent[] = [];
    const glass = await Glass.connect(transport, {
      logger: (event) => events.push(event),
      retry: false,
      negotiation: false,
    });
    cleanups.push(() => glass.close());
    const started = Date.now();
    const outcomes = await Promise.all([
      glass.ping({ deadlineMs: 20_000 }).then(
        () => undefined,
        (error: unknown) => error,
      ),
      glass.browser.click(clickPayload, { deadlineMs: 20_000 }).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ]);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(TransportClosedError);
    const [pinged, clicked] = outcomes as GlassError[];
    expect(pinged!.mutationPossible).toBe(false);
    expect(clicked!.mutationPossible).toBe(true);
    return { outcomes: outcomes as GlassError[], elapsed: Date.now() - started, events, glass };
  }

  it.each(["stdio", "socket"] as const)(
    "over %s, a length past 32 MiB: the calls fail at once with TransportClosedError (frameTooLarge, the declared size and the bound), before any frame timeout; the mutation says it may have happened",
    async (kind) => {
      const { outcomes, elapsed, events, glass } = await callsAgainst(await hostileTransport(kind, 20_000, 2 ** 40));
      for (const outcome of outcomes) {
        expect(outcome.rawMessage).toMatch(
          /sent a frame that declared 1099511627776 bytes, past the 33554432-byte bound on an answer .*: the connection was closed/,
        );
        expect(outcome.details).toMatchObject({
          reason: "frameTooLarge",
          framing: "content-length",
          declaredBytes: 2 ** 40,
          maxBytes: 33_554_432,
        });
      }
      console.info(
        `${kind}: a Content-Length of 2^40 failed both calls after ${elapsed} ms (frame timeout 20 000 ms, deadlines 20 000 ms)`,
      );
      // Far from the 20 s frame timeout and deadlines.
      expect(elapsed).toBeLessThan(10_000);
      expect(glass.stats()).toMatchObject({ closed: true, awaitingAnswer: 0 });
      expect(events).toContainEqual({ type: "wire", detail: "badFrame" });
    },
  );

  it.each(["stdio", "socket"] as const)(
    "over %s, a length under 32 MiB that never ends while bytes keep coming: the calls fail with TransportClosedError (framingLost) soon after the frame timeout, not at their deadlines",
    async (kind) => {
      const { outcomes, elapsed, events, glass } = await callsAgainst(
        await hostileTransport(kind, 300, 1024 * 1024, 50),
      );
      for (const outcome of outcomes) {
        expect(outcome.rawMessage).toMatch(
          /still skipping the rest of a Content-Length frame .* the frames after it cannot be told apart: the connection to .* was closed/,
        );
        expect(outcome.details).toMatchObject({ framingLost: true });
      }
      // Bounded by the frame timeout (300 ms, twice: the stalled frame, then its skip), far from the 20 s deadlines.
      expect(elapsed).toBeLessThan(10_000);
      expect(glass.stats()).toMatchObject({ closed: true, awaitingAnswer: 0 });
      expect(events).toContainEqual({ type: "wire", detail: "badFrame" });
    },
  );
});
