/**
 * Raw-TCP tools for the bridge hardening suite: sockets that send a request byte by byte (or stop
 * half-way) and record when and how the bridge closes them, flood helpers, and latency statistics.
 * Nothing here knows the bridge's internals: it speaks to the port like an attacker would.
 */
import { connect, type Socket } from "node:net";

/** What a raw connection saw: the bytes the bridge wrote back and when the connection ended. */
export interface RawOutcome {
  /** Everything the bridge wrote (latin1, so any byte survives). */
  text: string;
  /** Milliseconds from the connection being established to it being closed (by either side). */
  closedAfterMs: number;
  /** How many bytes this client managed to write before the connection closed. */
  bytesWritten: number;
  /** Whether the bridge ended the connection (rather than this client). */
  closedByPeer: boolean;
}

/** A raw connection that writes `bytes`, then `drip` (one byte every `dripEveryMs`), and records the outcome. */
export interface RawClient {
  readonly socket: Socket;
  /** Resolves once the connection is established. */
  readonly connected: Promise<void>;
  /** Resolves when the connection closes. */
  readonly outcome: Promise<RawOutcome>;
  /** Whether the connection is still open. */
  isOpen(): boolean;
  /** What the bridge wrote so far. */
  received(): string;
  /** Ends the connection from this side. */
  destroy(): void;
}

export interface RawClientOptions {
  /** Written at once after connecting. */
  initial?: string;
  /** Then written one byte at a time (slowloris). */
  drip?: string;
  /** Pause between dripped bytes; default 40 ms. */
  dripEveryMs?: number;
}

/** Opens a raw TCP connection to the bridge's port (127.0.0.1) that sends what it is told, slowly if asked. */
export function rawClient(port: number, options: RawClientOptions = {}): RawClient {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  let bytesWritten = 0;
  let openedAt = 0;
  let open = true;
  let destroyedHere = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  socket.setNoDelay(true);
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  const write = (bytes: string): void => {
    if (!open || socket.destroyed || !socket.writable) return;
    socket.write(bytes);
    bytesWritten += Buffer.byteLength(bytes, "latin1");
  };
  const connected = new Promise<void>((resolve) =>
    socket.once("connect", () => {
      openedAt = Date.now();
      if (options.initial !== undefined && options.initial !== "") write(options.initial);
      const drip = options.drip ?? "";
      if (drip !== "") {
        let index = 0;
        timer = setInterval(() => {
          if (index >= drip.length || !open) {
            clearInterval(timer);
            return;
          }
          write(drip[index++]!);
        }, options.dripEveryMs ?? 40);
      }
      resolve();
    }),
  );
  const outcome = new Promise<RawOutcome>((resolve) =>
    socket.once("close", () => {
      open = false;
      if (timer !== undefined) clearInterval(timer);
      resolve({
        text,
        closedAfterMs: openedAt === 0 ? 0 : Date.now() - openedAt,
        bytesWritten,
        closedByPeer: !destroyedHere,
      });
    }),
  );
  return {
    socket,
    connected,
    outcome,
    isOpen: () => open,
    received: () => text,
    destroy: () => {
      destroyedHere = true;
      socket.destroy();
    },
  };
}

/** The status code of the first HTTP response in raw bytes, or `undefined` when none arrived. */
export function rawStatus(text: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** Every complete HTTP/1.1 response (status and body, by Content-Length or chunked) in a raw byte stream. */
export function rawResponses(text: string): { status: number; body: string }[] {
  const responses: { status: number; body: string }[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd === -1) return responses;
    const head = rest.slice(0, headEnd);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
    if (status === null) return responses;
    let after = rest.slice(headEnd + 4);
    let body = "";
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (;;) {
        const sizeEnd = after.indexOf("\r\n");
        if (sizeEnd === -1) return responses;
        const size = Number.parseInt(after.slice(0, sizeEnd), 16);
        if (after.length < sizeEnd + 2 + size + 2) return responses;
        body += after.slice(sizeEnd + 2, sizeEnd + 2 + size);
        after = after.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const bodyLength = length === null ? 0 : Number(length[1]);
      if (after.length < bodyLength) return responses;
      body = after.slice(0, bodyLength);
      after = after.slice(bodyLength);
    }
    responses.push({ status: Number(status[1]), body: Buffer.from(body, "latin1").toString("utf8") });
    rest = after;
  }
}

/** A POST to /mcp as raw bytes: request line, headers (Host first) and the given body. */
export function rawPost(port: number, headers: Record<string, string>, body: string): { head: string; body: string } {
  const lines = [
    `POST /mcp HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return { head: `${lines.join("\r\n")}\r\n\r\n`, body };
}

/** Samples `read()` every `everyMs` until stopped; keeps the largest value seen. */
export function sampleMax(read: () => number, everyMs = 1): { max(): number; samples(): number; stop(): number } {
  let max = read();
  let samples = 1;
  const timer = setInterval(() => {
    max = Math.max(max, read());
    samples++;
  }, everyMs);
  return {
    max: () => max,
    samples: () => samples,
    stop: () => {
      clearInterval(timer);
      max = Math.max(max, read());
      return max;
    },
  };
}

/** Latency statistics in ms. */
export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

/** p50, p95 and max of a list of durations. */
export function latencyStats(durations: readonly number[]): LatencyStats {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
  };
}

/** Waits `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
