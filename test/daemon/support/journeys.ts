/**
 * Journeys on the example shop, recorded against a daemon and outlined call by call, for comparing
 * the mock with the real daemon (test/daemon/differential.test.ts). The shop session is the one
 * recorded from the real daemon into fixtures/glass-browser-shop.json, the password redacted
 * (`npx tsx scripts/record-daemon-fixture.ts` records it again); the contract suite (test/contract/fixtures.contract.test.ts, run against the real daemon by
 * test/daemon/contract.test.ts) replays it and checks that today's daemon answers it value for value.
 */
import { Glass, GlassError, type GlassResponse, type GlassTransport } from "glass-sdk";
import { type GoldenFixture, recordingTransport } from "glass-sdk/testing";
import { serveLab } from "./lab-server.js";
import { stdioDaemon } from "./real-daemon.js";

/** The password the session types, which the fixture must never hold. */
export const SHOP_PASSWORD = "correct horse";

/** The daemon a session is recorded against: a transport to it, given the shop's origin, and how to end it. */
export type SessionDaemon = (origin: string) => Promise<{ transport: GlassTransport; close(): void }>;

/** A fresh real daemon over stdio. */
export const realDaemon: SessionDaemon = async () => {
  const daemon = await stdioDaemon();
  return { transport: daemon.transport, close: () => daemon.state.remove() };
};

/** A journey: calls made on the example shop, served at `origin`, whatever each answers. */
export type Journey = (glass: Glass, origin: string) => Promise<void>;

/**
 * Records a journey against a daemon (default: a fresh real daemon over stdio), the shop served on
 * 127.0.0.1, through a recorder that redacts {@link SHOP_PASSWORD}.
 */
export async function recordJourney(journey: Journey, start: SessionDaemon = realDaemon): Promise<GoldenFixture> {
  const lab = await serveLab();
  const daemon = await start(lab.origin);
  const recorder = recordingTransport(daemon.transport, { redact: [SHOP_PASSWORD] });
  const glass = await Glass.connect(recorder);
  try {
    await journey(glass, lab.origin);
    return recorder.fixture();
  } finally {
    await glass.close();
    daemon.close();
    await lab.close();
  }
}

/** Runs a call, keeping a GlassError as its answer (the recording holds it) rather than ending the journey. */
async function attempt<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GlassError) return undefined;
    throw error;
  }
}

/**
 * The shop session: the sign-in, each call with a payload of its own (a replay answers a payload
 * with the first recording of it). Each step runs whatever the one before gave (a daemon may refuse
 * a step: the recording holds its answer, and the comparison of two recordings shows it); the stale
 * call is meant to be refused.
 */
export const shopSession: Journey = async (glass, origin) => {
  await attempt(() => glass.browser.navigate({ url: `${origin}/login` }));
  const login = await attempt(() => glass.browser.observe({ level: "interactive" }));
  const revision = login?.revision ?? 0;
  const found = await attempt(() =>
    glass.browser.findTarget({
      schemaVersion: 1,
      intent: "Email",
      action: "type",
      resolutionPolicy: "reportOnly",
      expectedRevision: revision,
    }),
  );
  const email = found?.candidates.find((candidate) => candidate.name === "Email")?.reference ?? "css=#email";
  await attempt(() => glass.browser.type({ target: email, text: "ada@example.com", expectedRevision: revision }));
  // Another call at the same revision: the page has moved on, so the daemon refuses it (staleRevision).
  await attempt(() => glass.browser.type({ target: email, text: "ada@example.org", expectedRevision: revision }));
  await attempt(() => glass.browser.type({ target: "css=#password", text: SHOP_PASSWORD }));
  await attempt(() => glass.browser.observe({ level: "summary" }));
  await attempt(() => glass.browser.click({ target: "css=button[type=submit]" }));
  await attempt(() => glass.browser.wait({ condition: "text=Recent orders", timeoutMs: 10_000 }));
  const orders = await attempt(() => glass.browser.observe({ level: "structured" }));
  await attempt(() => glass.browser.getText());
  await attempt(() => glass.browser.inspectPage());
  await attempt(() =>
    glass.task.execute({
      task: {
        schemaVersion: 1,
        task: "table.extract",
        scope: { regionName: "Recent orders" },
        limits: { maxActions: 4, timeoutMs: 10_000, maxItems: 20 },
        risk: "readOnly",
      },
      expectedRevision: orders?.revision ?? 0,
    }),
  );
};

/** Records the shop session (fixtures/glass-browser-shop.json is one recording of it). */
export function recordShopSession(start: SessionDaemon = realDaemon): Promise<GoldenFixture> {
  return recordJourney(shopSession, start);
}

/**
 * What one answer says, without the values that differ between any two runs (ids, ports, revisions,
 * times): an error's code and retry advice, and the key paths of a result or an error's details at
 * every depth (an array's items merged: `regions[].targets[].reference`).
 */
function outline(response: GlassResponse | undefined): string {
  if (response === undefined) return "no answer";
  if (!response.ok)
    return `error ${response.error.code} (${response.error.retry?.classification ?? "no retry advice"}) ${keyPaths(response.error.details)}`;
  return keyPaths(response.result);
}

/** `{a, b, b.c, d[].e}`: every key path of a value, sorted; a value that is not an object is its type. */
function keyPaths(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return value === undefined ? "{}" : Array.isArray(value) ? "array" : typeof value;
  const paths = new Set<string>();
  const walk = (node: unknown, prefix: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, `${prefix}[]`);
    } else if (node !== null && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        const path = prefix === "" ? key : `${prefix}.${key}`;
        paths.add(path);
        walk(child, path);
      }
    }
  };
  walk(value, "");
  return `{${[...paths].sort().join(", ")}}`;
}

/** Each call of a recording, as `<n> <operation>: <outline>`: the outcome and the answer's key paths. */
export function journeySteps(fixture: GoldenFixture): string[] {
  const answers = new Map(fixture.responses.map((response) => [response.requestId, response]));
  return fixture.requests.map(
    (request, index) => `${index + 1} ${request.operation}: ${outline(answers.get(request.requestId))}`,
  );
}
