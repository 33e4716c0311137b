/**
 * The mock daemon's own stores (src/mock-daemon/site/daemon-stores.ts) answer the experience and
 * memory tools as glass-browser 0.3.14 does: driven through the real client on a fresh mock (empty
 * stores, the experience envelope), with values the daemon computed for the same inputs (hashes,
 * gates, echoes; recorded by test/daemon/catalog-experience-memory.test.ts), over seeded stores,
 * and behind the daemon's acceptance rules (the socket's lease, arguments it ignores or cannot
 * decode).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, LeaseError } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";
import type {
  BrowserExperienceEnvelope,
  BrowserReplayBundle,
  BrowserSurfaceSet,
  BrowserWorkspace,
} from "../../../generated/types/operations/browser-experience.js";
import type { BrowserKnowledgeRecord } from "../../../generated/types/operations/browser-knowledge.js";
import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import {
  daemonStoreHandlers,
  type DaemonStoreHandlers,
  type DaemonStoreOperation,
} from "../../../src/mock-daemon/site/daemon-stores.js";
import type { MockHandler } from "../../../src/mock-daemon/handlers.js";
import { failure } from "../../support/glass-failure.js";
import { type SocketHarness, startSocketHarness } from "../../support/mock-daemon-harness.js";
import { type RawResponse, toolCall } from "../../support/raw-mcp-peer.js";
import { context } from "./site-support.js";
import { CONTENT_HASH, PROFILE, provenance, replay, SCENARIO, SURFACES } from "../../support/experience-samples.js";

/** The lab page's knowledge record, stale, exactly as glass-browser 0.3.14 wrote it back (678 bytes as a one-record store). */
const STALE_RECORD: BrowserKnowledgeRecord = {
  schemaVersion: 1,
  recordId: "kr-lab-page-family",
  kind: "pageFamily",
  scope: {
    origin: "http://127.0.0.1:8123",
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
  confidence: "stale",
  invalidation: { requiredLandmarks: ["Lab"] },
  data: { pageKind: "form" },
};

const WORKSPACE: BrowserWorkspace = {
  identity: { id: "research-desk", aliases: ["desk"] },
  config: { profileMode: "named", privacyMode: "standard", storage: "durable", profileId: "research" },
  lifecycle: "active",
  snapshotRevision: 3,
  attachments: {
    "agent-1": {
      id: "agent-1",
      actorId: "codex",
      role: "agent",
      capabilities: ["observe", "mutate"],
      scope: { workspaceId: "research-desk", profileId: "research", storage: "durable" },
    },
  },
  lease: { state: { held: { lease_id: "lease-1", holder: "agent-1" } }, revision: 1 },
};

/** The text of the first content item of a raw `tools/call` answer. */
function firstText(response: RawResponse): string {
  const content = response.result?.content;
  const [first] = Array.isArray(content) ? (content as { text?: unknown }[]) : [];
  return typeof first?.text === "string" ? first.text : "";
}

/** Calls one of the stores' handlers directly, as the mock daemon would after accepting the call. */
async function handle<Op extends DaemonStoreOperation>(
  handlers: DaemonStoreHandlers,
  operation: Op,
  payload: PayloadOf<Op>,
): Promise<ResultOf<Op>> {
  const handler: MockHandler<Op> = handlers[operation];
  return handler(payload, context(operation));
}

/** The envelope every experience answer comes in, produced just now. */
function expectEnvelope(answer: BrowserExperienceEnvelope, calledAt: number): void {
  expect(answer).toMatchObject({
    schemaVersion: 1,
    status: "ok",
    operation: "experience",
    provenance: { source: "mcp", authoritative: false },
    resourceRefs: [],
  });
  expect(Object.keys(answer)).toEqual(["schemaVersion", "status", "operation", "provenance", "resourceRefs", "result"]);
  expect(answer.provenance.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
  const observedAt = Date.parse(answer.provenance.observedAt ?? "");
  expect(observedAt).toBeGreaterThanOrEqual(calledAt);
  expect(observedAt).toBeLessThanOrEqual(Date.now());
}

describe("a fresh mock daemon's stores, through the client", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(createMockGlass().transport());
  });
  afterAll(async () => {
    await glass?.close();
  });

  it("has no workspaces: workspaceStatus lists none in the experience envelope, and workspaceInspect of an id fails", async () => {
    const calledAt = Date.now();
    const status = await glass.browser.workspaceStatus();
    expectEnvelope(status, calledAt);
    expect(status.result).toEqual({ workspaces: [] });
    expect((await glass.browser.workspaceInspect()).result).toEqual({ workspaces: [] });
    expect(await failure(glass.browser.workspaceInspect({ id: "research-desk" }))).toMatchObject({
      code: "tool.failed",
      details: { tool: "workspaceInspect", text: "browser tool failed" },
    });
  });

  it("has an empty memory: 32 bytes of store, nothing to inspect, prune or forget", async () => {
    const empty = {
      recordCount: 0,
      serializedBytes: 32,
      candidateCount: 0,
      observedCount: 0,
      verifiedCount: 0,
      staleCount: 0,
      contradictedCount: 0,
      quarantinedCount: 0,
    };
    expect(await glass.browser.memoryStatus()).toEqual(empty);
    expect(await glass.browser.memoryReindex()).toEqual(empty);
    expect(await glass.browser.memoryExport()).toEqual({ schemaVersion: 1, records: [] });
    expect(await glass.browser.memoryPrune()).toEqual({ removedRecordIds: [] });
    expect(await glass.browser.memoryForget({ recordId: "kr-any" })).toEqual({
      recordId: "kr-any",
      retained: false,
      removed: false,
      prunedRecordIds: [],
    });
    for (const call of [
      () => glass.browser.memoryInspect({ recordId: "kr-any" }),
      () => glass.browser.memoryExplain({ recordId: "kr-any" }),
    ]) {
      expect(await failure(call())).toMatchObject({ code: "tool.failed", details: { text: "browser tool failed" } });
    }
  });

  it("hashes a replay bundle as the daemon did, and compares two part by part", async () => {
    const calledAt = Date.now();
    const inspected = await glass.browser.replayInspect({ scenario: SCENARIO, replay: replay() });
    expectEnvelope(inspected, calledAt);
    const summary = {
      scenarioId: "submit-once",
      fixtureId: "adversarial-form",
      eventCount: 2,
      contentHash: CONTENT_HASH,
    };
    expect(inspected.result).toEqual({ ...summary, attached: false });
    expect(Object.keys(inspected.result)).toEqual(["attached", "contentHash", "eventCount", "fixtureId", "scenarioId"]);
    expect((await glass.browser.replayAttach({ scenario: SCENARIO, replay: replay() })).result).toEqual({
      ...summary,
      attached: true,
      sideEffects: false,
    });
    expect((await glass.browser.replayDiff({ scenario: SCENARIO, before: replay(), after: replay() })).result).toEqual({
      scenarioId: "submit-once",
      equivalent: true,
      changedFields: [],
    });
    expect(
      (await glass.browser.replayDiff({ scenario: SCENARIO, before: replay(), after: replay("b", 3) })).result,
    ).toEqual({ scenarioId: "submit-once", equivalent: false, changedFields: ["fixtureHash", "events"] });
  });

  it("refuses a bundle the daemon refuses: bound to other content, over budget, events out of order or unredacted", async () => {
    const bundle = replay();
    const refused: BrowserReplayBundle[] = [
      {
        ...bundle,
        scenarioHash: `sha256:${"0".repeat(64)}`,
        observation: { ...bundle.observation, scenarioHash: `sha256:${"0".repeat(64)}` },
      },
      {
        ...bundle,
        observation: { ...bundle.observation, metadata: { ...bundle.observation.metadata, browserActions: 21 } },
      },
      { ...bundle, events: [...bundle.events].reverse() },
      { ...bundle, events: [{ sequence: 0, operation: "typePassword", result: "ok" }] },
    ];
    for (const broken of refused) {
      expect(await failure(glass.browser.replayInspect({ scenario: SCENARIO, replay: broken }))).toMatchObject({
        code: "tool.failed",
      });
    }
  });

  it("sends a surface set back as the daemon does (empty lists left out, keys sorted), or each surface's coverage", async () => {
    const echoed = await glass.browser.surfaceInspect({ surfaces: SURFACES });
    const [main, chart] = SURFACES.surfaces;
    const { diagnostics: _empty, ...mainAsSent } = {
      ...main!,
      evidence: [{ source: "dom" as const, quality: "strong" as const, provenance }],
    };
    expect(echoed.result).toEqual({ schemaVersion: 1, surfaces: [mainAsSent, chart] });
    expect(JSON.stringify(echoed.result)).not.toContain("bridgeCapabilities");
    expect(Object.keys(echoed.result.surfaces[0] ?? {})).toEqual([
      "capabilities",
      "coverage",
      "evidence",
      "kind",
      "nestingDepth",
      "revision",
      "schemaVersion",
      "surfaceId",
      "understanding",
    ]);
    const coverage = await glass.browser.surfaceInspect({ surfaces: SURFACES, coverageOnly: true });
    expect(coverage.result).toEqual({
      surfaceCount: 2,
      surfaces: [
        {
          surfaceId: "page:main",
          kind: "document",
          understanding: "structural",
          coverage: main!.coverage,
          capabilities: ["readStructure", "readText"],
          evidenceCount: 1,
          provenance: [provenance],
        },
        {
          surfaceId: "page:chart",
          kind: "canvas2d",
          understanding: "opaque",
          coverage: chart!.coverage,
          capabilities: ["capture"],
          evidenceCount: 1,
          provenance: [provenance],
        },
      ],
    });
    const orphan: BrowserSurfaceSet = { schemaVersion: 1, surfaces: [chart!] };
    const unbound: BrowserSurfaceSet = { schemaVersion: 1, surfaces: [{ ...main!, revision: 8 }] };
    for (const surfaces of [orphan, unbound])
      expect(await failure(glass.browser.surfaceInspect({ surfaces }))).toMatchObject({ code: "tool.failed" });
  });

  it("reports and gates a backend profile as the daemon did, and refuses one whose tested capability is undeclared", async () => {
    expect((await glass.browser.backendStatus({ profile: PROFILE })).result).toEqual({
      declaredCapabilities: 3,
      identity: {
        backendId: "cdp-chromium",
        version: "0.3.14",
        browser: { family: "chromium", minimum: "120", maximum: null },
        certification: {
          level: "experimental",
          glassVersion: "0.3.14",
          testedCapabilities: ["navigation"],
          limitations: [],
        },
      },
    });
    const { gates } = (await glass.browser.backendTest({ profile: PROFILE })).result;
    expect(gates.map((gate) => gate.capability)).toEqual([
      "lifecycle",
      "navigation",
      "contexts",
      "evidence",
      "action",
      "effects",
      "script",
      "capture",
      "storage",
      "prompts",
      "downloads",
    ]);
    expect(gates.filter((gate) => gate.declared)).toEqual([
      { capability: "navigation", declared: true, level: "available", portability: "semanticPortable" },
      { capability: "script", declared: true, level: "available", portability: "browserSpecific" },
      { capability: "capture", declared: true, level: "partial", portability: "backendSpecific" },
    ]);
    expect(gates[0]).toEqual({
      capability: "lifecycle",
      declared: false,
      level: "unavailable",
      portability: "nonPortable",
    });
    expect(await failure(glass.browser.backendTest({ profile: { ...PROFILE, capabilities: {} } }))).toMatchObject({
      code: "tool.failed",
    });
    const cyclic = {
      ...PROFILE,
      capabilities: {
        ...PROFILE.capabilities,
        navigation: {
          level: "available" as const,
          portability: "semanticPortable" as const,
          dependencies: [{ capability: "script" as const, minimum: "available" as const, reason: "a loop" }],
        },
      },
    };
    expect(await failure(glass.browser.backendStatus({ profile: cyclic }))).toMatchObject({ code: "tool.failed" });
  });
});

describe("the stores seeded with a workspace and a record", () => {
  const clock = () => new Date("2026-12-05T00:12:30.897Z");

  it("finds the workspace by its id however it is written, sorting its keys; not by alias", async () => {
    const handlers = daemonStoreHandlers({ workspaces: [WORKSPACE], now: clock });
    const inspected = await handle(handlers, "browser.workspaceInspect", { id: " Research_Desk " });
    expect(inspected).toEqual({
      schemaVersion: 1,
      status: "ok",
      operation: "experience",
      provenance: { source: "mcp", authoritative: false, observedAt: "2026-12-05T00:12:30.897+00:00" },
      resourceRefs: [],
      result: WORKSPACE,
    });
    expect(Object.keys(inspected.result)).toEqual([
      "attachments",
      "config",
      "identity",
      "lease",
      "lifecycle",
      "snapshotRevision",
    ]);
    expect((await handle(handlers, "browser.workspaceStatus", {})).result).toEqual({ workspaces: ["research-desk"] });
    for (const id of ["desk", "research desk!", "  ", "-"])
      await expect(handle(handlers, "browser.workspaceInspect", { id })).rejects.toMatchObject({ code: "tool.failed" });
  });

  it("measures the store as the daemon did (678 bytes), prunes the stale record and then forgets nothing", async () => {
    const handlers = daemonStoreHandlers({ records: [STALE_RECORD] });
    expect(await handle(handlers, "browser.memoryStatus", {})).toEqual({
      recordCount: 1,
      serializedBytes: 678,
      candidateCount: 0,
      observedCount: 0,
      verifiedCount: 0,
      staleCount: 1,
      contradictedCount: 0,
      quarantinedCount: 0,
    });
    expect(await handle(handlers, "browser.memoryExplain", { recordId: STALE_RECORD.recordId })).toEqual(STALE_RECORD);
    expect(await handle(handlers, "browser.memoryPrune", {})).toEqual({ removedRecordIds: [STALE_RECORD.recordId] });
    expect(await handle(handlers, "browser.memoryForget", { recordId: STALE_RECORD.recordId })).toEqual({
      recordId: STALE_RECORD.recordId,
      retained: false,
      removed: false,
      prunedRecordIds: [],
    });
  });

  it("forgets a record that is there", async () => {
    const handlers = daemonStoreHandlers({ records: [{ ...STALE_RECORD, confidence: "verified" }] });
    expect(await handle(handlers, "browser.memoryPrune", {})).toEqual({ removedRecordIds: [] });
    expect(await handle(handlers, "browser.memoryForget", { recordId: STALE_RECORD.recordId })).toEqual({
      recordId: STALE_RECORD.recordId,
      retained: false,
      removed: true,
      prunedRecordIds: [],
    });
    expect((await handle(handlers, "browser.memoryExport", {})).records).toEqual([]);
  });
});

describe("the daemon's acceptance rules in front of the stores", () => {
  it("on the socket, refuses the lease-requiring ones without a lease (-32003) and answers them under one; the read-only ones need none", async () => {
    const glass = await Glass.connect(createMockGlass({ mode: "socket" }).transport());
    try {
      expect((await glass.browser.workspaceStatus()).result).toEqual({ workspaces: [] });
      expect((await glass.browser.replayInspect({ scenario: SCENARIO, replay: replay() })).result.contentHash).toBe(
        CONTENT_HASH,
      );
      for (const call of [
        () => glass.browser.memoryStatus(),
        () => glass.browser.surfaceInspect({ surfaces: SURFACES }),
        () => glass.browser.backendTest({ profile: PROFILE }),
      ]) {
        const refused = await failure(call());
        expect(refused).toBeInstanceOf(LeaseError);
        expect(refused).toMatchObject({ code: "leaseRequired", details: { jsonRpcCode: -32003 } });
      }
      const answered = await glass.withLease(
        async () => [await glass.browser.memoryStatus(), await glass.browser.backendStatus({ profile: PROFILE })],
        { ttlMs: 10_000 },
      );
      expect(answered[0]).toMatchObject({ recordCount: 0 });
      expect(answered[1]).toMatchObject({ result: { declaredCapabilities: 3 } });
    } finally {
      await glass.close();
    }
  });

  it("refuses a document with a field the daemon does not decode, at any depth", async () => {
    const glass = await Glass.connect(createMockGlass().transport());
    try {
      const [main] = SURFACES.surfaces;
      const colouredEvidence = {
        ...main!,
        evidence: [
          { source: "dom" as const, quality: "strong" as const, provenance: { ...provenance, colour: "red" } },
        ],
      };
      const loose = {
        ...PROFILE,
        capabilities: {
          navigation: { level: "available" as const, portability: "semanticPortable" as const, note: "fast" },
        },
      };
      const looseSetup = { ...SCENARIO, setup: { ...SCENARIO.setup, region: "eu" } };
      await expect(
        glass.browser.surfaceInspect({ surfaces: { schemaVersion: 1, surfaces: [colouredEvidence] } }),
      ).rejects.toMatchObject({ code: "tool.failed" });
      await expect(
        glass.browser.backendStatus({
          profile: {
            ...loose,
            identity: { ...PROFILE.identity, certification: { level: "experimental", glassVersion: "0.3.14" } },
          },
        }),
      ).rejects.toMatchObject({ code: "tool.failed" });
      await expect(glass.browser.replayAttach({ scenario: looseSetup, replay: replay() })).rejects.toMatchObject({
        code: "tool.failed",
      });
      expect(
        (await glass.browser.surfaceInspect({ surfaces: { schemaVersion: 1, surfaces: [main!] } })).result.surfaces,
      ).toHaveLength(1);
    } finally {
      await glass.close();
    }
  });

  it("with persistentKnowledge switched off, refuses the memory tools before any store is read (capability.unavailable; the daemon sends its policy denial instead)", async () => {
    const mock = createMockGlass({ capabilities: { persistentKnowledge: "disabledByPolicy" } });
    const glass = await Glass.connect(mock.transport());
    try {
      expect(glass.supports("persistentKnowledge")).toBe(false);
      expect(await failure(glass.browser.memoryStatus())).toMatchObject({ code: "capability.unavailable" });
      expect((await glass.browser.workspaceStatus()).result).toEqual({ workspaces: [] });
    } finally {
      await glass.close();
    }
    const harness = await startSocketHarness({ site: true, capabilities: { persistentKnowledge: "disabledByPolicy" } });
    try {
      const peer = await harness.connectReady();
      const lease = (await peer.request(1, "glass/lease/acquire", { ttlMs: 10_000 })).result as { token: string };
      const response = await peer.request(2, "tools/call", toolCall("memoryExport", { leaseToken: lease.token }));
      expect(response.result?.isError).toBe(true);
      expect(JSON.parse(firstText(response))).toMatchObject({
        code: "capability.unavailable",
        message: "memoryExport needs capability persistentKnowledge, which is disabledByPolicy on this daemon",
      });
    } finally {
      await harness.stop();
    }
  });

  describe("raw calls", () => {
    let harness: SocketHarness;
    beforeAll(async () => {
      harness = await startSocketHarness({ site: true });
    });
    afterAll(async () => {
      await harness?.stop();
    });

    it("ignores an argument the tool does not take, as the daemon does", async () => {
      const peer = await harness.connectReady();
      const response = await peer.request(1, "tools/call", toolCall("workspaceStatus", { verbose: true }));
      expect(response.result?.isError).toBeUndefined();
      expect(JSON.parse(firstText(response))).toMatchObject({ operation: "experience", result: { workspaces: [] } });
    });

    it("answers a document it cannot decode (a scenario without forbid) with browser tool failed", async () => {
      const peer = await harness.connectReady();
      const { forbid: _forbid, ...undecodable } = SCENARIO;
      const response = await peer.request(
        1,
        "tools/call",
        toolCall("replayInspect", { scenario: undecodable, replay: replay() }),
      );
      expect(response.result).toEqual({ content: [{ type: "text", text: "browser tool failed" }], isError: true });
    });

    it("takes a lease token in the arguments of a lease-requiring tool", async () => {
      const peer = await harness.connectReady();
      expect((await peer.request(1, "tools/call", toolCall("memoryPrune", {}))).error).toMatchObject({
        code: -32003,
        message: "mutation lease required; call glass/lease/acquire first",
      });
      const lease = (await peer.request(2, "glass/lease/acquire", { ttlMs: 10_000 })).result as { token: string };
      const response = await peer.request(3, "tools/call", toolCall("memoryPrune", { leaseToken: lease.token }));
      expect(JSON.parse(firstText(response))).toEqual({ removedRecordIds: [] });
    });
  });
});
