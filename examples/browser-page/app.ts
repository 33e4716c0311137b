/**
 * A web page driving a Glass daemon through the bridge: it connects with the transports of
 * `glass-sdk`, observes the page the daemon's browser shows, finds the Email field, types into it
 * naming the revision it observed, and reads the page's text, printing each step into the page.
 *
 * Where the bridge is and its token come from the URL fragment, which the browser never sends to
 * any server: `#bridge=http://127.0.0.1:8787/mcp&token=…` (add `&transport=http` to use HTTP instead
 * of WebSocket). `serve.ts` beside this file prints such a URL. The page imports `glass-sdk` by name
 * and is bundled for the browser, so the bundler takes the package's browser build.
 */
import { Glass, type GlassTransport, httpTransport, webSocketTransport } from "glass-sdk";

/** A connection the page can open, and a line saying what it is. */
interface BridgeConnection {
  transport: GlassTransport;
  description: string;
}

const story = document.getElementById("story") as HTMLOListElement;
const status = document.getElementById("status") as HTMLParagraphElement;

/** Prints one step of the story as a list item. */
function print(line: string): void {
  const item = document.createElement("li");
  item.textContent = line;
  story.append(item);
}

/** Ends the story: `done` or `failed` on the status line, where a test (or you) can see it. */
function finish(outcome: "done" | "failed", text: string): void {
  status.textContent = text;
  status.dataset.outcome = outcome;
}

/** The transport the fragment asks for: the bridge's URL, its token, and WebSocket unless `transport=http`. */
function connectionFromFragment(fragment: string): BridgeConnection {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const bridge = params.get("bridge");
  const token = params.get("token");
  if (bridge === null || token === null) {
    throw new Error(
      "this page needs #bridge=<the bridge's URL>&token=<its token> in its address: open the URL serve.ts printed",
    );
  }
  if (params.get("transport") === "http") {
    return { transport: httpTransport({ url: bridge, token }), description: `HTTP to ${bridge}` };
  }
  const url = bridge.replace(/^http/, "ws");
  return { transport: webSocketTransport({ url, token }), description: `WebSocket to ${url}` };
}

async function runStory(): Promise<void> {
  const { transport, description } = connectionFromFragment(location.hash);
  const glass = await Glass.connect(transport, { clientInfo: { name: "glass-sdk-browser-page", version: "0.1.0" } });
  print(`connected over ${description}, answered by ${glass.serverInfo?.name ?? "an unnamed server"}`);
  try {
    const observed = await glass.browser.observe({ level: "interactive" });
    print(`observed ${observed.page.url} — "${observed.page.title}" at revision ${observed.revision}`);

    const found = await glass.browser.findTarget({
      schemaVersion: 1,
      intent: "Email",
      action: "type",
      resolutionPolicy: "reportOnly",
      expectedRevision: observed.revision,
    });
    // Candidates come in page order, the page itself often first: take the one named Email.
    const email = found.candidates.find((candidate) => candidate.name === "Email");
    if (email === undefined) throw new Error(`the page at ${observed.page.url} has no Email field`);
    print(`found the Email field: ${email.name}, reference ${email.reference} (confidence ${email.confidence})`);

    // Over a daemon socket the browser is shared between clients, so a change needs the mutation
    // lease; a daemon process of its own (a command upstream) has no leases and needs none.
    const leases = glass.supports("localDaemon");
    const type = () =>
      glass.browser.type({ target: email.reference, text: "ada@example.com", expectedRevision: observed.revision });
    const typed = leases ? await glass.withLease(type, { ttlMs: 10_000 }) : await type();
    print(
      `typed ada@example.com into ${email.name} at revision ${observed.revision}${leases ? " under the mutation lease" : ""}: execution ${typed.executionId}`,
    );

    const { text } = await glass.browser.getText();
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    print(`read the page's text: ${lines.join(" · ")}`);
  } finally {
    await glass.close();
  }
}

runStory().then(
  () => finish("done", "done: every step ran"),
  (error: unknown) => {
    // A GlassError's message names the operation, its code and what to do (e.g. a bridge that refused the token).
    const why = error instanceof Error ? error.message : String(error);
    print(`✗ ${why}`);
    finish("failed", `failed: ${why}`);
  },
);
