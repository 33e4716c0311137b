import { describe, it, expect } from "vitest";
import type { ValidationIssue } from "../../src/validation/issue.js";
import {
  jsonEqual,
  webIrDocumentConsistency,
  webIrEntityEvidence,
  webIrRevisionOrder,
} from "../../src/validation/rules/web-ir.js";

/** A fresh, valid Web IR document of a small museum ticket page. */
function museumIr() {
  return {
    schemaVersion: 1,
    revision: 40,
    document: { revision: 40, url: "https://museum.example/tickets", title: "Tickets" },
    entities: [
      { id: "p", kind: "page", quality: "confirmed", evidenceSources: [] as string[] },
      { id: "r-buy", kind: "region", name: "Buy tickets", quality: "strong", evidenceSources: ["accessibility"] },
      { id: "f-date", kind: "field", role: "combobox", name: "Visit date", quality: "partial", evidenceSources: ["forms"] },
      { id: "a-pay", kind: "action", role: "button", name: "Pay", quality: "confirmed", evidenceSources: ["dom"] },
      { id: "map", kind: "opaqueRegion", quality: "opaque", evidenceSources: [] as string[] },
    ],
    relationships: [
      { from: "p", to: "r-buy", kind: "contains" },
      { from: "r-buy", to: "f-date", kind: "contains" },
      { from: "r-buy", to: "a-pay", kind: "contains" },
      { from: "p", to: "map", kind: "contains" },
    ],
    coverage: { structural: "strong", semantic: "strong", interactiveEntitiesObserved: 2, opaqueRegions: 1 },
    limits: { truncated: false, omittedFacts: 0, textBytes: 96, missingSources: [] as string[] },
    entityDetails: { "a-pay": { enabled: true } } as Record<string, unknown>,
  };
}

type Ir = ReturnType<typeof museumIr>;
type DocumentRule = (ir: Ir, path: string, out: ValidationIssue[]) => boolean;

/** Runs a document rule at the root and returns what it reported. */
function run(rule: DocumentRule, ir: Ir): { ok: boolean; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const ok = rule(ir, "", issues);
  return { ok, issues };
}

const documentRules: DocumentRule[] = [
  webIrDocumentConsistency,
];

describe("Web IR document rules", () => {
  it("accept a valid document", () => {
    const ir = museumIr();
    for (const rule of documentRules) expect(run(rule, ir)).toEqual({ ok: true, issues: [] });
    ir.entities.forEach((entity, i) => {
      const issues: ValidationIssue[] = [];
      expect(webIrEntityEvidence(entity, `entities[${i}]`, issues)).toBe(true);
      expect(issues).toEqual([]);
    });
  });

  it("rejects a second page entity", () => {
    const ir = museumIr();
    ir.entities.push({ id: "p2", kind: "page", quality: "inferred", evidenceSources: [] });
    expect(run(webIrDocumentConsistency, ir)).toEqual({
      ok: false,
      issues: [{ path: "entities[5].kind", reason: "web ir must contain exactly one page entity" }],
    });
  });

  it("rejects a document without a page entity", () => {
    const ir = museumIr();
    ir.entities.shift();
    // The relationships from the removed page are reported too, after the page-count issue.
    expect(run(webIrDocumentConsistency, ir).issues?.[0]).toEqual({ path: "entities", reason: "web ir must contain exactly one page entity" });
  });

  it("rejects a repeated entity id", () => {
    const ir = museumIr();
    ir.entities[3]!.id = "f-date";
    // The relationship to the renamed entity's old id follows the repeated-id issue.
    expect(run(webIrDocumentConsistency, ir).issues?.[0]).toEqual({ path: "entities[3].id", reason: "entity ids must be unique" });
  });

  it("rejects a relationship from an unknown entity", () => {
    const ir = museumIr();
    ir.relationships.push({ from: "ghost", to: "a-pay", kind: "controls" });
    expect(run(webIrDocumentConsistency, ir)).toEqual({
      ok: false,
      issues: [{ path: "relationships[4].from", reason: "relationship endpoint must be a known entity id" }],
    });
  });

  it("rejects a relationship to an unknown entity", () => {
    const ir = museumIr();
    ir.relationships[1]!.to = "f-time";
    expect(run(webIrDocumentConsistency, ir).issues).toEqual([
      { path: "relationships[1].to", reason: "relationship endpoint must be a known entity id" },
    ]);
  });

  it("rejects a relationship from an entity to itself", () => {
    const ir = museumIr();
    ir.relationships.push({ from: "a-pay", to: "a-pay", kind: "submits" });
    expect(run(webIrDocumentConsistency, ir).issues).toEqual([
      { path: "relationships[4]", reason: "relationship must connect two distinct entities" },
    ]);
  });

  it("rejects a repeated {from, to, kind} relationship but accepts the same pair with another kind", () => {
    const ir = museumIr();
    ir.relationships.push({ from: "r-buy", to: "a-pay", kind: "owns" });
    expect(run(webIrDocumentConsistency, ir).ok).toBe(true);
    ir.relationships.push({ from: "r-buy", to: "a-pay", kind: "contains" });
    expect(run(webIrDocumentConsistency, ir).issues).toEqual([
      { path: "relationships[5]", reason: "relationships must be unique by from, to and kind" },
    ]);
  });

  it("finds every repeated relationship into an entity with many incoming relationships, in any order", () => {
    const ir = museumIr();
    // a-pay already has r-buy --contains--> a-pay; add more sources and kinds, then repeat some.
    ir.relationships.push(
      { from: "p", to: "a-pay", kind: "controls" },
      { from: "f-date", to: "a-pay", kind: "labels" },
      { from: "p", to: "a-pay", kind: "opens" },
      { from: "f-date", to: "a-pay", kind: "labels" }, // repeat of [5]
      { from: "r-buy", to: "a-pay", kind: "contains" }, // repeat of [2], the first incoming one
      { from: "p", to: "a-pay", kind: "controls" }, // repeat of [4]
      { from: "map", to: "p", kind: "confirms" },
      { from: "a-pay", to: "p", kind: "confirms" },
    );
    expect(run(webIrDocumentConsistency, ir).issues).toEqual([
      { path: "relationships[7]", reason: "relationships must be unique by from, to and kind" },
      { path: "relationships[8]", reason: "relationships must be unique by from, to and kind" },
      { path: "relationships[9]", reason: "relationships must be unique by from, to and kind" },
    ]);
  });

  it("rejects a coverage opaque region count that does not match the opaqueRegion entities", () => {
    const ir = museumIr();
    ir.coverage.opaqueRegions = 0;
    expect(run(webIrDocumentConsistency, ir)).toEqual({
      ok: false,
      issues: [
        { path: "coverage.opaqueRegions", reason: "coverage opaque region count must equal the number of opaqueRegion entities" },
      ],
    });
  });

  it("rejects a document revision that differs from the top-level revision", () => {
    const ir = museumIr();
    ir.document.revision = 39;
    expect(run(webIrDocumentConsistency, ir)).toEqual({
      ok: false,
      issues: [{ path: "document.revision", reason: "document revision must equal the top-level revision" }],
    });
  });

  it("accepts a document without document info", () => {
    const { document: _omitted, ...ir } = museumIr();
    expect(webIrDocumentConsistency(ir, "", [])).toBe(true);
  });

  it("rejects entity details keyed by an unknown entity id, quoting a non-plain key", () => {
    const ir = museumIr();
    ir.entityDetails["gone"] = {};
    ir.entityDetails["a-gone"] = {};
    expect(run(webIrDocumentConsistency, ir)).toEqual({
      ok: false,
      issues: [
        { path: "entityDetails.gone", reason: "entity details must belong to a known entity id" },
        { path: 'entityDetails["a-gone"]', reason: "entity details must belong to a known entity id" },
      ],
    });
  });

  it("reports paths below the path it is given", () => {
    const ir = museumIr();
    ir.document.revision = 1;
    const issues: ValidationIssue[] = [];
    webIrDocumentConsistency(ir, "ir", issues);
    expect(issues[0]?.path).toBe("ir.document.revision");
  });

  it("checks a document at its bounds (4096 entities, 8192 relationships) quickly", () => {
    const entities = [{ id: "p", kind: "page", quality: "confirmed", evidenceSources: [] as string[] }];
    for (let i = 1; i < 4096; i += 1) entities.push({ id: `e${i}`, kind: "text", quality: "strong", evidenceSources: ["dom"] });
    const relationships = [];
    for (let i = 1; i < 4096; i += 1) relationships.push({ from: `e${i}`, to: "p", kind: "scopedTo" });
    for (let i = 1; i < 4096; i += 1) relationships.push({ from: `e${i}`, to: "p", kind: "labels" });
    relationships.push({ from: "p", to: "e1", kind: "contains" }, { from: "p", to: "e2", kind: "contains" });
    expect(relationships).toHaveLength(8192);
    const base = museumIr();
    const ir: Ir = { ...base, entities, relationships, coverage: { ...base.coverage, opaqueRegions: 0 }, entityDetails: {} };
    const started = performance.now();
    for (const rule of documentRules) expect(run(rule, ir).issues).toEqual([]);
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe("webIrEntityEvidence", () => {
  const check = (entity: { id: string; kind: string; quality: string; evidenceSources: string[] }) => {
    const issues: ValidationIssue[] = [];
    const ok = webIrEntityEvidence(entity, "entities[2]", issues);
    return { ok, issues };
  };

  it("rejects an opaqueRegion whose quality is not opaque", () => {
    expect(check({ id: "m", kind: "opaqueRegion", quality: "partial", evidenceSources: [] })).toEqual({
      ok: false,
      issues: [{ path: "entities[2].quality", reason: "opaqueRegion entity must have quality opaque" }],
    });
  });

  it("rejects an opaqueRegion with evidence sources", () => {
    expect(check({ id: "m", kind: "opaqueRegion", quality: "opaque", evidenceSources: ["frames"] }).issues).toEqual([
      { path: "entities[2].evidenceSources", reason: "opaqueRegion entity must not have evidence sources" },
    ]);
  });

  it("rejects a non-page entity without evidence sources", () => {
    expect(check({ id: "l", kind: "link", quality: "inferred", evidenceSources: [] }).issues).toEqual([
      { path: "entities[2].evidenceSources", reason: "non-page entity requires at least one evidence source" },
    ]);
  });

  it("accepts a page without evidence sources", () => {
    expect(check({ id: "p", kind: "page", quality: "confirmed", evidenceSources: [] })).toEqual({ ok: true, issues: [] });
  });
});

describe("webIrRevisionOrder", () => {
  const check = (before: Ir, after: Ir) => {
    const issues: ValidationIssue[] = [];
    const ok = webIrRevisionOrder({ before, after }, "", issues);
    return { ok, issues };
  };

  it("accepts a later after document", () => {
    const after = museumIr();
    after.revision = 41;
    after.document.revision = 41;
    after.entities[2]!.name = "Date of visit";
    expect(check(museumIr(), after)).toEqual({ ok: true, issues: [] });
  });

  it("rejects an after document older than the before document", () => {
    const before = museumIr();
    before.revision = 41;
    expect(check(before, museumIr())).toEqual({
      ok: false,
      issues: [{ path: "after.revision", reason: "after revision must not be lower than before revision" }],
    });
  });

  it("rejects different documents at the same revision", () => {
    const after = museumIr();
    after.limits.omittedFacts = 3;
    expect(check(museumIr(), after)).toEqual({
      ok: false,
      issues: [{ path: "after", reason: "documents with equal revisions must be identical" }],
    });
  });

  it("accepts identical documents at the same revision whatever their key order", () => {
    const before = museumIr();
    const after = Object.fromEntries(Object.entries(museumIr()).reverse()) as Ir;
    after.coverage = Object.fromEntries(Object.entries(after.coverage).reverse()) as Ir["coverage"];
    expect(Object.keys(after)).not.toEqual(Object.keys(before));
    expect(check(before, after)).toEqual({ ok: true, issues: [] });
  });
});

describe("jsonEqual", () => {
  it("ignores key order and treats undefined properties as absent", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });

  it("tells apart arrays, objects, order of array items and scalars", () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual("1", 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it("compares deeply nested values without overflowing the stack", () => {
    let a: unknown = 0;
    let b: unknown = 0;
    for (let i = 0; i < 200_000; i += 1) {
      a = [a];
      b = [b];
    }
    expect(jsonEqual(a, b)).toBe(true);
  });
});
