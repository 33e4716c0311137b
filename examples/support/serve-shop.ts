/**
 * Serves the shop of examples/shop/ on 127.0.0.1, for a daemon's browser to open: its sign-in page
 * at `/login`, its orders at `/orders` and the account page at `/account` (whose buttons ask with
 * the page's own `confirm` and `prompt` dialogs), as the mock daemon's simulated shop has them.
 *
 *   npx tsx examples/support/serve-shop.ts [PORT]     serve it until Ctrl-C (default: any free port)
 *
 * The quickstart serves it itself when it talks to a daemon named by GLASS_SOCKET or GLASS_COMMAND.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";

/** The shop's pages by path. `/` goes to the sign-in page. */
const PAGES: Readonly<Record<string, URL>> = {
  "/login": new URL("../shop/login.html", import.meta.url),
  "/orders": new URL("../shop/orders.html", import.meta.url),
  "/account": new URL("../shop/account.html", import.meta.url),
};

/**
 * The pages' one script is inline and their styles too; nothing else is loaded, and the form goes
 * nowhere but the shop.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The shop, being served. */
export interface ServedShop {
  /** Where it is served: `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Its sign-in page: `<origin>/login`. */
  readonly loginUrl: string;
  /** Stops serving it. */
  close(): Promise<void>;
}

/**
 * The port `text` names, from GLASS_SHOP_PORT (`name`) or the command line: 0, any free port, when
 * it is absent or empty.
 * @throws Error saying what `name` must be, for anything but a port number.
 */
export function shopPort(text: string | undefined, name = "GLASS_SHOP_PORT"): number {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") return 0;
  const port = Number(trimmed);
  if (!/^[0-9]+$/.test(trimmed) || port > 65_535)
    throw new Error(`${name} must be a port number from 0 to 65535 (0: any free port), not ${JSON.stringify(trimmed)}`);
  return port;
}

/**
 * Serves the shop on 127.0.0.1 at `port` (0: any free port).
 * @throws Error naming the address when it cannot listen there (a port in use, …).
 */
export async function serveShop(port = 0): Promise<ServedShop> {
  const pages = Object.fromEntries(Object.entries(PAGES).map(([path, file]) => [path, readFileSync(file, "utf8")]));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://shop").pathname;
    if (request.method !== "GET" && request.method !== "HEAD")
      return void response.writeHead(405, { allow: "GET, HEAD" }).end();
    if (path === "/") return void response.writeHead(302, { location: "/login" }).end();
    const page = pages[path];
    if (page === undefined)
      return void response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`No page at ${path}\n`);
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": CONTENT_SECURITY_POLICY,
    });
    response.end(request.method === "HEAD" ? undefined : page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot serve the shop on 127.0.0.1:${port}: ${error.message}`, { cause: error })),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { origin, loginUrl: `${origin}/login`, close: () => stop(server) };
}

function stop(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return stopped;
}

async function main(): Promise<void> {
  const shop = await serveShop(shopPort(process.argv[2], "PORT"));
  console.log(`The shop is served at ${shop.loginUrl} (Ctrl-C stops it)`);
  const close = (): void => {
    shop.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
