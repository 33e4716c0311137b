/**
 * glass-sdk quickstart: one typed automation run against a Glass daemon, step by step.
 *
 *   npm start                                                  the mock daemon of this repository, over stdio
 *   GLASS_SOCKET=~/.local/share/glass/glass.sock npm start     a daemon's Unix socket (with mutation leases)
 *   GLASS_COMMAND="glass --mcp" npm start                      any daemon command, over stdio
 *
 * Every call sends a payload recorded in fixtures/protocol-golden-v1.json, so the mock daemon
 * (`npx glass-sdk mock-daemon`, which replays that fixture) answers each one. It imports the
 * package by name, as your code does (in this repository the name resolves to src/ through
 * tsconfig.json's `paths`).
 */
import { isDeepStrictEqual } from "node:util";
import { Glass, GlassError, type ResultOf } from "glass-sdk";
import { chooseTransport } from "./support/connect.js";
import { list, say, step } from "./support/print.js";
import { loadRecordedCalls } from "./support/recorded-calls.js";

const recorded = loadRecordedCalls();
/** The capabilities this script uses when the daemon offers them (ask only for what you use). */
const WANTED = ["webIr", "taskProtocol", "workflowRuntime", "localDaemon"];

async function main(): Promise<void> {
  step(1, "Connect");
  const { transport, description } = chooseTransport();
  say(`transport: ${description}`);
  let requestsSent = 0; // counted from the client's log events (which never carry payloads or tokens)
  const glass = await Glass.connect(transport, {
    clientInfo: { name: "glass-sdk-quickstart", version: "0.1.0" },
    negotiation: { schemas: { webIr: [1], task: [1] }, optional: WANTED },
    logger: (event) => {
      if (event.type === "request") requestsSent++;
    },
  });
  try {
    await describeSession(glass);
    await automate(glass, () => requestsSent);
  } finally {
    await glass.close();
  }
  step(8, "Close");
  say("glass.close() released what the client held and ended the connection");
}

/** Who answered, and what the handshake agreed on. */
async function describeSession(glass: Glass): Promise<void> {
  const manifest = glass.manifest;
  const agreement = glass.agreement;
  say(`answered by ${glass.serverInfo?.name ?? "an unnamed server"} ${glass.serverInfo?.version ?? ""}`.trimEnd());
  if (manifest !== undefined) {
    say(`Glass ${manifest.glassVersion} on ${manifest.constraints.platform}, ${manifest.constraints.browserFamily}, policy ${manifest.constraints.policy}`);
  }
  const schemas = Object.entries(agreement?.agreedSchemas ?? {}).map(([name, version]) => `${name} v${version}`);
  say(`agreed schemas: ${list(schemas)}`);
  say(`capabilities: ${WANTED.map((name) => `${name} ${agreement?.capabilities[name]?.status ?? "not offered"}`).join(", ")}`);
  say(`ping ${await glass.ping()} ms · tools/list: ${(await glass.listTools()).length} tools`);
}

/** Steps 2–7: the calls, each with a payload the golden fixture recorded. */
async function automate(glass: Glass, requestsSent: () => number): Promise<void> {
  step(2, "Observe the page");
  const observePayload = recorded.payload("browser.observe", "observe-loans");
  const page = await glass.browser.observe(observePayload);
  say(`browser.observe ${JSON.stringify(observePayload)} → revision ${revisionOf(page)}: "${page.page.title}"`);
  if (page.level !== undefined) {
    // With `level`, observe answers a semantic observation: the page's kind and its regions.
    say(`   a ${page.page.kind} page; regions ${list(page.regions.map((region) => `${region.label} (${region.kind})`))}`);
  }

  step(3, "Click, and what to do when the page has moved on");
  // A daemon socket shares one browser between clients: mutations need the mutation lease.
  const leases = glass.supports("localDaemon");
  const mutate = <T>(action: () => Promise<T>): Promise<T> =>
    leases
      ? glass.withLease(async (lease) => {
          say(`under a mutation lease: ${lease}`); // toString() leaves the token out
          return action();
        }, { ttlMs: 30_000 })
      : action();
  say(leases
    ? "the daemon offers leases (localDaemon): withLease acquires, renews and releases one"
    : "plain click, no lease: a stdio daemon owns its one session (leases are a socket feature)");
  const click = recorded.payload("browser.click", "click-renew");
  say(`browser.click ${click.target}, expecting revision ${click.expectedRevision}`);
  try {
    const clicked = await mutate(() => glass.browser.click(click, { deadlineMs: 8_000 }));
    say(`clicked: execution ${clicked.executionId}`);
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    say(`✗ ${error.code} — ${error.rawMessage}`);
    say(`mutationPossible ${error.mutationPossible} (${error.mutationPossible ? "the click may have happened" : "nothing was clicked"}) · advice ${error.retry.classification}`);
    say("never replay a mutation blindly: re-observe, then decide");
    const now = revisionOf(await glass.browser.observe(observePayload));
    say(`re-observed: the page is at revision ${now}; a new click would carry expectedRevision ${now}`);
  }

  step(4, "Run a workflow");
  const workflow = recorded.payload("browser.workflow", "workflow-renew-all");
  const run = await mutate(() => glass.browser.workflow(workflow, { deadlineMs: 120_000 }));
  say(`browser.workflow ${JSON.stringify(workflow.workflow)} → execution ${run.executionId}, ${String(run.status)}`);

  step(5, "Web IR: inspect, validate, diff, continuity");
  const inspected = await glass.webIr.inspect(recorded.payload("webIr.inspect", "inspect-ir-loans"));
  say(`inspect: revision ${inspected.revision}, ${inspected.entityCount} entities, ${inspected.relationshipCount} relationships`);
  const validated = await glass.webIr.validate(recorded.payload("webIr.validate", "validate-ir-search"));
  say(`validate: valid ${validated.valid} (revision ${validated.revision})`);
  const diff = await glass.webIr.diff(recorded.payload("webIr.diff", "diff-ir-loans"));
  say(`diff ${diff.fromRevision} → ${diff.toRevision}: entities ${diff.entityAddedCount} added, ${diff.entityRemovedCount} removed, ${diff.entityChangedCount} changed`);
  say(`   relationships ${diff.relationshipAddedCount} added, ${diff.relationshipRemovedCount} removed`);
  const continuity = await glass.webIr.continuity(recorded.payload("webIr.continuity", "continuity-ir-card"));
  say(`continuity of ${continuity.requestedId}: ${continuity.status}, now ${continuity.currentId ?? "(none)"}`);
  say(`   ${continuity.reason}`);

  step(6, "Task: validate and compile");
  const valid = await glass.task.validate(recorded.payload("task.validate", "validate-task-renew"));
  say(`validate: ${valid.task} is valid (task schema v${valid.schemaVersion})`);
  const { plan } = await glass.task.compile(recorded.payload("task.compile", "compile-task-loans"));
  // The plan is an open object (compiler output): read the fields you rely on.
  const view = plan as { task?: string; boundTo?: { revision?: number }; bindings?: { entityId: string }[]; steps?: unknown[] };
  say(`compile ${view.task}: plan bound to revision ${view.boundTo?.revision}, ${view.steps?.length ?? 0} steps`);
  say(`   entities ${list((view.bindings ?? []).map((binding) => binding.entityId))}`);

  step(7, "An error with details");
  const broken = recorded.payload("webIr.validate", "validate-ir-two-pages");
  say("webIr.validate with a document that has two page entities");
  const sentBefore = requestsSent();
  const local = await failureOf(glass.webIr.validate(broken));
  const sent = requestsSent() - sentBefore;
  say(`✗ ${local.code} — ${local.rawMessage} (phase ${local.phase}; requests sent: ${sent})`);
  say(`details.path ${detail(local, "path")}`, `details.reason ${detail(local, "reason")}`);
  const remote = await failureOf(glass.webIr.validate(broken, { validate: false }));
  say(`with { validate: false } it is sent, and the daemon answers ${remote.code} at ${detail(remote, "path")}`);
  const same = isDeepStrictEqual(local.toJSON(), remote.toJSON());
  say(`the SDK's preflight error and the daemon's are equal: ${same ? "yes" : "NO"}`);
  if (!same) throw new Error(`preflight ${JSON.stringify(local.toJSON())} differs from the daemon's ${JSON.stringify(remote.toJSON())}`);
}

/**
 * The page revision an observation reports, which later actions must name: a semantic observation
 * (observe with `level`) has it at the top, a page context (observe without `level`) in its
 * accessibility snapshot.
 */
function revisionOf(observation: ResultOf<"browser.observe">): number {
  return observation.level !== undefined ? observation.revision : observation.accessibility.revision;
}

/** The GlassError a call rejects with; anything else is unexpected. */
async function failureOf(call: Promise<unknown>): Promise<GlassError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GlassError) return error;
    throw error;
  }
  throw new Error("the call was expected to fail, and it succeeded");
}

/** A field of a validation error's `details` (`{kind, path, reason}`). */
function detail(error: GlassError, field: "path" | "reason"): string {
  const details = error.details as Record<string, unknown> | undefined;
  return String(details?.[field] ?? "(none)");
}

main().then(
  () => console.log("\nDone."),
  (error: unknown) => {
    // A GlassError's message names the operation, the code and how to fix it (e.g. a missing daemon).
    console.error(`\n✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
