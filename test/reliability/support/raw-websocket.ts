/**
 * A WebSocket client written against the raw TCP socket, for attacks a library client will not
 * make: it can stop reading altogether (its kernel buffer fills and the bridge's writes pile up)
 * and write thousands of frames in one go. It speaks just enough RFC 6455: the upgrade, masked text
 * frames out, unmasked frames in (text and close).
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/** A raw WebSocket connection to the bridge. */
export interface RawWebSocket {
  readonly socket: Socket;
  /** Text messages received so far, parsed as JSON. */
  readonly messages: Record<string, unknown>[];
  /** The close frame the bridge sent, once one arrived. */
  closeFrame(): { code: number; reason: string } | undefined;
  /** Whether the TCP connection has closed. */
  isClosed(): boolean;
  /** Bytes received so far (frames and all). */
  bytesReceived(): number;
  /** Writes one text frame per message, all in one write. */
  sendTexts(texts: readonly string[]): void;
  /** Sends a request and resolves with the answer carrying its id (reading must be on). */
  request(id: string | number, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Stops reading from the socket: nothing more is taken from the kernel. */
  stopReading(): void;
  /** Ends the connection at once. */
  destroy(): void;
}

/** Opens a WebSocket to `ws://127.0.0.1:<port>/mcp` with the `mcp` subprotocol and the token as `glass-bearer.<token>`. */
export async function openRawWebSocket(port: number, token: string): Promise<RawWebSocket> {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    [
      "GET /mcp HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
      "Sec-WebSocket-Version: 13",
      `Sec-WebSocket-Protocol: mcp, glass-bearer.${token}`,
      "",
      "",
    ].join("\r\n"),
  );
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffer: Buffer = Buffer.alloc(0);
  let upgraded = false;
  let received = 0;
  let closed = false;
  let close: { code: number; reason: string } | undefined;
  let fragments: Buffer[] = [];
  const upgrade = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString("latin1");
        if (!head.startsWith("HTTP/1.1 101")) {
          reject(new Error(`upgrade refused: ${head.split("\r\n")[0]}`));
          return;
        }
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve();
      }
      parseFrames();
    };
    socket.on("data", onData);
    socket.once("close", () => {
      closed = true;
      reject(new Error("closed before the upgrade"));
      for (const wake of [...waiters]) wake();
    });
  });

  function parseFrames(): void {
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      const fin = (buffer[0]! & 0x80) !== 0;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      const payload = buffer.subarray(offset, offset + length);
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x8) {
        close = {
          code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
          reason: payload.subarray(2).toString("utf8"),
        };
      } else if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(Buffer.from(payload));
        if (fin) {
          messages.push(JSON.parse(Buffer.concat(fragments).toString("utf8")) as Record<string, unknown>);
          fragments = [];
        }
      }
      for (const wake of [...waiters]) wake();
    }
  }

  await upgrade;
  const sendTexts = (texts: readonly string[]): void => {
    socket.write(Buffer.concat(texts.map(maskedTextFrame)));
  };
  return {
    socket,
    messages,
    closeFrame: () => close,
    isClosed: () => closed,
    bytesReceived: () => received,
    sendTexts,
    request(id, method, params) {
      sendTexts([
        JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }),
      ]);
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.find((message) => message.id === id && !("method" in message));
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (closed) {
            waiters.delete(check);
            reject(new Error(`closed before the answer to ${String(id)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    stopReading: () => socket.pause(),
    destroy: () => socket.destroy(),
  };
}

/** One client text frame: FIN, opcode 1, masked (with a zero key, which masks nothing but is valid). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x81;
  if (length < 126) head[1] = 0x80 | length;
  else if (length < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}
