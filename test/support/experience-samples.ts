/**
 * Sample inputs of the experience tools (replayInspect/Diff/Attach, surfaceInspect,
 * backendStatus/Test) that glass-browser 0.3.14 accepted, with the hashes it computed for them:
 * shared by the mock's tests and the validator comparison.
 */
import type {
  BrowserBackendProfile,
  BrowserReliabilityScenario,
  BrowserReplayBundle,
  BrowserSurfaceSet,
} from "../../generated/types/operations/browser-experience.js";

/** A reliability scenario of three steps. */
export const SCENARIO: BrowserReliabilityScenario = {
  schemaVersion: 1,
  id: "submit-once",
  category: "idempotence",
  fixture: "adversarial-form",
  setup: { browser: "chromium", policy: "development" },
  steps: [
    { applyControl: "reset" },
    { runWorkflow: "submit-form" },
    { inject: { afterDispatch: "submit", fault: "loseResponse" } },
  ],
  expect: { terminalState: "submitted", sideEffectCount: { submit: 1 } },
  forbid: ["nonIdempotentMutationDuplicated", "wrongTargetExecuted"],
  budgets: { maxDurationMs: 60_000, maxBrowserActions: 20 },
};

/** The scenario's hash, which glass-browser 0.3.14 accepted as binding a bundle to {@link SCENARIO}. */
export const SCENARIO_HASH = "sha256:2fde916506564efb061d7791f312cc7bcd786ab5b4c71b7876be74963a3d9858";

/** The contentHash glass-browser 0.3.14 answered replayInspect with for `replay()`. */
export const CONTENT_HASH = "sha256:b0a09e3d16eeae5f4aad0fcca353c839d4d6876c30c80d891bbe8875f1782213";

/** A replay bundle of {@link SCENARIO}: `fixtureDigit` fills its fixture hash, with `eventCount` events. */
export function replay(fixtureDigit = "a", eventCount = 2): BrowserReplayBundle {
  return {
    schemaVersion: 1,
    scenarioId: SCENARIO.id,
    scenarioHash: SCENARIO_HASH,
    fixtureId: "adversarial-form",
    fixtureHash: `sha256:${fixtureDigit.repeat(64)}`,
    events: Array.from({ length: eventCount }, (_, sequence) => ({
      sequence,
      operation: sequence === 0 ? "applyControl" : "runWorkflow",
      result: "ok",
    })),
    observation: {
      scenarioId: SCENARIO.id,
      scenarioHash: SCENARIO_HASH,
      metadata: {
        platform: "linux-x86-64",
        browser: "chromium",
        browserVersion: "131.0",
        durationMs: 1200,
        browserActions: 4,
      },
      classification: "passed",
      terminalState: "submitted",
      sideEffectCount: { submit: 1 },
      oracleEvidence: true,
      artifactsComplete: true,
    },
  };
}

/** The provenance of the sample surfaces' evidence. */
export const provenance = {
  schemaVersion: 1 as const,
  sourceClass: "liveWebIr" as const,
  sourceId: "webir-7",
  sourceRevision: 7,
  observedAt: "2026-12-01T09:00:00Z",
  validatedAt: "2026-12-01T09:00:01Z",
};

/** A surface set of two surfaces: a document and a canvas inside it. */
export const SURFACES: BrowserSurfaceSet = {
  schemaVersion: 1,
  surfaces: [
    {
      schemaVersion: 1,
      surfaceId: "page:main",
      nestingDepth: 0,
      kind: "document",
      capabilities: ["readStructure", "readText"],
      understanding: "structural",
      coverage: { structural: "strong", semantic: "partial", interaction: "unavailable" },
      evidence: [{ source: "dom", quality: "strong", provenance: { ...provenance, bridgeCapabilities: [] } }],
      revision: 7,
      diagnostics: [],
    },
    {
      schemaVersion: 1,
      surfaceId: "page:chart",
      parentSurfaceId: "page:main",
      nestingDepth: 1,
      kind: "canvas2d",
      capabilities: ["capture"],
      understanding: "opaque",
      coverage: { structural: "opaque", semantic: "opaque", interaction: "unavailable" },
      evidence: [{ source: "canvasDetection", quality: "partial", provenance, detail: "a chart" }],
      revision: 7,
      diagnostics: [{ severity: "info", code: "opaque-canvas", message: "the chart is a canvas" }],
    },
  ],
};

/** A backend profile declaring three capabilities. */
export const PROFILE: BrowserBackendProfile = {
  schemaVersion: 1,
  identity: {
    backendId: "cdp-chromium",
    version: "0.3.14",
    browser: { family: "chromium", minimum: "120" },
    certification: { level: "experimental", glassVersion: "0.3.14", testedCapabilities: ["navigation"] },
  },
  capabilities: {
    navigation: { level: "available", portability: "semanticPortable" },
    capture: { level: "partial", portability: "backendSpecific", limitations: ["no full-page capture"] },
    script: {
      level: "available",
      portability: "browserSpecific",
      dependencies: [{ capability: "navigation", minimum: "available", reason: "a page must be loaded" }],
    },
  },
};
