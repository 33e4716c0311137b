import type { IncomingMessage, ServerResponse } from "node:http";
import { refusalBody, type Refusal } from "./refusal.js";

/** Headers on every bridge response: nothing is cached, nothing is sniffed. */
const BASE_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

/** How a reply ends the connection. */
export interface ReplyOptions {
  /** Extra headers. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Close the connection after the reply without reading the rest of the request body (used for
   * refusals that come before the body was read, and for bodies over the limit).
   */
  closeConnection?: boolean;
}

/** Writes a response (a JSON body, or none) with the base headers and any set before (CORS). */
export function reply(req: IncomingMessage, res: ServerResponse, status: number, body: string | undefined, options: ReplyOptions = {}): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...BASE_HEADERS, ...options.headers };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.closeConnection === true) {
    headers.Connection = "close";
    // Stop reading: once the reply is out, drop the connection rather than drain the body.
    res.once("finish", () => req.socket.destroy());
  }
  res.writeHead(status, headers);
  res.end(body);
}

/** Answers with a refusal's status and JSON-RPC error body. */
export function replyRefusal(req: IncomingMessage, res: ServerResponse, refused: Refusal, closeConnection: boolean): void {
  reply(req, res, refused.status, refusalBody(refused), { headers: refused.headers ?? {}, closeConnection });
}
