/**
 * The typed catalog against the real daemon: which operations each test/daemon/catalog-*.test.ts
 * file runs, the operations the daemon cannot carry out here (with its exact answer and why), and
 * the helpers those files share (a client that records which typed methods were called, the
 * knowledge record seeded into a daemon's store, the failure of a call).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Glass, OperationName } from "glass-sdk";
import type { DaemonState } from "./real-daemon.js";
export { failure } from "../../support/glass-failure.js";

/** The operations each catalog file calls through the typed client (each at least once). */
export const CATALOG_FILES = {
  "catalog-browser-free": [
    "webIr.inspect",
    "webIr.validate",
    "webIr.diff",
    "webIr.continuity",
    "task.validate",
    "task.compile",
    "browser.recoverRun",
    "browser.knowledgeList",
    "browser.knowledgeStats",
    "browser.knowledgeShow",
    "browser.knowledgeInvalidate",
    "browser.knowledgePurge",
  ],
  "catalog-read": [
    "browser.navigate",
    "browser.observe",
    "browser.observeBootstrap",
    "browser.observeDelta",
    "browser.observeKnowledge",
    "browser.getDOM",
    "browser.getText",
    "browser.inspectPage",
    "browser.screenshot",
    "browser.diagnostics",
    "browser.listTargets",
    "browser.listFrames",
    "browser.cookies",
    "browser.localStorage",
    "browser.sessionStorage",
    "browser.preflight",
    "browser.verify",
    "browser.wait",
    "browser.evaluate",
    "browser.extractStructured",
    "browser.resolveIntent",
    "browser.findTarget",
    "browser.sessionSnapshot",
    "task.execute",
  ],
  "catalog-actions": [
    "browser.click",
    "browser.clickExpectPopup",
    "browser.doubleClick",
    "browser.hover",
    "browser.clear",
    "browser.check",
    "browser.uncheck",
    "browser.drag",
    "browser.type",
    "browser.key",
    "browser.keyDown",
    "browser.keyUp",
    "browser.shortcut",
    "browser.select",
    "browser.upload",
    "browser.fillForm",
    "browser.scroll",
    "browser.batch",
    "browser.clickAt",
    "browser.acceptDialog",
    "browser.dismissDialog",
    "browser.dismissConsent",
    "browser.download",
    "browser.clipboardRead",
    "browser.clipboardWrite",
    "browser.workflow",
    "browser.executeIntent",
    "browser.actAndVerify",
    "browser.reconcileReferences",
    "browser.exportCheckpoint",
    "browser.importCheckpoint",
    "browser.createTarget",
    "browser.selectTarget",
    "browser.closeTarget",
    "browser.selectFrame",
    "browser.setCookies",
    "browser.clearCookies",
    "browser.setNetworkConditions",
    "browser.clearNetworkConditions",
    "browser.setCpuThrottling",
    "browser.clearCpuThrottling",
    "browser.setUserAgent",
    "browser.clearUserAgent",
    "browser.setGeolocation",
    "browser.clearGeolocation",
    "browser.setTimezone",
    "browser.printToPdf",
  ],
  "catalog-experience-memory": [
    "browser.workspaceStatus",
    "browser.workspaceInspect",
    "browser.replayInspect",
    "browser.replayDiff",
    "browser.replayAttach",
    "browser.surfaceInspect",
    "browser.backendStatus",
    "browser.backendTest",
    "browser.memoryStatus",
    "browser.memoryInspect",
    "browser.memoryExplain",
    "browser.memoryExport",
    "browser.memoryReindex",
    "browser.memoryForget",
    "browser.memoryPrune",
  ],
  "catalog-page-additions": [
    "browser.extractWebIr",
    "browser.preflightNavigation",
    "browser.resolveIntentWithKnowledge",
  ],
} as const satisfies Record<string, readonly OperationName[]>;

/** What the daemon answers an operation it cannot carry out here, as the client lifts it. */
export interface DaemonRefusal {
  /** The GlassError's code. */
  readonly code: string;
  /** The GlassError's details: for a tool failure, the tool and the text the daemon sent. */
  readonly details: unknown;
}

/** An operation the daemon cannot carry out here: the call made, its exact answer, and why. */
export interface NotRunnable {
  readonly operation: OperationName;
  /** The page the call is made on (a path of the lab server). */
  readonly page: string;
  /** The call, through the typed client. */
  readonly call: (glass: Glass) => Promise<unknown>;
  readonly answer: DaemonRefusal;
  readonly reason: string;
}

/**
 * The operations glass-browser 0.3.14 cannot carry out on this machine. Each is still called, and
 * its answer must be exactly this: a daemon that starts to carry one out fails the test, and the
 * entry moves to the file that covers the operation.
 */
export const NOT_RUNNABLE: readonly NotRunnable[] = [
  {
    operation: "browser.dismissConsent",
    page: "/consent",
    call: (glass) => glass.browser.dismissConsent(),
    answer: {
      code: "tool.failed",
      details: { kind: "opaqueToolFailure", tool: "dismissConsent", text: "browser tool failed" },
    },
    reason:
      "a daemon bug: 0.3.14 evaluates its consent script, `function() { … }`, as a page expression, which is a syntax error (a function statement needs a name), so the tool fails on every page, even behind the OneTrust banner it is written for",
  },
];

/** A client whose typed calls are recorded by operation name, and the record. */
export interface RecordedClient {
  readonly glass: Glass;
  /** The operations called through the typed namespaces so far, whatever their outcome. */
  readonly called: Set<string>;
}

const NAMESPACES = new Set(["browser", "webIr", "task"]);

/** Wraps a client so that every call of a typed method (`glass.browser.click(…)`) is recorded. */
export function recordCalls(client: Glass): RecordedClient {
  const called = new Set<string>();
  // The namespaces are frozen own properties of the client, which a proxy of the client itself
  // could not replace: the proxy stands on an empty object that inherits from the client.
  const glass = new Proxy(Object.create(client) as Glass, {
    get(_target, property) {
      const value: unknown = Reflect.get(client, property);
      if (typeof property !== "string" || !NAMESPACES.has(property) || typeof value !== "object" || value === null) {
        return typeof value === "function" ? value.bind(client) : value;
      }
      return new Proxy(Object.create(value) as object, {
        get(_methods, name) {
          const method: unknown = Reflect.get(value, name);
          if (typeof name !== "string" || typeof method !== "function") return method;
          return (...args: unknown[]) => {
            called.add(`${property}.${name}`);
            return Reflect.apply(method, value, args);
          };
        },
      });
    },
  });
  return { glass, called };
}

/** The id of the knowledge record {@link seedKnowledge} stores. */
export const SEEDED_RECORD_ID = "kr-lab-page-family";

/**
 * A knowledge record of the lab page, as the daemon's store keeps one. 0.3.14 has no tool that
 * learns records (its store is written by the full product), so the catalog files seed one.
 */
export function labKnowledgeRecord(origin: string): Record<string, unknown> {
  return {
    schemaVersion: 1,
    recordId: SEEDED_RECORD_ID,
    kind: "pageFamily",
    scope: {
      origin,
      pathPattern: "/lab",
      profileScope: "anonymous",
      browserFamily: "chromium",
      glassSchemaVersion: 1,
      policyPreset: "development",
    },
    source: {
      firstSeenAt: "2026-12-01T09:00:00Z",
      lastVerifiedAt: "2026-12-02T09:00:00Z",
      glassVersion: "0.3.14",
      verificationCount: 2,
      surface: { kind: "document", understanding: "strong", coverage: "semantic" },
      backend: { backend: "cdp", profile: "default", capabilities: ["semanticExtraction", "verification"] },
    },
    confidence: "verified",
    invalidation: { requiredLandmarks: ["Lab"] },
    data: { pageKind: "form" },
  };
}

/**
 * Writes a knowledge store holding {@link labKnowledgeRecord} where a daemon started with `state`
 * reads the default profile's store (`$GLASS_CONFIG_HOME/glass/knowledge/default.json`). Call it
 * before the daemon starts.
 */
export function seedKnowledge(state: DaemonState, origin: string): void {
  const configHome = state.env.GLASS_CONFIG_HOME;
  if (configHome === undefined) throw new Error("the daemon state has no GLASS_CONFIG_HOME");
  const directory = join(configHome, "glass", "knowledge");
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, "default.json"),
    JSON.stringify({ schemaVersion: 1, records: [labKnowledgeRecord(origin)] }),
  );
}
