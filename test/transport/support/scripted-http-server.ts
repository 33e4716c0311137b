import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 that a test scripts by subclassing: {@link handle} gets each
 * request with its whole body, and what it records in `seen` can be counted and listed by `what`.
 * `close()` ends every response still open (held answers, SSE streams) and every connection.
 */
export abstract class ScriptedHttpServer<S extends { what: string }> {
  /** The requests recorded by the subclass, in order. */
  readonly seen: S[] = [];
  /** The MCP endpoint, once {@link listen} resolved. */
  url = "";
  readonly #http: Server;
  readonly #open = new Set<ServerResponse>();

  constructor() {
    this.#http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.#open.add(res);
        res.on("close", () => this.#open.delete(res));
        this.handle(req, res, Buffer.concat(chunks));
      });
    });
  }

  /** Answers one request (or holds it, or drops its connection). */
  protected abstract handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void;

  /** How many requests of `what` arrived so far (the one being handled included). */
  count(what: string): number {
    return this.seen.filter((seen) => seen.what === what).length;
  }

  /** The requests of `what`, in order. */
  of(what: string): S[] {
    return this.seen.filter((seen) => seen.what === what);
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}/mcp`;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.#open) res.destroy();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }
}

/** An SSE event as a server writes it: `id` and `retry` lines when given, then `data` (JSON, or empty). */
export function sseEvent(fields: { id?: string; retry?: number; data?: unknown }): string {
  const id = fields.id === undefined ? "" : `id: ${fields.id}\n`;
  const retry = fields.retry === undefined ? "" : `retry: ${fields.retry}\n`;
  return `${id}${retry}data: ${fields.data === undefined ? "" : JSON.stringify(fields.data)}\n\n`;
}
