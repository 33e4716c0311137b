/**
 * The typed catalog against the real daemon, part 1: the operations the daemon answers without a
 * browser (Web IR, Task validation and compilation, recoverRun and the knowledge store), each
 * called through the typed client and its result checked by the SDK's result schema. Also: the
 * catalog files together call every operation of the catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, operations, type TaskDocument, type WebIrDocument } from "glass-sdk";
import { webIrSample } from "../support/web-ir-sample.js";
import {
  CATALOG_FILES,
  NOT_RUNNABLE,
  type RecordedClient,
  recordCalls,
  SEEDED_RECORD_ID,
  seedKnowledge,
} from "./support/catalog-coverage.js";
import { requireInstalledDaemon, type StdioDaemon, stdioDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

/** The origin of the seeded knowledge record (no page is served: nothing here starts a browser). */
const ORIGIN = "http://127.0.0.1:8123";

/** A small Web IR document of an orders page: a region holding a table. */
function ordersIr(revision: number): WebIrDocument {
  return {
    schemaVersion: 1,
    revision,
    document: { revision, url: `${ORIGIN}/orders`, title: "Orders", readyState: "complete" },
    entities: [
      { id: "page", kind: "page", quality: "confirmed", evidenceSources: ["dom"] },
      { id: "orders", kind: "region", name: "Orders", quality: "confirmed", evidenceSources: ["dom", "accessibility"] },
      {
        id: "orders-table",
        kind: "table",
        name: "Orders",
        quality: "confirmed",
        evidenceSources: ["tables", "accessibility"],
      },
    ],
    relationships: [
      { from: "page", to: "orders", kind: "contains" },
      { from: "orders", to: "orders-table", kind: "contains" },
    ],
    coverage: { structural: "strong", semantic: "strong", interactiveEntitiesObserved: 0, opaqueRegions: 0 },
    limits: { truncated: false, omittedFacts: 0, textBytes: 0, missingSources: [] },
    entityDetails: { "orders-table": { regionId: "orders", supportedActions: ["read", "extract"] } },
  };
}

const TABLE_TASK: TaskDocument = {
  schemaVersion: 1,
  task: "table.extract",
  scope: { regionName: "Orders" },
  limits: { maxActions: 4, timeoutMs: 5000, maxItems: 10 },
  risk: "readOnly",
};

describe("the browser-free operations of the catalog on the real daemon", () => {
  let daemon: StdioDaemon;
  let client: RecordedClient;
  let glass: Glass;
  beforeAll(async () => {
    daemon = await stdioDaemon();
    seedKnowledge(daemon.state, ORIGIN);
    client = recordCalls(await Glass.connect(daemon.transport));
    glass = client.glass;
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
  });

  it("the catalog files together call every one of the catalog's operations", () => {
    const covered = Object.values(CATALOG_FILES).flat();
    expect(new Set(covered).size).toBe(covered.length);
    expect([...covered].sort()).toEqual(Object.keys(operations).sort());
    expect(Object.keys(operations)).toHaveLength(101);
    for (const entry of NOT_RUNNABLE) expect(covered).toContain(entry.operation);
  });

  it("webIr.validate accepts a valid document and reports its revision", async () => {
    expect(await glass.webIr.validate({ ir: webIrSample(1500, 7) })).toEqual({
      valid: true,
      schemaVersion: 1,
      revision: 7,
    });
  });

  it("webIr.inspect counts the document's entities, relationships and entity kinds", async () => {
    const ir = webIrSample(1500, 7);
    const summary = await glass.webIr.inspect({ ir });
    expect(summary).toMatchObject({
      schemaVersion: 1,
      revision: 7,
      entityCount: ir.entities.length,
      relationshipCount: ir.relationships.length,
      truncated: false,
      opaqueRegions: 0,
    });
    expect(summary.entityKindCounts).toMatchObject({ page: 1, form: 1, field: 1 });
  });

  it("webIr.diff counts the entities renamed between two revisions", async () => {
    const diff = await glass.webIr.diff({ before: webIrSample(1500, 7), after: webIrSample(1500, 8, 2) });
    expect(diff).toMatchObject({
      schemaVersion: 1,
      fromRevision: 7,
      toRevision: 8,
      entityAddedCount: 0,
      entityRemovedCount: 0,
      entityChangedCount: 2,
      relationshipAddedCount: 0,
      relationshipRemovedCount: 0,
    });
  });

  it("webIr.continuity follows an entity that kept its id and one the earlier document never had", async () => {
    const before = webIrSample(1500, 7);
    const after = webIrSample(1500, 8, 2);
    const kept = await glass.webIr.continuity({ before, after, entityId: "action-3" });
    expect(kept).toMatchObject({ requestedId: "action-3", status: "unchanged", currentId: "action-3" });
    const unknown = await glass.webIr.continuity({ before, after, entityId: "form-2" });
    expect(unknown).toEqual({
      requestedId: "form-2",
      status: "removed",
      reason: "entity was not present in the source revision",
    });
  });

  it("task.validate accepts a table extraction scoped to a region", async () => {
    expect(await glass.task.validate({ task: TABLE_TASK })).toEqual({
      valid: true,
      schemaVersion: 1,
      task: "table.extract",
    });
  });

  it("task.compile binds the task to the Web IR's revision and its table", async () => {
    const { plan } = await glass.task.compile({ task: TABLE_TASK, ir: ordersIr(3) });
    expect(plan).toMatchObject({
      schemaVersion: 1,
      task: "table.extract",
      sourceIrRevision: 3,
      selectedEntityIds: ["orders-table"],
      steps: [
        { ordinal: 1, operation: "observeScope" },
        { ordinal: 2, operation: "extractTable", entityIds: ["orders-table"] },
      ],
      postconditions: [{ kind: "recordsExtracted" }],
    });
  });

  it("recoverRun answers that the run is unknown and must be reconciled before a retry", async () => {
    expect(await glass.browser.recoverRun({ executionId: "act_41" })).toEqual({
      executionId: "act_41",
      known: false,
      phase: "reconciliation",
      dispatchHappened: false,
      mutationPossible: true,
      reconciliation: "session-local execution evidence is unavailable; observe before retry",
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
    });
  });

  it("knowledgeList and knowledgeStats report the record seeded into the store", async () => {
    const list = await glass.browser.knowledgeList();
    expect(list.schemaVersion).toBe(1);
    expect(list.records.map((record) => record.recordId)).toEqual([SEEDED_RECORD_ID]);
    expect(list.records[0]).toMatchObject({
      kind: "pageFamily",
      confidence: "verified",
      scope: { origin: ORIGIN, pathPattern: "/lab" },
    });
    const stats = await glass.browser.knowledgeStats();
    expect(stats).toMatchObject({ recordCount: 1, verifiedCount: 1, staleCount: 0, candidateCount: 0 });
    expect(stats.serializedBytes).toBeGreaterThan(0);
  });

  it("knowledgeInvalidate makes the record stale, as knowledgeShow then reports with its history", async () => {
    expect((await glass.browser.knowledgeShow({ recordId: SEEDED_RECORD_ID })).confidence).toBe("verified");
    const change = await glass.browser.knowledgeInvalidate({
      recordId: SEEDED_RECORD_ID,
      state: "stale",
      reason: "the lab page changed",
      observedAt: "2026-12-04T10:00:00Z",
    });
    expect(change).toEqual({ recordId: SEEDED_RECORD_ID, retained: true, removed: false, prunedRecordIds: [] });
    const record = await glass.browser.knowledgeShow({ recordId: SEEDED_RECORD_ID });
    expect(record.confidence).toBe("stale");
    expect(record.history).toEqual([
      { from: "verified", to: "stale", reason: "the lab page changed", observedAt: "2026-12-04T10:00:00Z" },
    ]);
    expect((await glass.browser.knowledgeStats()).staleCount).toBe(1);
  });

  it("knowledgePurge deletes the origin's records", async () => {
    expect(await glass.browser.knowledgePurge({ origin: ORIGIN })).toEqual({
      removedRecordIds: [SEEDED_RECORD_ID],
      prunedRecordIds: [],
    });
    expect((await glass.browser.knowledgeList()).records).toEqual([]);
  });

  it("called every operation this file covers", () => {
    expect([...client.called]).toEqual(expect.arrayContaining([...CATALOG_FILES["catalog-browser-free"]]));
  });
});
