// The contract suite: every request of a golden fixture, sent through Glass to a daemon, must get
// the recorded result or error.
//
//   npm run test:contract                                  the mock daemon over stdio
//   GLASS_COMMAND="glass --mcp" npm run test:contract      a daemon command over stdio
//   GLASS_SOCKET=~/.local/share/glass/glass.sock npm run test:contract
//                                                          a running daemon over its socket, each call under a lease
//   GLASS_FIXTURE=fixtures/mine.json npm run test:contract another fixture (default: fixtures/protocol-golden-v1.json)
//
// The variables count only under `npm run test:contract` (its config sets GLASS_CONTRACT=1): in
// `npm test` this suite always runs against the mock daemon, so a GLASS_SOCKET set for everyday use
// never sends the fixture's clicks to a real browser.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassRequest } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { loadFixture } from "../../src/testing/load-fixture.js";
import type { GlassTransport } from "../../src/transport/transport.js";
import { expectMatchesFixture, recordedResponses, type CallOutcome } from "../support/fixture-outcomes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const fromEnvironment = process.env.GLASS_CONTRACT === "1";
const variable = (name: string): string | undefined => {
  const value = fromEnvironment ? process.env[name]?.trim() : undefined;
  return value === undefined || value === "" ? undefined : value;
};

/** The daemon under test, and how to reach it. */
interface Target {
  description: string;
  transport(): GlassTransport;
}

/** The daemon to check, chosen as the quickstart chooses: GLASS_SOCKET, then GLASS_COMMAND, else the mock daemon. */
function chooseTarget(): Target {
  const socket = variable("GLASS_SOCKET");
  if (socket !== undefined) return { description: `the daemon socket ${socket} (GLASS_SOCKET)`, transport: () => socketTransport({ path: socket }) };
  const command = variable("GLASS_COMMAND");
  if (command !== undefined) {
    const [executable, ...args] = command.trim().split(/\s+/);
    return { description: `\`${command}\` over stdio (GLASS_COMMAND)`, transport: () => stdioTransport({ command: executable!, args }) };
  }
  const cli = join(ROOT, "src/cli/main.ts");
  return {
    description: "the mock daemon over stdio",
    transport: () => stdioTransport({ command: process.execPath, args: ["--import", "tsx", cli, "mock-daemon"], cwd: ROOT }),
  };
}

const target = chooseTarget();
const fixturePath = variable("GLASS_FIXTURE") ?? join(ROOT, "fixtures/protocol-golden-v1.json");
const fixture = await loadFixture(fixturePath);
const responses = recordedResponses(fixture);
const answered = fixture.requests.filter((request) => responses.has(request.requestId));

/** Runs one fixture request through `glass.request` (typed or not), without the client's own payload check: the daemon's answer is what is compared. */
async function call(glass: Glass, request: GlassRequest): Promise<CallOutcome> {
  try {
    const options = { validate: false, ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }) };
    return { ok: true, result: await glass.request(request.operation, request.payload as never, options) };
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    return { ok: false, error };
  }
}

describe(`golden fixture contract: ${target.description}`, () => {
  let glass: Glass;
  let leases = false;
  beforeAll(async () => {
    glass = await Glass.connect(target.transport());
    leases = glass.supports("localDaemon");
  });
  afterAll(async () => {
    await glass?.close();
  });

  it("the fixture has requests with recorded answers", () => {
    expect(answered.length).toBeGreaterThan(0);
  });

  it.each(answered.map((request) => [request.requestId, request] as const))("%s: the daemon's result or error equals the fixture", async (_id, request) => {
    const outcome = leases ? await glass.withLease(() => call(glass, request), { ttlMs: 30_000 }) : await call(glass, request);
    expectMatchesFixture(outcome, request, responses);
  });
});
