import { afterEach, describe, expect, it } from "vitest";
import { type ServedShop, serveShop, shopPort } from "../../examples/support/serve-shop.js";

let shop: ServedShop | undefined;

afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

/** The page at `path` of the shop: its status, content type and HTML. */
async function get(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string | null; html: string; location: string | null }> {
  const response = await fetch(`${shop!.origin}${path}`, { redirect: "manual", ...init });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    html: await response.text(),
    location: response.headers.get("location"),
  };
}

/** The input a `<label for>` with this text names, as written in the HTML. */
function labelledInput(html: string, label: string): string | undefined {
  const id = new RegExp(`<label for="([\\w-]+)">${label}</label>`).exec(html)?.[1];
  return id === undefined ? undefined : new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0];
}

describe("examples/support/serve-shop.ts: the shop a daemon's browser opens", () => {
  it("serves the sign-in page at /login on 127.0.0.1: its title, the labelled Email and Password fields, the Sign in button and an alert", async () => {
    shop = await serveShop();
    expect(shop.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shop.loginUrl).toBe(`${shop.origin}/login`);
    const { status, type, html } = await get("/login");
    expect(status).toBe(200);
    expect(type).toBe("text/html; charset=utf-8");
    expect(html).toContain("<title>Sign in · Simulated Shop</title>");
    expect(labelledInput(html, "Email")).toContain('type="email"');
    expect(labelledInput(html, "Password")).toContain('type="password"');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).toMatch(/role="alert"/);
    expect(html).toContain("Enter your email and password to sign in.");
    expect(html).toContain('location.assign("/orders")');
  });

  it("serves the orders page at /orders: its title, the navigation and the three orders of the simulated shop", async () => {
    shop = await serveShop();
    const { status, html } = await get("/orders");
    expect(status).toBe(200);
    expect(html).toContain("<title>Orders · Simulated Shop</title>");
    expect(html).toMatch(/<nav aria-label="Site navigation">[\s\S]*>Orders<\/a>[\s\S]*>Sign out<\/a>[\s\S]*<\/nav>/);
    expect(html).toMatch(/<h1 id="([\w-]+)">Recent orders<\/h1>\s*<table aria-labelledby="\1">/);
    const rows = [...html.matchAll(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g)].map(
      (row) => row.slice(1).join(" "),
    );
    expect(rows).toEqual([
      "1001 Ada Lovelace €42.00 Shipped",
      "1002 Alan Turing €17.50 Processing",
      "1003 Grace Hopper €128.90 Delivered",
    ]);
  });

  it("serves the account page at /account: its buttons ask with the page's own confirm and prompt, and the status line shows the answer", async () => {
    shop = await serveShop();
    const { status, html } = await get("/account");
    expect(status).toBe(200);
    expect(html).toContain("<title>Account · Simulated Shop</title>");
    expect(html).toContain('<button type="button" id="close-account">Close account</button>');
    expect(html).toContain('<button type="button" id="change-name">Change display name</button>');
    expect(html).toContain('confirm("Close your account? Your order history will be deleted.")');
    expect(html).toContain('prompt("New display name", shown.textContent)');
    expect(html).toContain('<p id="outcome" role="status" aria-label="Account status">Account open</p>');
  });

  it("sends / to the sign-in page, answers 404 for any other path and 405 for anything but GET and HEAD", async () => {
    shop = await serveShop();
    expect(await get("/")).toMatchObject({ status: 302, location: "/login" });
    expect(await get("/admin")).toMatchObject({ status: 404, html: "No page at /admin\n" });
    expect((await get("/login", { method: "POST", body: "email=x" })).status).toBe(405);
    expect(await get("/login", { method: "HEAD" })).toMatchObject({ status: 200, html: "" });
  });

  it("listens on the port it is given, and says which address it cannot listen on", async () => {
    shop = await serveShop();
    const port = Number(new URL(shop.origin).port);
    await expect(serveShop(port)).rejects.toThrow(`cannot serve the shop on 127.0.0.1:${port}: listen EADDRINUSE`);
    await shop.close();
    shop = await serveShop(port);
    expect(shop.origin).toBe(`http://127.0.0.1:${port}`);
  });

  it("reads GLASS_SHOP_PORT: unset or empty is any free port, a number that port, anything else an error naming it", () => {
    expect(shopPort(undefined)).toBe(0);
    expect(shopPort(" ")).toBe(0);
    expect(shopPort("8080")).toBe(8080);
    expect(() => shopPort("65536")).toThrow(
      'GLASS_SHOP_PORT must be a port number from 0 to 65535 (0: any free port), not "65536"',
    );
    expect(() => shopPort("-1", "PORT")).toThrow(
      'PORT must be a port number from 0 to 65535 (0: any free port), not "-1"',
    );
    expect(() => shopPort("80.5")).toThrow(/^GLASS_SHOP_PORT must be/);
  });
});
