/**
 * The bridge in front of the real daemon. A client over HTTP and one over WebSocket, each through a
 * bridge that starts a daemon process per session (`glass-browser --mcp`), run the shop session:
 * every answer equals what fixtures/glass-browser-shop.json recorded from the daemon directly,
 * value for value apart from what differs in every run (test/contract/run-specific-values.ts) —
 * the bridge relays the daemon's answers unchanged. In front of the socket daemon, a client takes
 * the mutation lease through the bridge and changes the page under it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Glass, type GlassResponse, httpTransport, webSocketTransport } from "glass-sdk";
import { loadFixture } from "glass-sdk/testing";
import { type Bridge, startBridge } from "../../src/node/bridge/start-bridge.js";
import { SessionReplay } from "../contract/run-specific-values.js";
import { recordJourney, shopSession } from "./support/journeys.js";
import {
  DAEMON_EXECUTABLE,
  daemonState,
  freePort,
  globalFlags,
  requireInstalledDaemon,
  socketDaemonPerSuite,
} from "./support/real-daemon.js";
import { serveLab } from "./support/lab-server.js";

requireInstalledDaemon();

const recorded = await loadFixture(new URL("../../fixtures/glass-browser-shop.json", import.meta.url));

let bridge: Bridge | undefined;
let removeState: (() => void) | undefined;
afterEach(async () => {
  await bridge?.close();
  removeState?.();
  bridge = undefined;
  removeState = undefined;
});

/** A bridge whose every session starts its own real daemon over stdio. */
async function bridgeToDaemonCommand(): Promise<Bridge> {
  const state = daemonState();
  removeState = state.remove;
  bridge = await startBridge({
    port: 0,
    upstream: { command: DAEMON_EXECUTABLE, args: [...globalFlags(await freePort()), "--mcp"], env: state.env },
    log: () => {},
  });
  return bridge;
}

/** An outcome as the replay compares it. */
const outcome = (response: GlassResponse | undefined): unknown =>
  response === undefined
    ? "no answer"
    : response.ok
      ? { ok: true, result: response.result }
      : { ok: false, error: response.error };

/** Each answer of a recording equals the committed one, run-specific values compared by place. */
function expectRecordedAnswers(today: Awaited<ReturnType<typeof recordJourney>>): void {
  expect(today.requests.map((request) => request.operation)).toEqual(
    recorded.requests.map((request) => request.operation),
  );
  const replay = new SessionReplay();
  const answers = (fixture: typeof recorded) =>
    new Map(fixture.responses.map((response) => [response.requestId, response]));
  const [before, now] = [answers(recorded), answers(today)];
  recorded.requests.forEach((request, index) => {
    const live = today.requests[index]!;
    // Payloads name this run's origin and references: compared by place too.
    expect(replay.actual({ payload: live.payload }), `${index + 1} ${request.operation}: payload`).toEqual(
      replay.expected({ payload: request.payload }),
    );
    expect(replay.actual(outcome(now.get(live.requestId))), `${index + 1} ${request.operation}`).toEqual(
      replay.expected(outcome(before.get(request.requestId))),
    );
  });
}

describe("the bridge in front of the real daemon", () => {
  it("relays the shop session over HTTP exactly as the daemon answers it", async () => {
    const started = await bridgeToDaemonCommand();
    expectRecordedAnswers(
      await recordJourney(shopSession, async () => ({
        transport: httpTransport({ url: started.url, token: started.token }),
        close: () => {},
      })),
    );
  }, 120_000);

  it("relays the shop session over WebSocket exactly as the daemon answers it", async () => {
    const started = await bridgeToDaemonCommand();
    expectRecordedAnswers(
      await recordJourney(shopSession, async () => ({
        transport: webSocketTransport({ url: started.wsUrl, token: started.token }),
        close: () => {},
      })),
    );
  }, 120_000);

  describe("in front of the socket daemon", () => {
    const daemon = socketDaemonPerSuite();

    it("takes the mutation lease through the bridge, and a change without it is refused", async () => {
      bridge = await startBridge({ port: 0, upstream: { socket: daemon().path }, log: () => {} });
      const lab = await serveLab();
      const glass = await Glass.connect(httpTransport({ url: bridge.url, token: bridge.token }));
      try {
        expect(glass.supports("localDaemon")).toBe(true);
        const refused = await glass.browser.navigate({ url: lab.url("/login") }).catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: "leaseRequired", mutationPossible: false });
        const page = await glass.withLease(() => glass.browser.navigate({ url: lab.url("/login") }), { ttlMs: 30_000 });
        expect(page).toMatchObject({ title: "Sign in · Simulated Shop" });
        expect((await glass.browser.observe({ level: "summary" })).page.url).toBe(lab.url("/login"));
      } finally {
        await glass.close();
        await lab.close();
      }
    }, 120_000);
  });
});
