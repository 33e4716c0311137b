/**
 * The pages the real daemon's browser opens, served on 127.0.0.1: the example shop (examples/shop/,
 * as the quickstart serves it) and pages made for the daemon suite.
 *
 * | path | what |
 * |---|---|
 * | `/login`, `/orders`, `/account` | the example shop (the account page asks with `confirm` and `prompt`) |
 * | `/lab` | one page with a control for each kind of action (test/daemon/pages/lab.html) |
 * | `/frame` | the lab's inner frame |
 * | `/consent` | a page behind a OneTrust-style cookie banner (test/daemon/pages/consent.html) |
 * | `/large?n=N` | a page of N list items (a large DOM) |
 * | `/slow?ms=N` | a page whose answer takes N ms (for a call cancelled or timed out in the middle) |
 * | `/download/report.txt` | a small text file sent as an attachment |
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";

const page = (relative: string): string => readFileSync(new URL(relative, import.meta.url), "utf8");

const PAGES: Readonly<Record<string, string>> = {
  "/login": page("../../../examples/shop/login.html"),
  "/orders": page("../../../examples/shop/orders.html"),
  "/account": page("../../../examples/shop/account.html"),
  "/lab": page("../pages/lab.html"),
  "/frame": page("../pages/frame.html"),
  "/consent": page("../pages/consent.html"),
};

/** The largest `n` of `/large`. */
const LARGEST_LIST = 50_000;

/** The served pages. */
export interface LabServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The absolute URL of `path`. */
  url(path: string): string;
  close(): Promise<void>;
}

function largePage(count: number): string {
  const items = Array.from({ length: count }, (_, index) => `<li><a href="#item-${index}">Item ${index}</a></li>`).join(
    "",
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Large list</title></head><body><h1>${count} items</h1><ul>${items}</ul></body></html>`;
}

/** Serves the pages on a free port of 127.0.0.1. */
export async function serveLab(): Promise<LabServer> {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://lab");
    const html = (body: string): void =>
      void response
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(body);
    if (url.pathname === "/") return void response.writeHead(302, { location: "/login" }).end();
    if (url.pathname === "/large")
      return html(largePage(Math.min(LARGEST_LIST, Number(url.searchParams.get("n") ?? 1000) || 1000)));
    if (url.pathname === "/slow") {
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          html("<!doctype html><title>Slow</title><p>Finally</p>");
        },
        Number(url.searchParams.get("ms") ?? 5000),
      );
      timers.add(timer);
      return;
    }
    if (url.pathname === "/download/report.txt") {
      return void response
        .writeHead(200, { "content-type": "text/plain", "content-disposition": 'attachment; filename="report.txt"' })
        .end("report\n");
    }
    const body = PAGES[url.pathname];
    if (body === undefined)
      return void response.writeHead(404, { "content-type": "text/plain" }).end(`No page at ${url.pathname}\n`);
    html(body);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    url: (path) => new URL(path, origin).href,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
