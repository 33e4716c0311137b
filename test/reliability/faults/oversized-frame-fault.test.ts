/**
 * The mock daemon's `oversizedFrameAfterCalls` fault (added for the fault-injection suites): after
 * answering call N it writes one frame whose body is a byte over the protocol's 32 MiB response
 * limit, in the framing of the connection, and then goes on answering. Checked here on the bytes,
 * with a raw socket client that counts them (no SDK reader involved).
 */
import { createConnection, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { FrameLimits } from "glass-sdk/node";
import { parseFaults } from "glass-sdk/testing";
import { inMemoryTransport, type GoldenFixture } from "glass-sdk/testing";
import type { TransportHandlers } from "../../../src/transport/transport.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { mockDaemonOnSocket, type SocketMock } from "../../support/mock-daemon-transports.js";
import { observePayload, observeResult, waitUntil } from "../support/fault-rig.js";

const LIMIT = FrameLimits.maxResponseBytes; // 32 MiB
const observeCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "observe", arguments: observePayload },
});

/**
 * A raw client that splits what arrives into frames (newline or Content-Length) and keeps each
 * frame's body size, and its text when it is small, without holding 32 MiB twice.
 */
class ByteCountingPeer {
  readonly frames: { framing: "newline" | "content-length"; bytes: number; text: string | undefined }[] = [];
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #contentLength: number | undefined;

  constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => this.#take(chunk));
  }

  send(message: unknown, framing: "newline" | "content-length"): void {
    const body = Buffer.from(JSON.stringify(message));
    this.socket.write(
      framing === "newline"
        ? Buffer.concat([body, Buffer.from("\n")])
        : Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]),
    );
  }

  #take(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    for (;;) {
      if (this.#contentLength !== undefined) {
        if (this.#pendingBytes < this.#contentLength) return;
        this.#emit("content-length", this.#contentLength);
        this.#contentLength = undefined;
        continue;
      }
      const head = this.#peek(Math.min(this.#pendingBytes, 64)).toString("latin1");
      const header = /^Content-Length: (\d+)\r\n\r\n/.exec(head);
      if (header !== null) {
        this.#drop(header[0].length);
        this.#scanned = 0;
        this.#contentLength = Number(header[1]);
        continue;
      }
      const newline = this.#indexOfNewline();
      if (newline === -1) return;
      this.#emit("newline", newline);
      this.#drop(1);
    }
  }

  #emit(framing: "newline" | "content-length", bytes: number): void {
    const text = bytes <= 65_536 ? this.#peek(bytes).toString("utf8") : undefined;
    if (text === undefined) {
      const head = this.#peek(100).toString("utf8");
      this.frames.push({ framing, bytes, text: head });
    } else {
      this.frames.push({ framing, bytes, text });
    }
    this.#drop(bytes);
  }

  /** Pending bytes already searched for a newline in vain (so a 32 MiB line is scanned once). */
  #scanned = 0;

  #indexOfNewline(): number {
    let offset = 0;
    for (const part of this.#pending) {
      if (offset + part.length > this.#scanned) {
        const at = part.indexOf(0x0a, Math.max(0, this.#scanned - offset));
        if (at !== -1) {
          this.#scanned = 0;
          return offset + at;
        }
      }
      offset += part.length;
    }
    this.#scanned = offset;
    return -1;
  }

  #peek(bytes: number): Buffer {
    const parts: Buffer[] = [];
    let need = bytes;
    for (const part of this.#pending) {
      if (need <= 0) break;
      parts.push(part.subarray(0, need));
      need -= part.length;
    }
    return Buffer.concat(parts);
  }

  #drop(bytes: number): void {
    let left = bytes;
    while (left > 0) {
      const first = this.#pending[0]!;
      if (first.length <= left) {
        this.#pending.shift();
        left -= first.length;
      } else {
        this.#pending[0] = first.subarray(left);
        left = 0;
      }
    }
    this.#pendingBytes -= bytes;
  }
}

let mock: SocketMock | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  socket = undefined;
  await mock?.stop();
  mock = undefined;
});

async function connectPeer(): Promise<ByteCountingPeer> {
  mock = await mockDaemonOnSocket({ faults: { oversizedFrameAfterCalls: 1 } });
  const path = mock.path;
  socket = await new Promise<Socket>((resolve, reject) => {
    const connection = createConnection(path);
    connection.once("connect", () => resolve(connection));
    connection.once("error", reject);
  });
  return new ByteCountingPeer(socket);
}

describe("the oversizedFrameAfterCalls fault of the mock daemon", () => {
  it("is a known fault option (--faults / startMockDaemon), a whole number", () => {
    expect(parseFaults({ oversizedFrameAfterCalls: 1 })).toEqual({ oversizedFrameAfterCalls: 1 });
    expect(() => parseFaults({ oversizedFrameAfterCalls: -1 })).toThrow(
      /oversizedFrameAfterCalls must be a whole number/,
    );
  });

  it.each(["newline", "content-length"] as const)(
    "after answering call N, writes one %s frame a byte over 32 MiB (valid JSON for an id nobody used), then answers on",
    async (framing) => {
      const peer = await connectPeer();
      peer.send(
        {
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
        framing,
      );
      peer.send({ jsonrpc: "2.0", method: "notifications/initialized" }, framing);
      peer.send(observeCall(1), framing);
      await waitUntil(() => peer.frames.length >= 3, "the answer to call 1 and the oversized frame", 10_000);
      peer.send(observeCall(2), framing);
      await waitUntil(() => peer.frames.length >= 4, "the answer to call 2", 10_000);

      const [init, first, oversized, second] = peer.frames;
      expect(JSON.parse(init!.text!)).toMatchObject({ id: "init", result: expect.any(Object) });
      expect(JSON.parse(first!.text!)).toMatchObject({ id: 1, result: expect.any(Object) });
      expect(oversized).toMatchObject({ framing, bytes: LIMIT + 1 });
      expect(oversized!.text).toMatch(/^\{"jsonrpc":"2.0","id":"mock-oversized","result":/);
      expect(JSON.parse(second!.text!)).toMatchObject({ id: 2, result: expect.any(Object) });
      expect(peer.frames).toHaveLength(4);
    },
  );

  it("in memory (no bytes): it reaches the client as one BadFrameError and the connection goes on", async () => {
    const errors: string[] = [];
    const transport = inMemoryTransport(readGoldenFixture() as unknown as GoldenFixture, {
      faults: { oversizedFrameAfterCalls: 1 },
    });
    const watched = {
      kind: transport.kind,
      maxInFlight: transport.maxInFlight,
      start: (handlers: TransportHandlers) =>
        transport.start({ ...handlers, onError: (error) => (errors.push(error.message), handlers.onError?.(error)) }),
      send: transport.send.bind(transport),
      close: transport.close.bind(transport),
    };
    const glass = await Glass.connect(watched);
    expect(await glass.browser.observe(observePayload)).toEqual(observeResult);
    expect(await glass.browser.observe(observePayload)).toEqual(observeResult);
    expect(errors).toEqual([expect.stringMatching(/over the 32 MiB response limit \(oversizedFrame fault\)/)]);
    await glass.close();
  });
});
