import { describe, it, expect } from "vitest";
import type { ValidationIssue } from "../../../src/validation/issue.js";
import {
  jsonEqual,
  webIrDocumentConsistency,
  webIrEntityEvidence,
  webIrRevisionOrder,
} from "../../../src/validation/rules/web-ir.js";

/*
 * The Web IR rules check what the daemon (glass-browser 0.3.14, GlassWebIrV1::validate) checks,
 * with its paths and reasons: each test below states the daemon's words. The daemon reports its
 * first failure only; the rules report every issue, the daemon's first one first.
 */

interface Detail {
  state?: { disabled?: boolean; readOnly?: boolean };
  supportedActions?: string[];
  regionId?: string;
  scope?: string;
  scopeId?: string;
  semanticStabilityKey?: string;
  surfaceId?: string;
  surfaceParentId?: string;
  surfaceKind?: string;
  surfaceCoverage?: Record<string, string>;
}

/** A fresh, valid Web IR document of a small museum ticket page. */
function museumIr() {
  return {
    schemaVersion: 1,
    revision: 40,
    document: { revision: 40, url: "https://museum.example/tickets", title: "Tickets" } as
      | { revision: number; url?: string; title?: string }
      | undefined,
    entities: [
      { id: "p", kind: "page", quality: "confirmed", evidenceSources: [] as string[] },
      { id: "r-buy", kind: "region", name: "Buy tickets", quality: "strong", evidenceSources: ["accessibility"] },
      {
        id: "f-date",
        kind: "field",
        role: "combobox",
        name: "Visit date",
        quality: "partial",
        evidenceSources: ["forms"],
      },
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
    entityDetails: {
      "a-pay": { state: { disabled: false }, supportedActions: ["click"] },
      "f-date": { supportedActions: ["read", "select"], regionId: "r-buy", scope: "frame", scopeId: "frame-1" },
    } as Record<string, Detail>,
    relationshipHintDiagnostics: [
      { factIndex: 2, source: "accessibility", hint: "controls", parentRole: "button", status: "UnmatchedParent" },
    ],
  };
}

type Ir = ReturnType<typeof museumIr>;

/** Runs the document rule at the root and returns what it reported. */
function run(ir: Ir): { ok: boolean; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const ok = webIrDocumentConsistency(ir, "", issues);
  return { ok, issues };
}

/** The issue the daemon would report: the first one. */
const first = (ir: Ir): ValidationIssue | undefined => run(ir).issues[0];

describe("Web IR document rule: the document and its pages", () => {
  it("accepts a valid document", () => {
    const ir = museumIr();
    expect(run(ir)).toEqual({ ok: true, issues: [] });
    ir.entities.forEach((entity, i) => {
      const issues: ValidationIssue[] = [];
      expect(webIrEntityEvidence(entity, `entities[${i}]`, issues)).toBe(true);
      expect(issues).toEqual([]);
    });
  });

  it("rejects a document revision that differs from the top-level revision", () => {
    const ir = museumIr();
    ir.document = { revision: 39 };
    expect(run(ir)).toEqual({
      ok: false,
      issues: [{ path: "document.revision", reason: "document revision must match the Web IR revision" }],
    });
  });

  it("takes an absent document as revision 0, as the daemon does: accepted at revision 0 only", () => {
    const ir = museumIr();
    ir.document = undefined;
    expect(run(ir).issues).toEqual([
      { path: "document.revision", reason: "document revision must match the Web IR revision" },
    ]);
    ir.revision = 0;
    expect(run(ir).ok).toBe(true);
  });

  it("rejects a second page entity on entities, once", () => {
    const ir = museumIr();
    ir.entities.push(
      { id: "p2", kind: "page", quality: "inferred", evidenceSources: [] },
      { id: "p3", kind: "page", quality: "inferred", evidenceSources: [] },
    );
    expect(run(ir)).toEqual({
      ok: false,
      issues: [{ path: "entities", reason: "Glass Web IR must contain exactly one page entity" }],
    });
  });

  it("rejects a document without a page entity on entities, before the relationships that named it", () => {
    const ir = museumIr();
    ir.entities.shift();
    expect(run(ir).issues).toEqual([
      { path: "entities", reason: "Glass Web IR must contain exactly one page entity" },
      { path: "relationships[0]", reason: "relationships must reference two distinct known entities" },
      { path: "relationships[3]", reason: "relationships must reference two distinct known entities" },
    ]);
  });

  it("reports the document revision before the page count, the page count before any entity", () => {
    const ir = museumIr();
    ir.entities[1]!.evidenceSources = [];
    ir.entities.push({ id: "p2", kind: "page", quality: "inferred", evidenceSources: [] });
    expect(run(ir).issues.map((issue) => issue.path)).toEqual(["entities", "entities[1].evidenceSources"]);
    ir.document = { revision: 1 };
    expect(first(ir)).toEqual({
      path: "document.revision",
      reason: "document revision must match the Web IR revision",
    });
  });
});

describe("Web IR document rule: entities", () => {
  it("rejects a repeated entity id at the repeat", () => {
    const ir = museumIr();
    ir.entities[3]!.id = "f-date";
    // The details and the relationship of the renamed entity's old id follow the repeated-id issue.
    expect(run(ir).issues).toEqual([
      { path: "entities[3].id", reason: "entity IDs must be unique within one revision" },
      { path: "entityDetails", reason: "entity details must reference a known entity" },
      { path: "relationships[2]", reason: "relationships must reference two distinct known entities" },
    ]);
  });

  it("reports entities in document order, each one's id before its evidence", () => {
    const ir = museumIr();
    ir.entities[3]!.evidenceSources = [];
    ir.entities[3]!.id = "r-buy";
    ir.entities[2]!.quality = "opaque";
    ir.relationships = [];
    ir.entityDetails = {};
    expect(run(ir).issues).toEqual([
      { path: "entities[2].quality", reason: "opaque quality is reserved for opaque regions" },
      { path: "entities[3].id", reason: "entity IDs must be unique within one revision" },
      { path: "entities[3].evidenceSources", reason: "positive entities require source provenance" },
    ]);
  });

  it("rejects an opaque region with another quality or with evidence, on the entity", () => {
    for (const change of [{ quality: "partial" }, { evidenceSources: ["frames"] }]) {
      const ir = museumIr();
      Object.assign(ir.entities[4]!, change);
      expect(run(ir).issues, JSON.stringify(change)).toEqual([
        { path: "entities[4]", reason: "opaque regions cannot claim positive evidence or quality" },
      ]);
    }
  });

  it("rejects the opaque quality on any other entity, the page included", () => {
    for (const index of [0, 3]) {
      const ir = museumIr();
      ir.entities[index]!.quality = "opaque";
      expect(run(ir).issues).toEqual([
        { path: `entities[${index}].quality`, reason: "opaque quality is reserved for opaque regions" },
      ]);
    }
  });

  it("rejects an entity other than the page without evidence sources", () => {
    const ir = museumIr();
    ir.entities[2]!.evidenceSources = [];
    expect(run(ir).issues).toEqual([
      { path: "entities[2].evidenceSources", reason: "positive entities require source provenance" },
    ]);
  });

  it("rejects a coverage opaque region count that does not match the opaqueRegion entities", () => {
    const ir = museumIr();
    ir.coverage.opaqueRegions = 0;
    expect(run(ir)).toEqual({
      ok: false,
      issues: [{ path: "coverage.opaqueRegions", reason: "coverage count must match opaque region entities" }],
    });
  });

  it("counts an opaque region that breaks its own rule too", () => {
    const ir = museumIr();
    ir.entities[4]!.quality = "partial";
    expect(run(ir).issues.map((issue) => issue.path)).toEqual(["entities[4]"]);
  });
});

describe("webIrEntityEvidence", () => {
  const check = (entity: { id: string; kind: string; quality: string; evidenceSources: string[] }) => {
    const issues: ValidationIssue[] = [];
    const ok = webIrEntityEvidence(entity, "entities[2]", issues);
    return { ok, issues };
  };

  it("reports an opaque region that claims a quality and evidence once, on the entity", () => {
    expect(check({ id: "m", kind: "opaqueRegion", quality: "strong", evidenceSources: ["frames"] })).toEqual({
      ok: false,
      issues: [{ path: "entities[2]", reason: "opaque regions cannot claim positive evidence or quality" }],
    });
  });

  it("reports the quality of an opaque link before its missing evidence", () => {
    expect(check({ id: "l", kind: "link", quality: "opaque", evidenceSources: [] }).issues).toEqual([
      { path: "entities[2].quality", reason: "opaque quality is reserved for opaque regions" },
    ]);
  });

  it("accepts a page without evidence sources", () => {
    expect(check({ id: "p", kind: "page", quality: "confirmed", evidenceSources: [] })).toEqual({
      ok: true,
      issues: [],
    });
  });
});

describe("Web IR document rule: entityDetails", () => {
  const withDetails = (details: Record<string, Detail>): Ir => {
    const ir = museumIr();
    ir.entityDetails = details;
    return ir;
  };

  it("rejects details keyed by an unknown entity id on entityDetails", () => {
    expect(run(withDetails({ gone: {} })).issues).toEqual([
      { path: "entityDetails", reason: "entity details must reference a known entity" },
    ]);
  });

  it("rejects more details than entities, before the unknown keys", () => {
    const details: Record<string, Detail> = {};
    for (const id of ["p", "r-buy", "f-date", "a-pay", "map", "x1"]) details[id] = {};
    expect(run(withDetails(details)).issues).toEqual([
      { path: "entityDetails", reason: "entity details exceed the entity count" },
      { path: "entityDetails", reason: "entity details must reference a known entity" },
    ]);
  });

  it("reports first the entry whose key comes first by code point, as the daemon's sorted map does", () => {
    const ir = museumIr();
    ir.entities.push(
      { id: "\u{1F600}", kind: "text", quality: "strong", evidenceSources: ["dom"] },
      { id: "\uFB01", kind: "text", quality: "strong", evidenceSources: ["dom"] },
    );
    // In UTF-16, U+1F600 (a surrogate pair, D83D DE00) sorts before U+FB01; by code point it is after.
    ir.entityDetails = {
      "\u{1F600}": { regionId: "nowhere" },
      "\uFB01": { supportedActions: ["click", "read"] },
      "10": {},
    };
    expect(run(ir).issues).toEqual([
      { path: "entityDetails", reason: "entity details must reference a known entity" },
      { path: "entityDetails.\u{1F600}.regionId", reason: "region membership must reference a known entity" },
      {
        path: "entityDetails.\uFB01.supportedActions",
        reason: "supported actions must be unique, sorted, and bounded",
      },
    ]);
    delete ir.entityDetails["10"];
    expect(first(ir)?.path).toBe("entityDetails.\uFB01.supportedActions");
  });

  it("names an entry by its raw key, as the daemon does", () => {
    expect(first(withDetails({ "a-pay": { supportedActions: ["click", "click"] } }))).toEqual({
      path: "entityDetails.a-pay.supportedActions",
      reason: "supported actions must be unique, sorted, and bounded",
    });
  });

  it("wants supported actions without repeats, in the daemon's order, at most 16", () => {
    const order = [
      "read",
      "click",
      "type",
      "select",
      "check",
      "uncheck",
      "submit",
      "open",
      "close",
      "confirm",
      "cancel",
      "navigate",
      "extract",
      "paginate",
    ];
    expect(run(withDetails({ "a-pay": { supportedActions: order } })).ok).toBe(true);
    expect(first(withDetails({ "a-pay": { supportedActions: ["extract", "read"] } }))?.reason).toBe(
      "supported actions must be unique, sorted, and bounded",
    );
    expect(
      first(withDetails({ "a-pay": { supportedActions: [...order, "paginate", "paginate", "paginate"] } }))?.path,
    ).toBe("entityDetails.a-pay.supportedActions");
  });

  it("lets a disabled entity advertise only read and extract", () => {
    expect(run(withDetails({ "a-pay": { state: { disabled: true }, supportedActions: ["read", "extract"] } })).ok).toBe(
      true,
    );
    expect(first(withDetails({ "a-pay": { state: { disabled: true }, supportedActions: ["read", "click"] } }))).toEqual(
      {
        path: "entityDetails.a-pay.supportedActions",
        reason: "disabled entities cannot advertise executable actions",
      },
    );
  });

  it("lets a read-only entity advertise no value mutation", () => {
    expect(run(withDetails({ "f-date": { state: { readOnly: true }, supportedActions: ["read", "click"] } })).ok).toBe(
      true,
    );
    expect(
      first(withDetails({ "f-date": { state: { readOnly: true }, supportedActions: ["read", "uncheck"] } })),
    ).toEqual({
      path: "entityDetails.f-date.supportedActions",
      reason: "read-only entities cannot advertise value mutation",
    });
  });

  it("wants regionId to be an entity id", () => {
    expect(first(withDetails({ "f-date": { regionId: "r-sell" } }))).toEqual({
      path: "entityDetails.f-date.regionId",
      reason: "region membership must reference a known entity",
    });
  });

  it("refuses a scopeId on a document-scoped entity, document being the default scope", () => {
    const reason = "document-scoped entities cannot carry a frame or shadow scope ID";
    expect(first(withDetails({ "f-date": { scopeId: "frame-1" } }))).toEqual({
      path: "entityDetails.f-date.scopeId",
      reason,
    });
    expect(first(withDetails({ "f-date": { scope: "document", scopeId: "frame-1" } }))).toEqual({
      path: "entityDetails.f-date.scopeId",
      reason,
    });
    expect(run(withDetails({ "f-date": { scope: "shadowRoot", scopeId: "shadow-1" } })).ok).toBe(true);
  });

  it.each([
    ["scopeId", 128],
    ["semanticStabilityKey", 512],
    ["surfaceParentId", 128],
  ] as const)("bounds %s to %d UTF-8 bytes, not empty, without control characters", (field, max) => {
    const detail = (text: string): Detail => ({ scope: "frame", [field]: text });
    const reason = `value must be non-empty, at most ${max} bytes, and contain no controls`;
    expect(run(withDetails({ "f-date": detail(`${"é".repeat(max / 2)}`) })).ok).toBe(true);
    for (const text of ["", `${"é".repeat(max / 2)}a`, "a\u0085b"]) {
      expect(first(withDetails({ "f-date": detail(text) })), JSON.stringify(text)).toEqual({
        path: `entityDetails.f-date.${field}`,
        reason,
      });
    }
  });

  it("wants a surface id, kind and coverage together", () => {
    const coverage = { structural: "complete", semantic: "complete", interaction: "complete" };
    expect(
      run(withDetails({ map: { surfaceId: "s-1", surfaceKind: "frameDocument", surfaceCoverage: coverage } })).ok,
    ).toBe(true);
    expect(first(withDetails({ map: { surfaceId: "s-1", surfaceKind: "frameDocument" } }))).toEqual({
      path: "entityDetails.map.surface",
      reason: "surface metadata requires kind and coverage",
    });
    expect(first(withDetails({ map: { surfaceCoverage: coverage } }))).toEqual({
      path: "entityDetails.map.surface",
      reason: "surface kind and coverage require a surface ID",
    });
  });

  it("reports entityDetails after the coverage count and before the relationships", () => {
    const ir = withDetails({ ghost: {} });
    ir.coverage.opaqueRegions = 3;
    ir.relationships.push({ from: "p", to: "p", kind: "owns" });
    expect(run(ir).issues.map((issue) => issue.path)).toEqual([
      "coverage.opaqueRegions",
      "entityDetails",
      "relationships[4]",
    ]);
  });
});

describe("Web IR document rule: relationships", () => {
  it("rejects a relationship from an unknown entity, to an unknown entity, or from an entity to itself, on the relationship", () => {
    const ir = museumIr();
    ir.relationships.push(
      { from: "ghost", to: "a-pay", kind: "controls" },
      { from: "a-pay", to: "a-pay", kind: "submits" },
    );
    ir.relationships[1]!.to = "f-time";
    const reason = "relationships must reference two distinct known entities";
    expect(run(ir)).toEqual({
      ok: false,
      issues: [
        { path: "relationships[1]", reason },
        { path: "relationships[4]", reason },
        { path: "relationships[5]", reason },
      ],
    });
  });

  it("rejects a repeated {from, to, kind} relationship but accepts the same pair with another kind", () => {
    const ir = museumIr();
    ir.relationships.push({ from: "r-buy", to: "a-pay", kind: "owns" });
    expect(run(ir).ok).toBe(true);
    ir.relationships.push({ from: "r-buy", to: "a-pay", kind: "contains" });
    expect(run(ir).issues).toEqual([{ path: "relationships[5]", reason: "relationships must be unique" }]);
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
    expect(run(ir).issues).toEqual([
      { path: "relationships[7]", reason: "relationships must be unique" },
      { path: "relationships[8]", reason: "relationships must be unique" },
      { path: "relationships[9]", reason: "relationships must be unique" },
    ]);
  });

  it("does not count a relationship with a bad endpoint as seen (its repeat is reported for its endpoint again)", () => {
    const ir = museumIr();
    ir.relationships.push({ from: "ghost", to: "a-pay", kind: "owns" }, { from: "ghost", to: "a-pay", kind: "owns" });
    expect(run(ir).issues.map((issue) => issue.reason)).toEqual([
      "relationships must reference two distinct known entities",
      "relationships must reference two distinct known entities",
    ]);
  });

  it("checks each relationship hint diagnostic's parentRole last: 1 to 64 bytes, no control character", () => {
    const ir = museumIr();
    ir.relationshipHintDiagnostics[0]!.parentRole = "é".repeat(32);
    expect(run(ir).ok).toBe(true);
    ir.relationships.push({ from: "p", to: "r-buy", kind: "contains" });
    for (const role of ["", `${"é".repeat(32)}a`, "button\u0000"]) {
      ir.relationshipHintDiagnostics[0]!.parentRole = role;
      expect(run(ir).issues, JSON.stringify(role)).toEqual([
        { path: "relationships[4]", reason: "relationships must be unique" },
        {
          path: "relationshipHintDiagnostics[0].parentRole",
          reason: "value must be non-empty, at most 64 bytes, and contain no controls",
        },
      ]);
    }
  });
});

describe("Web IR document rule: paths and speed", () => {
  it("reports paths below the path it is given", () => {
    const ir = museumIr();
    ir.document = { revision: 1 };
    ir.entityDetails = { "a-pay": { regionId: "nowhere" } };
    const issues: ValidationIssue[] = [];
    webIrDocumentConsistency(ir, "ir", issues);
    expect(issues.map((issue) => issue.path)).toEqual(["ir.document.revision", "ir.entityDetails.a-pay.regionId"]);
  });

  it("checks a document at its bounds (4096 entities, 8192 relationships, 4096 details) quickly", () => {
    const entities = [{ id: "p", kind: "page", quality: "confirmed", evidenceSources: [] as string[] }];
    for (let i = 1; i < 4096; i += 1)
      entities.push({ id: `e${i}`, kind: "text", quality: "strong", evidenceSources: ["dom"] });
    const relationships = [];
    for (let i = 1; i < 4096; i += 1) relationships.push({ from: `e${i}`, to: "p", kind: "scopedTo" });
    for (let i = 1; i < 4096; i += 1) relationships.push({ from: `e${i}`, to: "p", kind: "labels" });
    relationships.push({ from: "p", to: "e1", kind: "contains" }, { from: "p", to: "e2", kind: "contains" });
    expect(relationships).toHaveLength(8192);
    const entityDetails: Record<string, Detail> = {};
    for (const entity of entities) entityDetails[entity.id] = { supportedActions: ["read", "extract"], regionId: "p" };
    const base = museumIr();
    const ir: Ir = {
      ...base,
      entities,
      relationships,
      coverage: { ...base.coverage, opaqueRegions: 0 },
      entityDetails,
    };
    const started = performance.now();
    expect(run(ir).issues).toEqual([]);
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe("webIrRevisionOrder", () => {
  const check = (before: Ir, after: Ir, path = "") => {
    const issues: ValidationIssue[] = [];
    const ok = webIrRevisionOrder({ before, after }, path, issues);
    return { ok, issues };
  };

  it("accepts a later after document", () => {
    const after = museumIr();
    after.revision = 41;
    after.document = { revision: 41 };
    after.entities[2]!.name = "Date of visit";
    expect(check(museumIr(), after)).toEqual({ ok: true, issues: [] });
  });

  it("rejects an after document older than the before document, on revision (the target document's root)", () => {
    const before = museumIr();
    before.revision = 41;
    const older = {
      ok: false,
      issues: [{ path: "revision", reason: "target revision is older than the source revision" }],
    };
    expect(check(before, museumIr())).toEqual(older);
    expect(check(before, museumIr(), "payload")).toEqual(older);
  });

  it("rejects different documents at the same revision", () => {
    const after = museumIr();
    after.limits.omittedFacts = 3;
    expect(check(museumIr(), after)).toEqual({
      ok: false,
      issues: [{ path: "revision", reason: "same-revision Web IR documents must have identical content" }],
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
