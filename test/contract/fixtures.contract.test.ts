// The contract suite: every request of a recorded fixture, sent through Glass to a daemon, must get
// the recorded result or error.
//
//   npm run test:contract                                  the mock daemon over stdio
//   GLASS_COMMAND="glass-browser --mcp" npm run test:contract
//                                                          a daemon command over stdio
//   GLASS_SOCKET=~/.local/share/glass/glass.sock npm run test:contract
//                                                          a running daemon over its socket, each call under a lease
//   GLASS_FIXTURE=fixtures/mine.json npm run test:contract another fixture, every request of it
//
// Two fixtures by default:
// - fixtures/protocol-golden-v1.json, the protocol's golden fixture. Its page requests (browser.*)
//   were made on a simulated library site (https://library.example) that only the mock daemon
//   serves, so a real daemon gets its browser-free requests (webIr.*, task.validate, task.compile),
//   whose recorded answers are glass-browser's.
// - fixtures/glass-browser-shop.json, recorded from glass-browser on the example shop: against a real
//   daemon the suite serves the shop (examples/shop/) on 127.0.0.1 and replays the session in order,
//   comparing value for value apart from what differs in every run (test/contract/run-specific-values.ts:
//   the port, Chrome's target ids, document ids in references, result handles, elapsed times).
//   Against the mock it is skipped: the mock's simulated shop steps its revision by one per change
//   where the daemon counts the page's DOM changes (references and revisions then differ);
//   test/daemon/differential.test.ts compares the rest of each answer.
//
// The variables count only under `npm run test:contract` (its config sets GLASS_CONTRACT=1): in
// `npm test` this suite always runs against the mock daemon, so a GLASS_SOCKET set for everyday use
// never sends a fixture's clicks to a real browser.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassRequest, type GlassResponse } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { loadFixture } from "../../src/testing/load-fixture.js";
import type { GlassTransport } from "../../src/transport/transport.js";
import { type ServedShop, serveShop } from "../../examples/support/serve-shop.js";
import { recordedResponses } from "../support/fixture-outcomes.js";
import { GOLDEN_CLI_ARGS } from "../support/golden-fixture.js";
import { SessionReplay } from "./run-specific-values.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const fromEnvironment = process.env.GLASS_CONTRACT === "1";
const variable = (name: string): string | undefined => {
  const value = fromEnvironment ? process.env[name]?.trim() : undefined;
  return value === undefined || value === "" ? undefined : value;
};

/** The daemon under test, and how to reach it. */
interface Target {
  description: string;
  /** The mock daemon (which serves the simulated sites), or a daemon with a real browser. */
  mock: boolean;
  transport(): GlassTransport;
}

/** The daemon to check, chosen as the quickstart chooses: GLASS_SOCKET, then GLASS_COMMAND, else the mock daemon. */
function chooseTarget(): Target {
  const socket = variable("GLASS_SOCKET");
  if (socket !== undefined)
    return {
      description: `the daemon socket ${socket} (GLASS_SOCKET)`,
      mock: false,
      transport: () => socketTransport({ path: socket }),
    };
  const command = variable("GLASS_COMMAND");
  if (command !== undefined) {
    const [executable, ...args] = command.trim().split(/\s+/);
    return {
      description: `\`${command}\` over stdio (GLASS_COMMAND)`,
      mock: false,
      transport: () => stdioTransport({ command: executable!, args }),
    };
  }
  const cli = join(ROOT, "src/cli/main.ts");
  return {
    description: "the mock daemon over stdio",
    mock: true,
    transport: () =>
      stdioTransport({
        command: process.execPath,
        args: ["--import", "tsx", cli, "mock-daemon", ...GOLDEN_CLI_ARGS],
        cwd: ROOT,
      }),
  };
}

/** A fixture the suite replays, and what its requests need. */
interface ContractFixture {
  path: string;
  /** Whether a request can be answered by this target as it was recorded (else it is skipped, saying why). */
  runs(request: GlassRequest): boolean;
  /** Why a request that does not run is skipped. */
  skipped: string;
  /** The example shop must be served, its origin standing for the one recorded. */
  servesShop: boolean;
}

const target = chooseTarget();
const userFixture = variable("GLASS_FIXTURE");
const FIXTURES: readonly ContractFixture[] =
  userFixture !== undefined
    ? [{ path: userFixture, runs: () => true, skipped: "", servesShop: false }]
    : [
        {
          path: join(ROOT, "fixtures/protocol-golden-v1.json"),
          runs: (request) => target.mock || !request.operation.startsWith("browser."),
          skipped: "made on the simulated library site only the mock daemon serves",
          servesShop: false,
        },
        {
          path: join(ROOT, "fixtures/glass-browser-shop.json"),
          runs: () => !target.mock,
          skipped:
            "recorded from glass-browser, whose revisions count DOM changes where the mock's step by one (test/daemon/differential.test.ts compares the rest)",
          servesShop: true,
        },
      ];

/** What a call gave, in the recorded response's terms: its result, or the recorded error's fields of the GlassError it threw. */
async function call(glass: Glass, request: GlassRequest, recorded: GlassResponse): Promise<unknown> {
  try {
    const options = {
      validate: false,
      ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }),
    };
    return { ok: true, result: await glass.requestUntyped(request.operation, request.payload as never, options) };
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    const json = error.toJSON();
    const fields = recorded.ok ? Object.keys(json) : Object.keys(recorded.error);
    return { ok: false, operation: error.operation, error: Object.fromEntries(fields.map((key) => [key, json[key]])) };
  }
}

/** A recorded response in the form {@link call} gives. */
function recordedOutcome(request: GlassRequest, response: GlassResponse): unknown {
  return response.ok
    ? { ok: true, result: response.result }
    : { ok: false, operation: request.operation, error: response.error };
}

/** The first `http://127.0.0.1:<port>` a fixture's requests name: the origin of the site it was recorded on. */
function recordedOrigin(requests: readonly GlassRequest[]): string | undefined {
  return JSON.stringify(requests.map((request) => request.payload)).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
}

for (const contract of FIXTURES) {
  const fixture = await loadFixture(contract.path);
  const responses = recordedResponses(fixture);
  const answered = fixture.requests.filter((request) => responses.has(request.requestId));
  const running = answered.filter((request) => contract.runs(request));

  describe(`${contract.path.replace(`${ROOT}/`, "")} against ${target.description}`, () => {
    let glass: Glass;
    let leases = false;
    let shop: ServedShop | undefined;
    const replay = new SessionReplay();
    beforeAll(async () => {
      if (running.length === 0) return;
      if (contract.servesShop) {
        shop = await serveShop(0);
        const origin = recordedOrigin(fixture.requests);
        if (origin !== undefined) replay.bind(origin, shop.origin);
      }
      glass = await Glass.connect(target.transport());
      leases = glass.supports("localDaemon");
    });
    afterAll(async () => {
      await glass?.close();
      await shop?.close();
    });

    it("the fixture has requests with recorded answers", () => {
      expect(answered.length).toBeGreaterThan(0);
    });

    // In recorded order: a session's later requests use what its earlier answers gave.
    for (const request of answered) {
      const name = `${request.requestId} (${request.operation}): the daemon's result or error equals the recording`;
      if (!contract.runs(request)) {
        it.skip(`${name} — skipped: ${contract.skipped}`, () => {});
        continue;
      }
      it(name, async () => {
        const recorded = responses.get(request.requestId)!;
        const sent = { ...request, payload: replay.payload(request.payload) } as GlassRequest;
        const outcome = leases
          ? await glass.withLease(() => call(glass, sent, recorded), { ttlMs: 30_000 })
          : await call(glass, sent, recorded);
        expect(replay.actual(outcome)).toEqual(replay.expected(recordedOutcome(request, recorded)));
      });
    }
  });
}
