/**
 * Record a session against a daemon, save it as a fixture, then replay it in memory: the same
 * calls get the same answers, in the order they were recorded, without a daemon; and a call the
 * recording does not have is a miss that says how it differs from the nearest recorded one.
 *
 *   npx tsx examples/record-and-replay.ts [FIXTURE.json]                 the mock daemon, over stdio
 *   GLASS_SOCKET=~/.local/share/glass/glass.sock npx tsx examples/record-and-replay.ts
 *   GLASS_COMMAND="glass-browser --mcp" npx tsx examples/record-and-replay.ts
 *
 * The fixture is written to FIXTURE.json, or to a new temporary directory (the path is printed).
 * The session signs in to the shop: the mock daemon's simulated one, or, for a daemon named by
 * GLASS_SOCKET or GLASS_COMMAND, the shop of examples/shop/ served on 127.0.0.1 (see
 * examples/quickstart.ts).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Glass, GlassError, type ResultOf } from "glass-sdk";
import { createMockGlass, loadFixture, recordingTransport, saveFixture } from "glass-sdk/testing";
import { chooseTransport } from "./support/connect.js";
import { list, say, step } from "./support/print.js";
import { type ServedShop, serveShop, shopPort } from "./support/serve-shop.js";

const EMAIL = "ada@example.com";
const PASSWORD = "correct horse";

async function main(): Promise<void> {
  const path = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), "glass-recording-")), "sign-in.json");

  step(1, "Connect through a recorder");
  const { transport, description, named } = chooseTransport();
  // Everything passes through unchanged; each tool call and its answer is recorded. Lease tokens
  // are never recorded, and neither is the password: it becomes "[redacted]" in the fixture.
  const recorder = recordingTransport(transport, { redact: [PASSWORD] });
  const live = await Glass.connect(recorder, { clientInfo: { name: "glass-sdk-record-and-replay", version: "0.1.0" } });
  say(`transport: ${description}`);
  say(`answered by ${live.serverInfo?.name ?? "an unnamed server"}`);
  let shop: ServedShop | undefined;
  try {
    if (named) {
      shop = await serveShop(shopPort(process.env.GLASS_SHOP_PORT));
      say(`serving the shop of examples/shop/ at ${shop.origin}, for the daemon's browser to open`);
    }
    await recordAndReplay(live, recorder, path, shop?.loginUrl);
  } finally {
    await shop?.close();
  }
}

async function recordAndReplay(
  live: Glass,
  recorder: ReturnType<typeof recordingTransport>,
  path: string,
  start: string | undefined,
): Promise<void> {
  step(2, "Record a session: sign in");
  let recorded: SignInStory;
  try {
    recorded = await signInStory(live, start);
  } finally {
    await live.close();
  }
  tell(recorded);

  step(3, "Save the fixture");
  const fixture = recorder.fixture();
  await saveFixture(path, fixture);
  say(
    `saveFixture: ${fixture.requests.length} calls (${list(fixture.requests.map((request) => request.operation.replace("browser.", "")))})`,
  );
  say(`written to ${path}`);

  step(4, "Replay it in memory, with no daemon");
  const loaded = await loadFixture(path);
  // A payload sent again gets the next recording of it, so the three observes replay as recorded;
  // the password was recorded as "[redacted]", which stands for whatever the replay sends there.
  const mock = createMockGlass({ fixture: loaded });
  say(`loadFixture: ${loaded.requests.length} calls, replayed as they were recorded`);
  const replay = await Glass.connect(mock.transport());
  try {
    const replayed = await signInStory(replay, start);
    tell(replayed);
    const same = replayed.clicked === recorded.clicked && replayed.text === recorded.text;
    say(
      same
        ? "the same answers as the live session: the click's execution and the orders page's text"
        : "✗ the answers differ from the live session",
    );

    step(5, "A call the recording does not have");
    try {
      // A click on the Email field, where the recording clicked Sign in.
      await replay.browser.click({ target: recorded.emailReference, expectedRevision: recorded.loginRevision });
      say("answered (unexpected: nothing like it was recorded)");
    } catch (error) {
      if (!(error instanceof GlassError)) throw error;
      say(`✗ ${error.code} (phase ${error.phase}, mutationPossible ${error.mutationPossible})`);
      say(...differences(error).map((difference) => `  ${difference}`));
    }
  } finally {
    await replay.close();
  }
}

/** What one run of the session saw. */
interface SignInStory {
  login: string;
  loginRevision: number;
  emailReference: string;
  filled: string;
  found: string;
  clicked: string;
  text: string;
}

/** The session: the same code runs live (recorded) and against the replay; `start` is the page to open first. */
async function signInStory(glass: Glass, start: string | undefined): Promise<SignInStory> {
  // A daemon socket shares one browser between clients: a mutation needs the mutation lease.
  const mutate = <T>(action: () => Promise<T>): Promise<T> =>
    glass.supports("localDaemon") ? glass.withLease(action, { ttlMs: 30_000 }) : action();

  if (start !== undefined) await mutate(() => glass.browser.navigate({ url: start }));
  // One field per fillForm, observing before each: a reference names the observation it came from,
  // and each action moves the page on (a real daemon refuses an older reference).
  const login = await glass.browser.observe({ level: "interactive" });
  const email = referenceOf(login, "Email");
  await mutate(() =>
    glass.browser.fillForm({ fields: [{ target: email, value: EMAIL }], expectedRevision: login.revision }),
  );
  const typed = await glass.browser.observe({ level: "interactive" });
  await mutate(() =>
    glass.browser.fillForm({
      fields: [{ target: referenceOf(typed, "Password"), value: PASSWORD }],
      expectedRevision: typed.revision,
    }),
  );
  const filled = await glass.browser.observe({ level: "interactive" });
  const found = await glass.browser.findTarget({
    schemaVersion: 1,
    intent: "Sign in",
    action: "click",
    resolutionPolicy: "reportOnly",
    expectedRevision: filled.revision,
  });
  const button = found.candidates.find((candidate) => candidate.role === "button");
  if (button === undefined) throw new Error("the page has no Sign in button");
  const clicked = await mutate(() =>
    glass.browser.click({ target: button.reference, expectedRevision: filled.revision }),
  );
  const { text } = await glass.browser.getText();
  return {
    login: `${new URL(login.page.url).pathname}, revision ${login.revision}`,
    loginRevision: login.revision,
    emailReference: email,
    filled: `revision ${filled.revision}`,
    found: button.reference,
    clicked: clicked.executionId ?? "no execution id",
    text,
  };
}

function tell(story: SignInStory): void {
  const orders = story.text.split("\n").filter((line) => /^\d{4}\s/.test(line));
  say(
    `observe: ${story.login}`,
    `fillForm Email, observe, fillForm Password, observe: ${story.filled}`,
    `findTarget "Sign in" → ${story.found}; click: execution ${story.clicked}`,
    `getText: ${orders.length} orders (${list(orders.map((row) => row.split(/\s/)[0] ?? row))})`,
  );
}

/** The reference of the element named `name` in an interactive observation. */
function referenceOf(observation: ResultOf<"browser.observe">, name: string): string {
  const regions = observation.level !== undefined ? observation.regions : [];
  const target = regions.flatMap((region) => region.targets ?? []).find((candidate) => candidate.name === name);
  if (target === undefined) throw new Error(`the page has no element named ${name}`);
  return target.reference;
}

/** How a miss differs from the nearest recording, one line per difference (from `error.details`). */
function differences(error: GlassError): string[] {
  const details = error.details as { differences?: { path: string; sent?: unknown; recorded?: unknown }[] } | undefined;
  const found = details?.differences ?? [];
  if (found.length === 0) return [error.message];
  return [
    "it differs from the nearest recording at",
    ...found.map(
      ({ path, sent, recorded }) =>
        `  ${path}: sent ${JSON.stringify(sent) ?? "nothing"}, recorded ${JSON.stringify(recorded) ?? "nothing"}`,
    ),
  ];
}

main().then(
  () => console.log("\nDone."),
  (error: unknown) => {
    console.error(`\n✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
