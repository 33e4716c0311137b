import type { IncomingMessage } from "node:http";

/** The outcome of reading a request body: its bytes, or why reading stopped. */
export type BodyOutcome = { kind: "body"; bytes: Buffer } | { kind: "tooLarge" } | { kind: "aborted" };

/**
 * Reads a request body of at most `maxBytes`. A declared `Content-Length` over the limit is refused
 * without reading a byte; otherwise reading stops as soon as the limit is passed (the stream is
 * paused and left unread, for the caller to close the connection).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ kind: "tooLarge" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: BodyOutcome): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("aborted", onAborted);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        req.pause();
        finish({ kind: "tooLarge" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ kind: "body", bytes: Buffer.concat(chunks, received) });
    const onAborted = (): void => finish({ kind: "aborted" });
    const onClose = (): void => {
      if (!req.complete) finish({ kind: "aborted" });
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("aborted", onAborted);
    req.on("close", onClose);
  });
}
