import type { GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import type { OperationName } from "../../generated/operation-map.js";
import type { RecordedCall } from "../mock-daemon/daemon-record.js";
import type { GoldenFixture } from "../mock-daemon/golden-fixture.js";
import { checkHandlers } from "../mock-daemon/handler-call.js";
import type { MockHandlers } from "../mock-daemon/handlers.js";
import type { ReplayEngine } from "../mock-daemon/replay-engine.js";
import { InMemoryDaemon, type InMemoryTransport } from "./in-memory-transport.js";
import { createReplayDaemonContext, type ReplayDaemonOptions } from "./replay-daemon.js";

/** Options of {@link createMockGlass}: the handlers, and how the mock daemon behaves (all optional). */
export interface MockGlassOptions extends ReplayDaemonOptions {
  /**
   * What answers the operations without a handler: a golden fixture, or a replay engine over one
   * (exact matches of operation and payload). Without it, the simulated site answers them (see
   * `site`); with it, they are answered from the fixture alone unless `site` is true, and a call
   * nothing answers fails as `mock.unmatched`.
   */
  fixture?: GoldenFixture | ReplayEngine;
}

/** A mock Glass daemon in the same process, driven by typed handlers; see {@link createMockGlass}. */
export interface MockGlass {
  /**
   * A new connection to the mock, for `Glass.connect`. Every transport is its own MCP session of
   * the same daemon (with `mode: "socket"`, its own client: the mutation lease is shared).
   */
  transport(): InMemoryTransport;
  /**
   * Every `tools/call` the mock received, in order: the operation, the payload, the request id,
   * and how it ended (`outcome`, once it has: the result, or the error the client was sent).
   */
  readonly calls: readonly RecordedCall[];
  /**
   * The calls of one operation, in order, typed by it: `mock.callsTo("browser.click")[0]?.payload`
   * is a `BrowserClickPayload` (or `undefined` for a call whose arguments were unusable).
   */
  callsTo<Op extends OperationName>(operation: Op): RecordedCall<Op>[];
  /** The capability manifest sent with every initialize. */
  readonly manifest: GlassCapabilityManifest;
  /**
   * Handlers that take over their operations until {@link MockGlass.reset} (for one test of a
   * suite that shares the mock). Throws a TypeError for an unknown operation or a non-function.
   */
  use(handlers: MockHandlers): void;
  /** Drops the handlers given to {@link MockGlass.use} and forgets the calls recorded so far. */
  reset(): void;
  /** Resolves once `condition` holds: checked now and whenever a call is recorded, starts or ends, or a client comes or goes. */
  waitFor(condition: (mock: MockGlass) => boolean): Promise<void>;
}

/**
 * A mock Glass daemon in the test's own process (platform-free), driven by typed handlers: each
 * takes its operation's payload and returns its result, which is checked against the result schema
 * (`mock.invalidResult`); {@link mockError} fails a call as the daemon would. Operations without a
 * handler are answered by the simulated site, or by `fixture`. See docs/testing.md, "Typed handlers".
 *
 * @throws TypeError for a handler of an unknown operation or one that is not a function.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { createMockGlass, mockError } from "glass-sdk/testing";
 *
 * const mock = createMockGlass({
 *   handlers: {
 *     "browser.getText": () => ({ text: "Welcome back" }),
 *     "browser.click": (payload) => {
 *       if (payload.expectedRevision !== 3) throw mockError("staleRevision", "the page is at revision 3");
 *       return { executionId: "exec-1" };
 *     },
 *   },
 * });
 * const glass = await Glass.connect(mock.transport());
 * const { text } = await glass.browser.getText({});
 * console.log(text, mock.calls.length);
 * ```
 */
export function createMockGlass(options: MockGlassOptions = {}): MockGlass {
  const base = options.handlers === undefined ? undefined : checkHandlers(options.handlers);
  const daemon = new InMemoryDaemon(createReplayDaemonContext(options.fixture, { ...options, handlers: base }));
  const { context } = daemon;
  const mock: MockGlass = {
    transport: () => daemon.connect(),
    calls: context.record.calls,
    callsTo: (operation) => context.record.callsTo(operation),
    manifest: context.manifest,
    use(handlers) {
      context.handlers = { ...context.handlers, ...checkHandlers(handlers) };
    },
    reset() {
      context.handlers = base;
      context.record.clear();
    },
    waitFor: (condition) => context.record.waitFor(() => condition(mock)),
  };
  return mock;
}
