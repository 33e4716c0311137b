import { Glass, type TaskDocument, type WebIrDocument, webIrDocument } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import type { JsonRpcResponse } from "glass-sdk/protocol";
import { createMockGlass, goldenFixture } from "glass-sdk/testing";

/**
 * What a documentation example may leave undeclared: a name it declares without a value
 * (`declare const glass: Glass; // connected as above`) gets one from here before the example
 * runs, as a global of the example's process (a `declare` compiles to nothing, so the name is
 * looked up there). Every value is made against the example's own mock daemon or a fresh
 * in-process mock, never by changing the example.
 */
export interface Prelude {
  /** What the example gets, as the test's documentation says it. */
  what: string;
  /** Makes the value; `leases` tells `glass` that the example takes a lease. */
  make(context: { leases: boolean }): Promise<unknown>;
}

/** The Web IR of the simulated shop's sign-in page, before and after typing into Email, from an in-process mock of its own. */
async function signInPageIrs(): Promise<{ before: WebIrDocument; after: WebIrDocument }> {
  const glass = await Glass.connect(createMockGlass().transport());
  const before = webIrDocument(await glass.browser.extractWebIr());
  await glass.browser.type({ target: "Email", text: "ada@example.com" });
  const after = webIrDocument(await glass.browser.extractWebIr());
  await glass.close();
  return { before, after };
}

let irs: Promise<{ before: WebIrDocument; after: WebIrDocument }> | undefined;

/** The answer a daemon gives to `browser.observe({ level: "summary" })`, as the golden fixture recorded it. */
async function observeSummaryResult(): Promise<unknown> {
  const fixture = await goldenFixture();
  const request = fixture.requests.find(
    (r) => r.operation === "browser.observe" && JSON.stringify(r.payload) === '{"level":"summary"}',
  );
  const response = fixture.responses.find((r) => r.requestId === request?.requestId);
  if (response === undefined || !response.ok)
    throw new Error('the golden fixture has no answer to observe({ level: "summary" })');
  return response;
}

/** The preludes, by the name an example declares. */
export const PRELUDES: Readonly<Record<string, Prelude>> = {
  glass: {
    what:
      "a Glass connected to the example's mock daemon, at the simulated shop's sign-in page: over stdio (`glass --mcp`), or over the daemon's socket " +
      "(`socketTransport()`, leases) when the example takes a lease",
    make: ({ leases }) =>
      Glass.connect(leases ? socketTransport() : stdioTransport({ command: "glass", args: ["--mcp"] })),
  },
  before: {
    what: "the Web IR of the simulated shop's sign-in page",
    make: async () => (await (irs ??= signInPageIrs())).before,
  },
  after: {
    what: "the same page's Web IR after typing into Email",
    make: async () => (await (irs ??= signInPageIrs())).after,
  },
  task: {
    what: "a form.fill task for the sign-in form (it compiles against the sign-in page's Web IR)",
    make: async (): Promise<TaskDocument> => ({
      schemaVersion: 1,
      task: "form.fill",
      scope: { regionName: "Sign in" },
      inputs: { Email: "ada@example.com" },
      limits: { maxActions: 4, timeoutMs: 10_000, maxItems: 8 },
      risk: "localMutation",
    }),
  },
  token: {
    what: "the token of the bridge the harness runs (GLASS_BRIDGE_TOKEN)",
    make: async () => process.env.GLASS_BRIDGE_TOKEN,
  },
  line: {
    what: 'a response envelope as JSON text: the golden fixture\'s answer to observe({ level: "summary" })',
    make: async () => JSON.stringify(await observeSummaryResult()),
  },
  answer: {
    what: "a JSON-RPC answer to a tools/call of observe: the golden fixture's summary of its page, as a text item",
    make: async (): Promise<JsonRpcResponse> => {
      const { result } = (await observeSummaryResult()) as { result: unknown };
      return { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: JSON.stringify(result) }] } };
    },
  },
  json: {
    what: "the package's golden fixture, as parsed JSON",
    make: async () => JSON.parse(JSON.stringify(await goldenFixture())) as unknown,
  },
  chunks: {
    what: "a text/event-stream body in three chunks, cut mid-line: two message events",
    make: async () => {
      const text =
        'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n';
      const bytes = new TextEncoder().encode(text);
      return (async function* () {
        for (const [from, to] of [
          [0, 20],
          [20, 61],
          [61, bytes.length],
        ] as const)
          yield bytes.slice(from, to);
      })();
    },
  },
  handle: {
    what: "a function that prints the message it is given",
    make: async () => (message: unknown) => console.log(message),
  },
};

/**
 * Defines the named preludes as globals (in the example's process). `glass:leases` is `glass`
 * taking leases.
 */
export async function definePreludes(names: readonly string[]): Promise<void> {
  for (const entry of names) {
    const [name, variant] = entry.split(":") as [string, string | undefined];
    const prelude = PRELUDES[name];
    if (prelude === undefined) throw new Error(`no prelude for ${name}`);
    (globalThis as Record<string, unknown>)[name] = await prelude.make({ leases: variant === "leases" });
  }
}
