/**
 * glass-sdk quickstart: sign in to a shop and read its orders, one typed call at a time.
 *
 *   npm start                                                  the mock daemon of this repository, over stdio
 *   GLASS_SOCKET=~/.local/share/glass/glass.sock npm start     a daemon's Unix socket (with mutation leases)
 *   GLASS_COMMAND="glass --mcp" npm start                      any daemon command, over stdio
 *
 * By default the mock daemon serves a simulated shop (`https://shop.example`): a sign-in page with
 * Email, Password and a "Sign in" button, then a table of orders. A daemon named by GLASS_SOCKET or
 * GLASS_COMMAND may be a real one, whose browser is on no page of ours: for it the quickstart
 * serves the same shop as HTML (examples/shop/) on 127.0.0.1 (port GLASS_SHOP_PORT, default any
 * free port) and first navigates there.
 *
 * Every call below is written out as you would write it in your own script: copy any of them. The
 * script imports the package by name, as your code does (in this repository the name resolves to
 * src/ through tsconfig.json's `paths`).
 */
import { Glass, GlassError, type ResultOf, type TaskDocument, webIrDocument } from "glass-sdk";
import { chooseTransport } from "./support/connect.js";
import { list, say, step } from "./support/print.js";
import { type ServedShop, serveShop, shopPort } from "./support/serve-shop.js";

async function main(): Promise<void> {
  step(1, "Connect");
  const { transport, description, named } = chooseTransport();
  const port = named ? shopPort(process.env.GLASS_SHOP_PORT) : undefined;
  const glass = await Glass.connect(transport, {
    clientInfo: { name: "glass-sdk-quickstart", version: "0.1.0" },
    negotiation: { schemas: { webIr: [1], task: [1] }, optional: ["localDaemon"] },
  });
  say(`transport: ${description}`);
  say(`answered by ${glass.serverInfo?.name ?? "an unnamed server"} ${glass.serverInfo?.version ?? ""}`.trimEnd());
  let shop: ServedShop | undefined;
  try {
    if (port !== undefined) {
      shop = await serveShop(port);
      say(`serving the shop of examples/shop/ at ${shop.origin}, for the daemon's browser to open`);
    }
    await signInAndReadOrders(glass, shop?.loginUrl);
  } finally {
    await glass.close();
    await shop?.close();
  }
  step(9, "Close");
  say("glass.close() released what the client held and ended the connection");
}

/** The story; `start`, when given, is the sign-in page to navigate to first. */
async function signInAndReadOrders(glass: Glass, start: string | undefined): Promise<void> {
  // A daemon socket shares one browser between clients, so a mutation needs the mutation lease;
  // a daemon on stdio owns its one session and has no leases.
  const leases = glass.supports("localDaemon");
  const mutate = <T>(action: () => Promise<T>): Promise<T> =>
    leases ? glass.withLease(action, { ttlMs: 30_000 }) : action();
  say(
    leases
      ? "the daemon offers leases (localDaemon): each change below runs inside glass.withLease"
      : "no leases: a stdio daemon owns its one session (leases are a socket feature)",
  );

  step(2, "Observe the sign-in page");
  if (start !== undefined) {
    // Navigating is a change too: on a socket it runs inside the lease.
    const opened = await mutate(() => glass.browser.navigate({ url: start }));
    say(`navigate ${start}: "${opened.title}"`);
  }
  const login = await glass.browser.observe({ level: "interactive" });
  say(`${login.page.url} — "${login.page.title}" (${login.page.kind}), revision ${login.revision}`);
  const targets = login.regions.flatMap((region) => region.targets ?? []);
  say(`targets: ${list(targets.map((target) => `${target.name} (${target.role})`))}`);

  step(3, "Find the Email field");
  const found = await glass.browser.findTarget({
    schemaVersion: 1,
    intent: "Email",
    action: "type",
    resolutionPolicy: "reportOnly",
    expectedRevision: login.revision,
  });
  // Candidates come in page order, each with a confidence: take the most confident one.
  const email = mostConfident(found.candidates);
  if (email === undefined) throw new Error("the page has no Email field");
  say(`findTarget "Email" → ${email.name}, reference ${email.reference} (confidence ${email.confidence})`);

  step(4, "Type into it, naming the revision you observed");
  const typed = await mutate(() =>
    glass.browser.type({ target: email.reference, text: "ada@example.com", expectedRevision: login.revision }),
  );
  say(`typed ada@example.com at revision ${login.revision}: execution ${typed.executionId}`);
  say("a mutation changes the page, so the page has moved on to a new revision");

  step(5, "Type again with the old revision: staleRevision");
  try {
    await mutate(() =>
      glass.browser.type({ target: email.reference, text: "ada@example.com", expectedRevision: login.revision }),
    );
    say("typed again (this daemon does not check revisions)");
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    say(`✗ ${error.code} — ${error.rawMessage}`);
    say(
      `mutationPossible ${error.mutationPossible} · retry advice ${error.retry.classification}: re-observe, then act again`,
    );
  }
  const page = await glass.browser.observe({ level: "interactive" });
  say(`re-observed: revision ${page.revision}; the next action names expectedRevision ${page.revision}`);

  step(6, "Fill in the form and sign in");
  // A reference names an element at one revision, and every keystroke moves the page on: type into
  // each field by a locator that outlives a revision (a CSS id here; `name=Email` works too on a
  // daemon). (glass-browser 0.3.14's fillForm fills only its first field, so type each one.)
  for (const [field, text] of [
    ["css=#email", "ada@example.com"],
    ["css=#password", "correct horse"],
  ] as const) {
    const typedIn = await mutate(() => glass.browser.type({ target: field, text }));
    say(`typed into ${field}: execution ${typedIn.executionId}`);
  }
  const form = await glass.browser.observe({ level: "interactive" });
  say(`the form is now at revision ${form.revision}`);
  await mutate(() => glass.browser.click({ target: referenceOf(form, "Sign in"), expectedRevision: form.revision }));
  const orders = await glass.browser.observe({ level: "interactive" });
  say(`clicked Sign in: now ${orders.page.url} — "${orders.page.title}" (revision ${orders.revision})`);

  step(7, "Read the orders page's text");
  const { text } = await glass.browser.getText();
  // One line per order; a browser's text may separate a table's cells with tabs.
  const rows = text
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => /^\d{4} /.test(line));
  say(`getText: ${text.length} characters; the orders:`, ...rows.map((row) => `   ${row}`));

  step(8, "Web IR and a task");
  const task: TaskDocument = {
    schemaVersion: 1,
    task: "table.extract",
    scope: { regionName: "Recent orders" },
    limits: { maxActions: 4, timeoutMs: 10_000, maxItems: 20 },
    risk: "readOnly",
  };
  const valid = await glass.task.validate({ task });
  say(`task.validate: ${valid.task} is valid (task schema v${valid.schemaVersion})`);
  // extractWebIr is newer than some daemons: the client read the daemon's tool list at connect, so
  // ask it whether this one has the tool. webIrDocument() takes the answer's projection off, so the
  // IR can go on to webIr.* and task.*.
  if (glass.supports("browser.extractWebIr")) {
    const ir = webIrDocument(await glass.browser.extractWebIr());
    say(
      `extractWebIr: revision ${ir.revision}, ${ir.entities.length} entities, ${ir.relationships.length} relationships`,
    );
    const checked = await glass.webIr.validate({ ir });
    say(`webIr.validate: valid ${checked.valid}`);
    const { plan } = await glass.task.compile({ task, ir });
    // The plan binds the task to the IR's revision and to the entities it selected (their ids in that IR).
    say(`task.compile: bound to revision ${plan.sourceIrRevision}, steps ${list(plan.steps.map((s) => s.operation))}`);
    say(`   entities ${list(plan.selectedEntityIds)}; confirmation required: ${plan.confirmationRequired}`);
  } else {
    say(
      `this daemon (${glass.serverInfo?.version ?? "unknown version"}) has no extractWebIr: the task runs on the live page instead`,
    );
  }
  // A read-only task runs on the live page at the revision you observed (no lease needed).
  const run = await glass.task.execute({ task, expectedRevision: orders.revision });
  say(`task.execute: ${run.task} ${run.status}, steps ${list(run.steps.map((s) => `${s.operation} ${s.status}`))}`);
}

/** The candidate the daemon is most confident about (the first of those, in page order). */
function mostConfident<Candidate extends { confidence: string }>(
  candidates: readonly Candidate[],
): Candidate | undefined {
  const rank = (candidate: Candidate): number =>
    ["insufficient", "low", "medium", "high", "exact"].indexOf(candidate.confidence);
  return candidates.reduce<Candidate | undefined>(
    (best, candidate) => (best === undefined || rank(candidate) > rank(best) ? candidate : best),
    undefined,
  );
}

/** The reference of the target named `name` in an interactive observation, to act on it. */
function referenceOf(observation: ResultOf<"browser.observe">, name: string): string {
  const regions = observation.level !== undefined ? observation.regions : [];
  const target = regions.flatMap((region) => region.targets ?? []).find((candidate) => candidate.name === name);
  if (target === undefined) throw new Error(`the page has no target named ${name}`);
  return target.reference;
}

main().then(
  () => console.log("\nDone."),
  (error: unknown) => {
    // A GlassError's message names the operation, the code and how to fix it (e.g. a missing daemon).
    console.error(`\n✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
