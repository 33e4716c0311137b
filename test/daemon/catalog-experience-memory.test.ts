/**
 * The typed catalog against the real daemon, part 4: the experience tools (the workspace store,
 * replay bundles, surface sets, backend profiles), which answer in the experience envelope, and
 * the memory tools over the knowledge store. Each is called through the typed client, its result
 * checked by the SDK's result schema and its values by what the daemon was given. Then the daemon
 * socket: the read-only ones need no lease, the others (though they do not touch the page) are
 * refused without one and answer with it. Last, a daemon whose policy withholds persistent_profile:
 * what the SDK and the daemon each answer a memory tool. None of these tools starts a browser.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, LeaseError, validateResult } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";
import type {
  BrowserExperienceEnvelope,
  BrowserReplayBundle,
  BrowserSurfaceSet,
  BrowserWorkspace,
} from "../../generated/types/operations/browser-experience.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";
import { PROFILE, replay, SCENARIO, SCENARIO_HASH } from "../support/experience-samples.js";
import {
  CATALOG_FILES,
  failure,
  labKnowledgeRecord,
  type RecordedClient,
  recordCalls,
  SEEDED_RECORD_ID,
} from "./support/catalog-coverage.js";
import {
  type DaemonState,
  daemonState,
  freePort,
  globalFlags,
  killDaemon,
  requireInstalledDaemon,
  type SocketDaemon,
  spawnDaemon,
  startSocketDaemon,
  type StdioDaemon,
  stdioDaemon,
} from "./support/real-daemon.js";

requireInstalledDaemon();

/** The operations this file calls through the typed client (each at least once). */
const COVERED = CATALOG_FILES["catalog-experience-memory"];

/** The origin of the seeded knowledge records (no page is served). */
const ORIGIN = "http://127.0.0.1:8123";

/** A second seeded record, already stale: what memoryPrune removes. */
const STALE_RECORD_ID = "kr-lab-old-form";

/** Writes the knowledge store (the lab record, verified, and a stale one) and one workspace, before the daemon starts. */
function seedStores(state: DaemonState): void {
  const configHome = state.env.GLASS_CONFIG_HOME ?? "";
  const stale = { ...labKnowledgeRecord(ORIGIN), recordId: STALE_RECORD_ID, confidence: "stale" };
  mkdirSync(join(configHome, "glass", "knowledge"), { recursive: true });
  writeFileSync(
    join(configHome, "glass", "knowledge", "default.json"),
    JSON.stringify({ schemaVersion: 1, records: [labKnowledgeRecord(ORIGIN), stale] }),
  );
  mkdirSync(join(configHome, "glass", "workspaces"), { recursive: true });
  writeFileSync(join(configHome, "glass", "workspaces", "research-desk.json"), JSON.stringify(WORKSPACE));
}

/** A durable workspace with one attached agent holding the workspace's own lease, as the store keeps it. */
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

const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** The hash of the scenario's compact JSON in the daemon's field order with its defaults (all four platforms, no capabilities) filled in: a client can reproduce it. */
const COMPUTED_SCENARIO_HASH = sha256(
  JSON.stringify({
    schemaVersion: 1,
    id: SCENARIO.id,
    category: SCENARIO.category,
    fixture: SCENARIO.fixture,
    platforms: ["linux-x86-64", "linux-arm64", "macos-x86-64", "macos-arm64"],
    capabilities: [],
    setup: SCENARIO.setup,
    steps: SCENARIO.steps,
    expect: SCENARIO.expect,
    forbid: SCENARIO.forbid,
    budgets: SCENARIO.budgets,
  }),
);

/** The bundle's compact JSON in the daemon's field order (its observation's defaults filled in): what contentHash hashes. */
function replayJson(bundle: BrowserReplayBundle): string {
  const { oracleEvidence, artifactsComplete, ...recorded } = bundle.observation;
  // forbiddenOutcomes, absent from the bundle, is written as [] between sideEffectCount and oracleEvidence.
  return JSON.stringify({
    ...bundle,
    observation: { ...recorded, forbiddenOutcomes: [], oracleEvidence, artifactsComplete },
  });
}

const provenance = {
  schemaVersion: 1 as const,
  sourceClass: "liveWebIr" as const,
  sourceId: "webir-7",
  sourceRevision: 7,
  observedAt: "2026-12-01T09:00:00Z",
  validatedAt: "2026-12-01T09:00:01Z",
};

/** A document with a chart canvas nested in it. */
const SURFACES: BrowserSurfaceSet = {
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
      evidence: [{ source: "dom", quality: "strong", provenance }],
      revision: 7,
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
      evidence: [
        {
          source: "canvasDetection",
          quality: "partial",
          provenance: { ...provenance, validatedAt: provenance.observedAt },
          detail: "a chart",
        },
      ],
      revision: 7,
      diagnostics: [{ severity: "info", code: "opaque-canvas", message: "the chart is a canvas" }],
    },
  ],
};

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
  // RFC 3339 in UTC with nanoseconds, as the daemon's clock writes it.
  expect(answer.provenance.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{1,9}\+00:00$/);
  const observedAt = Date.parse(answer.provenance.observedAt ?? "");
  expect(observedAt).toBeGreaterThanOrEqual(calledAt - 1000);
  expect(observedAt).toBeLessThanOrEqual(Date.now() + 1000);
}

describe("the experience and memory operations of the catalog on the real daemon", () => {
  let daemon: StdioDaemon;
  let client: RecordedClient;
  let glass: Glass;
  beforeAll(async () => {
    daemon = await stdioDaemon();
    seedStores(daemon.state);
    client = recordCalls(await Glass.connect(daemon.transport));
    glass = client.glass;
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
  });

  it("workspaceStatus lists the store's workspaces in the experience envelope", async () => {
    const calledAt = Date.now();
    const status = await glass.browser.workspaceStatus();
    expectEnvelope(status, calledAt);
    expect(status.result).toEqual({ workspaces: ["research-desk"] });
  });

  it("workspaceInspect finds a workspace by its id written any way it normalizes to, not by alias, and lists them without an id", async () => {
    const calledAt = Date.now();
    const inspected = await glass.browser.workspaceInspect({ id: "  Research_Desk " });
    expectEnvelope(inspected, calledAt);
    // The daemon sends the stored workspace back with every object's keys sorted.
    expect(inspected.result).toEqual(WORKSPACE);
    expect(Object.keys(inspected.result)).toEqual([
      "attachments",
      "config",
      "identity",
      "lease",
      "lifecycle",
      "snapshotRevision",
    ]);
    expect((await glass.browser.workspaceInspect()).result).toEqual({ workspaces: ["research-desk"] });
    for (const id of ["desk", "nowhere"]) {
      expect(await failure(glass.browser.workspaceInspect({ id }))).toMatchObject({
        code: "tool.failed",
        details: { tool: "workspaceInspect", text: "browser tool failed" },
      });
    }
  });

  it("replayInspect and replayAttach check the bundle against its scenario and hash the bundle's JSON in the daemon's field order", async () => {
    const bundle = replay();
    expect(COMPUTED_SCENARIO_HASH).toBe(SCENARIO_HASH);
    const summary = {
      scenarioId: "submit-once",
      fixtureId: "adversarial-form",
      eventCount: 2,
      contentHash: sha256(replayJson(bundle)),
    };
    const calledAt = Date.now();
    const inspected = await glass.browser.replayInspect({ scenario: SCENARIO, replay: bundle });
    expectEnvelope(inspected, calledAt);
    expect(inspected.result).toEqual({ ...summary, attached: false });
    expect(Object.keys(inspected.result)).toEqual(["attached", "contentHash", "eventCount", "fixtureId", "scenarioId"]);
    expect((await glass.browser.replayAttach({ scenario: SCENARIO, replay: bundle })).result).toEqual({
      ...summary,
      attached: true,
      sideEffects: false,
    });
    const unbound = { ...bundle, scenarioHash: `sha256:${"0".repeat(64)}` };
    expect(await failure(glass.browser.replayInspect({ scenario: SCENARIO, replay: unbound }))).toMatchObject({
      code: "tool.failed",
      details: { text: "browser tool failed" },
    });
  });

  it("replayDiff names the parts of two bundles that differ, in the daemon's order", async () => {
    const same = await glass.browser.replayDiff({ scenario: SCENARIO, before: replay(), after: replay() });
    expect(same.result).toEqual({ scenarioId: "submit-once", equivalent: true, changedFields: [] });
    const changed = await glass.browser.replayDiff({ scenario: SCENARIO, before: replay(), after: replay("b", 3) });
    expect(changed.result).toEqual({
      scenarioId: "submit-once",
      equivalent: false,
      changedFields: ["fixtureHash", "events"],
    });
  });

  it("surfaceInspect sends the validated set back (empty lists left out, keys sorted), or under coverageOnly each surface's coverage", async () => {
    const calledAt = Date.now();
    const echoed = await glass.browser.surfaceInspect({ surfaces: SURFACES });
    expectEnvelope(echoed, calledAt);
    expect(echoed.result).toEqual(SURFACES);
    const coverage = await glass.browser.surfaceInspect({ surfaces: SURFACES, coverageOnly: true });
    expect(coverage.result).toEqual({
      surfaceCount: 2,
      surfaces: SURFACES.surfaces.map(({ surfaceId, kind, understanding, coverage, capabilities, evidence }) => ({
        surfaceId,
        kind,
        understanding,
        coverage,
        capabilities,
        evidenceCount: evidence.length,
        provenance: evidence.map((item) => item.provenance),
      })),
    });
    const orphan = { schemaVersion: 1 as const, surfaces: [SURFACES.surfaces[1]!] };
    // An unknown member deep in a surface (the types are open; the daemon decodes strictly).
    const coloured = {
      schemaVersion: 1 as const,
      surfaces: [
        {
          ...SURFACES.surfaces[0]!,
          evidence: [
            { source: "dom" as const, quality: "strong" as const, provenance: { ...provenance, colour: "red" } },
          ],
        },
      ],
    };
    for (const surfaces of [orphan, coloured]) {
      expect(await failure(glass.browser.surfaceInspect({ surfaces }))).toMatchObject({
        code: "tool.failed",
        details: { text: "browser tool failed" },
      });
    }
  });

  it("backendStatus sends the identity back with absent bounds as null and absent lists as empty; backendTest gates the 11 capabilities in order", async () => {
    const status = await glass.browser.backendStatus({ profile: PROFILE });
    expect(status.result).toEqual({
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
    const test = await glass.browser.backendTest({ profile: PROFILE });
    expect(test.result.valid).toBe(true);
    const declared: Record<string, [string, string]> = {
      navigation: ["available", "semanticPortable"],
      script: ["available", "browserSpecific"],
      capture: ["partial", "backendSpecific"],
    };
    const order = [
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
    ];
    expect(test.result.gates).toEqual(
      order.map((capability) => {
        const [level, portability] = declared[capability] ?? ["unavailable", "nonPortable"];
        return { capability, declared: capability in declared, level, portability };
      }),
    );
    const untested = { ...PROFILE, capabilities: {} };
    expect(await failure(glass.browser.backendTest({ profile: untested }))).toMatchObject({
      code: "tool.failed",
      details: { text: "browser tool failed" },
    });
  });

  it("memoryStatus, memoryReindex and memoryExport report the seeded store; memoryInspect and memoryExplain return a record as it is stored", async () => {
    const stats = await glass.browser.memoryStatus();
    expect(stats).toMatchObject({ recordCount: 2, verifiedCount: 1, staleCount: 1, candidateCount: 0 });
    const exported = await glass.browser.memoryExport();
    // The size of the store's compact JSON, which is what the daemon sends back for memoryExport.
    expect(stats.serializedBytes).toBe(Buffer.byteLength(JSON.stringify(exported)));
    expect(exported.records.map((record) => record.recordId)).toEqual([SEEDED_RECORD_ID, STALE_RECORD_ID]);
    expect(await glass.browser.memoryReindex()).toEqual(stats);
    const record = await glass.browser.memoryInspect({ recordId: SEEDED_RECORD_ID });
    expect(record).toEqual(labKnowledgeRecord(ORIGIN));
    expect(await glass.browser.memoryExplain({ recordId: SEEDED_RECORD_ID })).toEqual(record);
    for (const call of [
      () => glass.browser.memoryInspect({ recordId: "kr-unknown" }),
      () => glass.browser.memoryExplain({ recordId: "kr-unknown" }),
    ]) {
      expect(await failure(call())).toMatchObject({ code: "tool.failed", details: { text: "browser tool failed" } });
    }
  });

  it("memoryPrune removes the stale record, memoryForget the other; forgetting an unknown record is no failure", async () => {
    expect(await glass.browser.memoryPrune()).toEqual({ removedRecordIds: [STALE_RECORD_ID] });
    expect(await glass.browser.memoryPrune()).toEqual({ removedRecordIds: [] });
    expect(await glass.browser.memoryForget({ recordId: SEEDED_RECORD_ID })).toEqual({
      recordId: SEEDED_RECORD_ID,
      retained: false,
      removed: true,
      prunedRecordIds: [],
    });
    expect(await glass.browser.memoryForget({ recordId: SEEDED_RECORD_ID })).toEqual({
      recordId: SEEDED_RECORD_ID,
      retained: false,
      removed: false,
      prunedRecordIds: [],
    });
    expect(await glass.browser.memoryExport()).toEqual({ schemaVersion: 1, records: [] });
    // An empty store is `{"schemaVersion":1,"records":[]}`: 32 bytes.
    expect(await glass.browser.memoryStatus()).toEqual({
      recordCount: 0,
      serializedBytes: 32,
      candidateCount: 0,
      observedCount: 0,
      verifiedCount: 0,
      staleCount: 0,
      contradictedCount: 0,
      quarantinedCount: 0,
    });
  });

  it("every result above passes the SDK's result schema", async () => {
    for (const [operation, result] of [
      ["browser.workspaceStatus", await glass.browser.workspaceStatus()],
      ["browser.backendTest", await glass.browser.backendTest({ profile: PROFILE })],
      ["browser.surfaceInspect", await glass.browser.surfaceInspect({ surfaces: SURFACES, coverageOnly: true })],
      ["browser.memoryStatus", await glass.browser.memoryStatus()],
    ] as const) {
      expect(validateResult(operation, result)).toEqual({ ok: true, value: result });
    }
  });

  it("called every operation this file covers", () => {
    expect([...client.called]).toEqual(expect.arrayContaining([...COVERED]));
  });
});

describe("the experience and memory operations on the daemon socket", () => {
  let daemon: SocketDaemon;
  let glass: Glass;
  beforeAll(async () => {
    daemon = await startSocketDaemon();
    seedStores(daemon.state);
    glass = await Glass.connect(socketTransport({ path: daemon.path }));
  });
  afterAll(async () => {
    await glass?.close();
    await daemon?.stop();
  });

  /** Each operation the socket asks a mutation lease for, and a call of it. */
  const leased: readonly [string, (glass: Glass) => Promise<unknown>][] = [
    ["surfaceInspect", (g) => g.browser.surfaceInspect({ surfaces: SURFACES })],
    ["backendStatus", (g) => g.browser.backendStatus({ profile: PROFILE })],
    ["backendTest", (g) => g.browser.backendTest({ profile: PROFILE })],
    ["memoryStatus", (g) => g.browser.memoryStatus()],
    ["memoryInspect", (g) => g.browser.memoryInspect({ recordId: SEEDED_RECORD_ID })],
    ["memoryExplain", (g) => g.browser.memoryExplain({ recordId: SEEDED_RECORD_ID })],
    ["memoryExport", (g) => g.browser.memoryExport()],
    ["memoryReindex", (g) => g.browser.memoryReindex()],
    ["memoryForget", (g) => g.browser.memoryForget({ recordId: "kr-unknown" })],
    ["memoryPrune", (g) => g.browser.memoryPrune()],
  ];

  it("answers the read-only ones (workspaces, replays) without a lease", async () => {
    expect((await glass.browser.workspaceStatus()).result).toEqual({ workspaces: ["research-desk"] });
    expect((await glass.browser.workspaceInspect({ id: "research-desk" })).result).toEqual(WORKSPACE);
    expect((await glass.browser.replayInspect({ scenario: SCENARIO, replay: replay() })).result.attached).toBe(false);
    expect((await glass.browser.replayAttach({ scenario: SCENARIO, replay: replay() })).result.attached).toBe(true);
    expect(
      (await glass.browser.replayDiff({ scenario: SCENARIO, before: replay(), after: replay() })).result.equivalent,
    ).toBe(true);
  });

  it("sends the others without a lease and the daemon refuses each with -32003 leaseRequired; under the lease they answer", async () => {
    for (const [tool, call] of leased) {
      const refused = await failure(call(glass));
      expect(refused, tool).toBeInstanceOf(LeaseError);
      expect(refused, tool).toMatchObject({ code: "leaseRequired", phase: "preflight", mutationPossible: false });
      // The daemon's answer, not a refusal of the SDK's own.
      expect(refused.details, tool).toMatchObject({
        jsonRpcCode: -32003,
        data: { message: "mutation lease required; call glass/lease/acquire first" },
      });
    }
    const answered = await glass.withLease(
      async () => {
        const results: unknown[] = [];
        for (const [, call] of leased) results.push(await call(glass));
        return results;
      },
      { ttlMs: 30_000 },
    );
    expect(answered).toHaveLength(leased.length);
    expect(answered[3]).toMatchObject({ recordCount: 2 });
    expect(answered[8]).toEqual({ recordId: "kr-unknown", retained: false, removed: false, prunedRecordIds: [] });
    expect(answered[9]).toEqual({ removedRecordIds: [STALE_RECORD_ID] });
  });
});

describe("memory tools on a daemon whose policy withholds persistent_profile (--policy ci)", () => {
  /** The policy refusal glass-browser 0.3.14 answers every memory tool with under the ci preset, as its isError text. */
  const CI_REFUSAL = {
    schemaVersion: 1,
    policyVersion: 1,
    kind: "denied",
    operation: "persistent_profile",
    ruleId: "policy.persistent_profile.denied",
    phase: "preflight",
    reason: "PersistentProfile is disabled in CI mode",
    remediation: "change the policy or use an explicitly allowed capability",
    overridePossible: true,
  };

  it("the daemon reports persistentKnowledge switched off, so the SDK refuses memory calls before sending them; the experience tools still answer", async () => {
    const daemon = await stdioDaemon(["--policy", "ci"]);
    const glass = await Glass.connect(daemon.transport);
    try {
      expect(glass.supports("persistentKnowledge")).toBe(false);
      for (const call of [
        () => glass.browser.memoryStatus(),
        () => glass.browser.memoryForget({ recordId: "kr-unknown" }),
      ]) {
        expect(await failure(call())).toMatchObject({ code: "capability.unavailable", mutationPossible: false });
      }
      expect((await glass.browser.workspaceStatus()).result).toEqual({ workspaces: [] });
    } finally {
      await glass.close();
      daemon.state.remove();
    }
  });

  it("sent anyway, each memory tool is refused with the policy's denial as the isError text", async () => {
    const state = daemonState();
    const child = spawnDaemon([...globalFlags(await freePort(), ["--policy", "ci"]), "--mcp"], state.env);
    const raw = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    try {
      await handshake(raw);
      let id = 0;
      for (const tool of [
        "memoryStatus",
        "memoryInspect",
        "memoryExport",
        "memoryReindex",
        "memoryForget",
        "memoryPrune",
        "memoryExplain",
      ]) {
        id += 1;
        const args =
          tool === "memoryInspect" || tool === "memoryExplain" || tool === "memoryForget"
            ? { recordId: "kr-unknown" }
            : {};
        const response = await raw.request(id, "tools/call", toolCall(tool, args));
        expect(response.result, tool).toEqual({
          content: [{ type: "text", text: JSON.stringify(CI_REFUSAL) }],
          isError: true,
        });
      }
    } finally {
      raw.close();
      killDaemon(child);
      state.remove();
    }
  });
});
