/**
 * Boundary tests for every Web IR v1 and Task v1 rule of the protocol page §6, and a few browser
 * payloads of §7, through the public `validatePayload`. Each test starts from a small valid document
 * and breaks one rule; issues are compared exactly. Paths inside a Web IR or Task document restart at
 * the document root (`entities[1].id`, `inputs`), as the daemon reports them.
 */
import { describe, it, expect } from "vitest";
import { validatePayload } from "glass-sdk";

type Issue = { path: string; reason: string };
type Doc = Record<string, any>;

const utf8 = (text: string): number => new TextEncoder().encode(text).length;
const jsonBytes = (value: unknown): number => utf8(JSON.stringify(value));

function issuesOf(operation: string, payload: unknown): Issue[] {
  const result = validatePayload(operation, payload);
  return result.ok ? [] : result.issues;
}

function expectOk(operation: string, payload: unknown): void {
  const result = validatePayload(operation, payload);
  expect(result.ok ? [] : result.issues).toEqual([]);
  expect(result.ok).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// Web IR v1
// ---------------------------------------------------------------------------------------------

const ENTITY_KINDS = [
  "page",
  "region",
  "form",
  "field",
  "action",
  "link",
  "navigationItem",
  "tab",
  "table",
  "row",
  "cell",
  "collection",
  "collectionItem",
  "dialog",
  "paginationControl",
  "frame",
  "shadowRoot",
  "probe",
  "text",
  "unknownInteractive",
  "opaqueRegion",
];
const QUALITIES = ["confirmed", "strong", "partial", "inferred", "conflicted", "opaque"];
const SOURCES = [
  "dom",
  "accessibility",
  "layout",
  "forms",
  "navigation",
  "tables",
  "collections",
  "dialogs",
  "frames",
  "shadowDom",
  "boundedProbe",
];
const RELATIONSHIP_KINDS = [
  "contains",
  "labels",
  "owns",
  "controls",
  "navigatesTo",
  "opens",
  "confirms",
  "cancels",
  "continues",
  "submits",
  "headerFor",
  "cellOf",
  "selects",
  "repeatsAs",
  "scopedTo",
];

/** A fresh, small, valid Web IR document: a page, a main region and a checkout button. */
function ir(extra: Doc = {}): Doc {
  return {
    schemaVersion: 1,
    revision: 7,
    document: { revision: 7, url: "https://shop.example/cart", title: "Cart", kind: "html", readyState: "complete" },
    entities: [
      { id: "page", kind: "page", quality: "confirmed", evidenceSources: [] },
      {
        id: "main",
        kind: "region",
        role: "main",
        name: "Main",
        quality: "strong",
        evidenceSources: ["dom", "accessibility"],
      },
      {
        id: "checkout",
        kind: "action",
        role: "button",
        name: "Checkout",
        quality: "confirmed",
        evidenceSources: ["dom"],
      },
    ],
    relationships: [
      { from: "page", to: "main", kind: "contains" },
      { from: "main", to: "checkout", kind: "contains" },
    ],
    coverage: {
      structural: "strong",
      semantic: "partial",
      interactiveEntitiesObserved: 1,
      opaqueRegions: 0,
      reasons: ["cross-origin frame skipped"],
    },
    limits: { truncated: false, omittedFacts: 0, textBytes: 120, missingSources: [] },
    ...extra,
  };
}

/** Issues of `webIr.validate` for a document. */
const irIssues = (doc: Doc): Issue[] => issuesOf("webIr.validate", { ir: doc });
const expectIrOk = (doc: Doc): void => expectOk("webIr.validate", { ir: doc });

/** `count` entities: the page plus text entities t1, t2, ... */
function manyEntities(count: number): Doc[] {
  const entities: Doc[] = [{ id: "page", kind: "page", quality: "confirmed", evidenceSources: [] }];
  for (let i = 1; i < count; i++)
    entities.push({ id: `t${i}`, kind: "text", quality: "strong", evidenceSources: ["dom"] });
  return entities;
}

/** A document with `count` entities and no relationships. */
function docWithEntities(count: number): Doc {
  return ir({ entities: manyEntities(count), relationships: [] });
}

/**
 * A valid document whose compact JSON is exactly `target` bytes: many entities with multibyte
 * names (and a quote and a backslash each), then diagnostics with JSON escapes to land exactly.
 */
function docOfSize(target: number): Doc {
  const doc = ir({ relationships: [], diagnostics: [] as string[] });
  const name = `${"猫".repeat(40)}é"\\😀`; // 128 UTF-8 bytes, 136 bytes of JSON
  for (let i = 0; jsonBytes(doc) < target - 40_000; i++) {
    doc.entities.push({ id: `n${i}`, kind: "text", name, quality: "partial", evidenceSources: ["dom"] });
  }
  const chunk = `${"x".repeat(400)}\u0001"\\\n${"é".repeat(40)}`; // 484 UTF-8 bytes, 573 bytes of JSON
  while (target - jsonBytes(doc) > 1200) doc.diagnostics.push(chunk);
  doc.diagnostics.push("");
  let remaining = target - jsonBytes(doc);
  while (remaining > 0) {
    const last = doc.diagnostics.length - 1;
    const room = 512 - utf8(doc.diagnostics[last]);
    if (room === 0) {
      doc.diagnostics.push("");
    } else {
      doc.diagnostics[last] += "y".repeat(Math.min(room, remaining));
    }
    remaining = target - jsonBytes(doc);
  }
  return doc;
}

describe("Web IR v1: the valid base document", () => {
  it("is accepted by webIr.validate and webIr.inspect", () => {
    expectIrOk(ir());
    expectOk("webIr.inspect", { ir: ir() });
  });

  it("accepts a document with only the page and the optional fields omitted (at revision 0: the daemon reads an absent document as revision 0)", () => {
    const doc = ir({
      revision: 0,
      entities: [{ id: "page", kind: "page", quality: "confirmed", evidenceSources: [] }],
      relationships: [],
    });
    delete doc.document;
    delete doc.coverage.reasons;
    expectIrOk(doc);
  });

  it("reports a missing required field of the document at its name", () => {
    for (const field of ["schemaVersion", "revision", "entities", "relationships", "coverage", "limits"]) {
      const doc = ir();
      delete doc[field];
      expect(irIssues(doc)).toEqual([{ path: field, reason: "is required" }]);
    }
  });

  it("rejects schemaVersion 2 and a negative revision", () => {
    expect(irIssues(ir({ schemaVersion: 2 }))).toEqual([{ path: "schemaVersion", reason: "must be 1 (got 2)" }]);
    const doc = ir({ revision: -1 });
    delete doc.document;
    expect(irIssues(doc)).toEqual([{ path: "revision", reason: "must be at least 0 (got -1)" }]);
  });
});

describe("Web IR v1: entity count (1..4096)", () => {
  const COUNT = "entity count must be between 1 and the draft bound";

  it("rejects 0 entities with the daemon's wording", () => {
    expect(irIssues(ir({ entities: [], relationships: [] }))).toEqual([{ path: "entities", reason: COUNT }]);
  });

  it("accepts 1 entity (the page)", () => {
    expectIrOk(docWithEntities(1));
  });

  it("accepts 2000 entities", () => {
    expectIrOk(docWithEntities(2000));
  });

  it("rejects 4097 entities at entities with the daemon's wording", () => {
    expect(irIssues(docWithEntities(4097))).toEqual([{ path: "entities", reason: COUNT }]);
  });

  it("does not report 4096 entities as a count violation (only the 256 KiB size bound, which any 4096-entity document exceeds)", () => {
    const doc = docWithEntities(4096);
    expect(jsonBytes(doc)).toBeGreaterThan(262_144);
    const issues = irIssues(doc);
    expect(issues.some((issue) => issue.path === "entities")).toBe(false);
    expect(issues).toEqual([
      { path: "", reason: `must serialize to at most 262144 bytes of JSON (got ${jsonBytes(doc)})` },
    ]);
  });

  it("(fact) even the most compact 4096 entities serialize to more than 256 KiB", () => {
    // 1-byte ids where possible, the shortest kind, quality and source: still ~68 bytes an entity.
    const compact = Array.from({ length: 4096 }, (_, i) => ({
      id: i.toString(36),
      kind: "tab",
      quality: "strong",
      evidenceSources: ["dom"],
    }));
    expect(jsonBytes(compact)).toBeGreaterThan(262_144);
  });
});

describe("Web IR v1: exactly one page, unique ids", () => {
  it("rejects a document without a page at entities", () => {
    const doc = ir({ relationships: [] });
    doc.entities[0] = { id: "page", kind: "region", quality: "confirmed", evidenceSources: ["dom"] };
    expect(irIssues(doc)).toEqual([{ path: "entities", reason: "Glass Web IR must contain exactly one page entity" }]);
  });

  it("rejects a second page at entities, as the daemon does", () => {
    const doc = ir();
    doc.entities.push({ id: "page2", kind: "page", quality: "confirmed", evidenceSources: [] });
    expect(irIssues(doc)).toEqual([{ path: "entities", reason: "Glass Web IR must contain exactly one page entity" }]);
  });

  it("rejects a repeated entity id on the repeat", () => {
    const doc = ir();
    doc.entities.push({ id: "main", kind: "text", quality: "strong", evidenceSources: ["dom"] });
    expect(irIssues(doc)).toEqual([
      { path: "entities[3].id", reason: "entity IDs must be unique within one revision" },
    ]);
  });

  it("treats ids as exact strings (Main and main are different ids)", () => {
    const doc = ir();
    doc.entities.push({ id: "Main", kind: "text", quality: "strong", evidenceSources: ["dom"] });
    expectIrOk(doc);
  });

  it("applies the identifier rules to entity ids", () => {
    const doc = ir();
    doc.entities[2].id = "check out";
    doc.relationships = [];
    expect(irIssues(doc)).toEqual([
      {
        path: "entities[2].id",
        reason: "must not contain whitespace or control characters (U+0000-U+001F, U+007F-U+009F)",
      },
    ]);
    doc.entities[2].id = "猫".repeat(43);
    expect(irIssues(doc)).toEqual([{ path: "entities[2].id", reason: "must be at most 128 UTF-8 bytes (got 129)" }]);
  });
});

describe("Web IR v1: entity kinds, qualities and evidence sources", () => {
  it.each(ENTITY_KINDS.filter((kind) => kind !== "page" && kind !== "opaqueRegion"))("accepts a %s entity", (kind) => {
    const doc = ir();
    doc.entities.push({ id: "x", kind, quality: "strong", evidenceSources: ["dom"] });
    expectIrOk(doc);
  });

  it("accepts an opaqueRegion entity (quality opaque, no sources, counted in coverage)", () => {
    const doc = ir();
    doc.entities.push({ id: "x", kind: "opaqueRegion", quality: "opaque", evidenceSources: [] });
    doc.coverage.opaqueRegions = 1;
    expectIrOk(doc);
  });

  it("rejects an unknown entity kind, listing the 21 kinds", () => {
    const doc = ir();
    doc.entities.push({ id: "x", kind: "button", quality: "strong", evidenceSources: ["dom"] });
    expect(irIssues(doc)).toEqual([
      { path: "entities[3].kind", reason: `must be one of: ${ENTITY_KINDS.join(", ")} (got "button")` },
    ]);
  });

  it.each(QUALITIES.filter((quality) => quality !== "opaque"))(
    "accepts quality %s on a non-opaque entity",
    (quality) => {
      const doc = ir();
      doc.entities[1].quality = quality;
      expectIrOk(doc);
    },
  );

  it.each(QUALITIES)("accepts %s as coverage.structural and coverage.semantic", (quality) => {
    const doc = ir();
    doc.coverage.structural = quality;
    doc.coverage.semantic = quality;
    expectIrOk(doc);
  });

  it("rejects an unknown quality on an entity and in coverage", () => {
    const doc = ir();
    doc.entities[1].quality = "good";
    doc.coverage.semantic = "good";
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].quality", reason: `must be one of: ${QUALITIES.join(", ")} (got "good")` },
      { path: "coverage.semantic", reason: `must be one of: ${QUALITIES.join(", ")} (got "good")` },
    ]);
  });

  it("accepts all 11 evidence sources on one entity", () => {
    const doc = ir();
    doc.entities[1].evidenceSources = [...SOURCES];
    expectIrOk(doc);
  });

  it("rejects an unknown evidence source", () => {
    const doc = ir();
    doc.entities[1].evidenceSources = ["dom", "screenshot"];
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].evidenceSources[1]", reason: `must be one of: ${SOURCES.join(", ")} (got "screenshot")` },
    ]);
  });

  it("rejects a repeated evidence source at the repeat", () => {
    const doc = ir();
    doc.entities[1].evidenceSources = ["dom", "layout", "dom"];
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].evidenceSources[2]", reason: "evidence sources must not repeat" },
    ]);
  });

  it("rejects 12 evidence sources only for the repeat (there are 11 sources, so 12 always repeat one)", () => {
    const doc = ir();
    doc.entities[1].evidenceSources = [...SOURCES, "dom"];
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].evidenceSources[11]", reason: "evidence sources must not repeat" },
    ]);
  });

  it("rejects 13 evidence sources for the count (and the repeat)", () => {
    const doc = ir();
    doc.entities[1].evidenceSources = [...SOURCES, "dom", "layout"];
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].evidenceSources", reason: "must have at most 12 items (got 13)" },
      { path: "entities[1].evidenceSources[11]", reason: "evidence sources must not repeat" },
    ]);
  });
});

describe("Web IR v1: evidence of opaque regions and other entities", () => {
  it("rejects an opaqueRegion whose quality is not opaque, on the entity", () => {
    const doc = ir();
    doc.entities.push({ id: "x", kind: "opaqueRegion", quality: "partial", evidenceSources: [] });
    doc.coverage.opaqueRegions = 1;
    expect(irIssues(doc)).toEqual([
      { path: "entities[3]", reason: "opaque regions cannot claim positive evidence or quality" },
    ]);
  });

  it("rejects an opaqueRegion with evidence sources, on the entity", () => {
    const doc = ir();
    doc.entities.push({ id: "x", kind: "opaqueRegion", quality: "opaque", evidenceSources: ["frames"] });
    doc.coverage.opaqueRegions = 1;
    expect(irIssues(doc)).toEqual([
      { path: "entities[3]", reason: "opaque regions cannot claim positive evidence or quality" },
    ]);
  });

  it("rejects quality opaque on an entity that is not an opaqueRegion", () => {
    const doc = ir();
    doc.entities[1].quality = "opaque";
    expect(irIssues(doc)).toEqual([
      { path: "entities[1].quality", reason: "opaque quality is reserved for opaque regions" },
    ]);
  });

  it("rejects a non-page entity without evidence sources", () => {
    const doc = ir();
    doc.entities[2].evidenceSources = [];
    expect(irIssues(doc)).toEqual([
      { path: "entities[2].evidenceSources", reason: "positive entities require source provenance" },
    ]);
  });

  it("accepts the page with or without evidence sources", () => {
    expectIrOk(ir());
    const doc = ir();
    doc.entities[0].evidenceSources = ["dom", "navigation"];
    expectIrOk(doc);
  });
});

describe("Web IR v1: entity role and name (at most 256 UTF-8 bytes)", () => {
  const bytes256 = `${"猫".repeat(85)}a`;
  const bytes257 = `${"猫".repeat(85)}ab`;

  it("builds the multibyte boundary strings right", () => {
    expect(utf8(bytes256)).toBe(256);
    expect(utf8(bytes257)).toBe(257);
  });

  it.each(["role", "name"])("accepts a %s of exactly 256 bytes built from 85 × 猫 + a", (field) => {
    const doc = ir();
    doc.entities[1][field] = bytes256;
    expectIrOk(doc);
  });

  it.each(["role", "name"])("rejects a %s of 257 bytes built from 85 × 猫 + ab", (field) => {
    const doc = ir();
    doc.entities[1][field] = bytes257;
    expect(irIssues(doc)).toEqual([
      { path: `entities[1].${field}`, reason: "must be at most 256 UTF-8 bytes (got 257)" },
    ]);
  });

  it("rejects a 257-byte name built from 64 × 😀 + a", () => {
    const doc = ir();
    doc.entities[1].name = `${"😀".repeat(64)}a`;
    expect(irIssues(doc)).toEqual([{ path: "entities[1].name", reason: "must be at most 256 UTF-8 bytes (got 257)" }]);
  });
});

describe("Web IR v1: relationships", () => {
  it.each(RELATIONSHIP_KINDS)("accepts relationship kind %s", (kind) => {
    expectIrOk(ir({ relationships: [{ from: "main", to: "checkout", kind }] }));
  });

  it("rejects an unknown relationship kind", () => {
    expect(irIssues(ir({ relationships: [{ from: "main", to: "checkout", kind: "likes" }] }))).toEqual([
      { path: "relationships[0].kind", reason: `must be one of: ${RELATIONSHIP_KINDS.join(", ")} (got "likes")` },
    ]);
  });

  it("rejects a repeated {from, to, kind} at the repeat", () => {
    const doc = ir();
    doc.relationships.push({ from: "page", to: "main", kind: "contains" });
    expect(irIssues(doc)).toEqual([{ path: "relationships[2]", reason: "relationships must be unique" }]);
  });

  it("accepts the same endpoints with another kind, and the reverse direction", () => {
    const doc = ir();
    doc.relationships.push({ from: "page", to: "main", kind: "owns" }, { from: "main", to: "page", kind: "contains" });
    expectIrOk(doc);
  });

  it.each([
    ["from an entity to itself", { from: "main", to: "main", kind: "contains" }],
    ["from an unknown entity", { from: "ghost", to: "main", kind: "contains" }],
    ["to an unknown entity", { from: "main", to: "ghost", kind: "contains" }],
  ])("rejects a relationship %s, on the relationship", (_label, relationship) => {
    expect(irIssues(ir({ relationships: [relationship] }))).toEqual([
      { path: "relationships[0]", reason: "relationships must reference two distinct known entities" },
    ]);
  });

  it("rejects an unknown field in a relationship (closed object)", () => {
    expect(irIssues(ir({ relationships: [{ from: "main", to: "checkout", kind: "contains", weight: 1 }] }))).toEqual([
      { path: "relationships[0].weight", reason: "is not allowed (unknown field); allowed fields: from, to, kind" },
    ]);
  });

  /** `count` distinct valid relationships among 30 entities. */
  function manyRelationships(count: number): Doc {
    const doc = docWithEntities(30);
    const ids = doc.entities.map((entity: Doc) => entity.id as string);
    const relationships: Doc[] = [];
    outer: for (const kind of RELATIONSHIP_KINDS) {
      for (const from of ids) {
        for (const to of ids) {
          if (from === to) continue;
          if (relationships.length === count) break outer;
          relationships.push({ from, to, kind });
        }
      }
    }
    doc.relationships = relationships;
    return doc;
  }

  it("accepts 2000 relationships", () => {
    expectIrOk(manyRelationships(2000));
  });

  it("rejects 8193 relationships at relationships", () => {
    expect(irIssues(manyRelationships(8193))).toEqual([
      { path: "relationships", reason: "must have at most 8192 items (got 8193)" },
    ]);
  });

  it("does not report 8192 relationships as a count violation (only the 256 KiB size bound, which 8192 relationships exceed)", () => {
    const doc = manyRelationships(8192);
    expect(doc.relationships).toHaveLength(8192);
    const issues = irIssues(doc);
    expect(issues.some((issue) => issue.path === "relationships")).toBe(false);
    expect(issues).toEqual([
      { path: "", reason: `must serialize to at most 262144 bytes of JSON (got ${jsonBytes(doc)})` },
    ]);
  });
});

describe("Web IR v1: coverage", () => {
  it("rejects coverage.opaqueRegions that does not count the opaqueRegion entities", () => {
    const doc = ir();
    doc.entities.push({ id: "x", kind: "opaqueRegion", quality: "opaque", evidenceSources: [] });
    expect(irIssues(doc)).toEqual([
      { path: "coverage.opaqueRegions", reason: "coverage count must match opaque region entities" },
    ]);
  });

  it("rejects coverage.opaqueRegions 1 when there is no opaqueRegion entity", () => {
    const doc = ir();
    doc.coverage.opaqueRegions = 1;
    expect(irIssues(doc).map((issue) => issue.path)).toEqual(["coverage.opaqueRegions"]);
  });

  it("accepts two opaque regions counted as 2", () => {
    const doc = ir();
    doc.entities.push(
      { id: "x1", kind: "opaqueRegion", quality: "opaque", evidenceSources: [] },
      { id: "x2", kind: "opaqueRegion", quality: "opaque", evidenceSources: [] },
    );
    doc.coverage.opaqueRegions = 2;
    expectIrOk(doc);
  });

  it("accepts 16 reasons and rejects 17", () => {
    const doc = ir();
    doc.coverage.reasons = Array.from({ length: 16 }, (_, i) => `reason ${i}`);
    expectIrOk(doc);
    doc.coverage.reasons.push("one too many");
    expect(irIssues(doc)).toEqual([{ path: "coverage.reasons", reason: "must have at most 16 items (got 17)" }]);
  });

  it("accepts a 128-byte reason (42 × 猫 + ab) and rejects a 129-byte one (43 × 猫)", () => {
    const doc = ir();
    doc.coverage.reasons = [`${"猫".repeat(42)}ab`];
    expectIrOk(doc);
    doc.coverage.reasons = ["ok", "猫".repeat(43)];
    expect(irIssues(doc)).toEqual([
      { path: "coverage.reasons[1]", reason: "must be at most 128 UTF-8 bytes (got 129)" },
    ]);
  });

  it("rejects negative counts", () => {
    const doc = ir();
    doc.coverage.interactiveEntitiesObserved = -1;
    expect(irIssues(doc)).toEqual([
      { path: "coverage.interactiveEntitiesObserved", reason: "must be at least 0 (got -1)" },
    ]);
  });
});

describe("Web IR v1: limits", () => {
  it("accepts 11 distinct missing sources (all of them)", () => {
    const doc = ir();
    doc.limits.missingSources = [...SOURCES];
    expectIrOk(doc);
  });

  it("rejects a repeated missing source at the repeat", () => {
    const doc = ir();
    doc.limits.missingSources = ["frames", "frames"];
    expect(irIssues(doc)).toEqual([{ path: "limits.missingSources[1]", reason: "evidence sources must not repeat" }]);
  });

  it("rejects 13 missing sources for the count", () => {
    const doc = ir();
    doc.limits.missingSources = [...SOURCES, "dom", "layout"];
    expect(irIssues(doc)).toContainEqual({
      path: "limits.missingSources",
      reason: "must have at most 12 items (got 13)",
    });
  });

  it.each([
    ["truncated", "yes", "must be a boolean (got string)"],
    ["omittedFacts", -1, "must be at least 0 (got -1)"],
    ["textBytes", 1.5, "must be an integer (got number)"],
  ])("rejects limits.%s = %j", (field, value, reason) => {
    const doc = ir();
    doc.limits[field] = value;
    expect(irIssues(doc)).toEqual([{ path: `limits.${field}`, reason }]);
  });
});

describe("Web IR v1: diagnostics", () => {
  it("accepts 128 diagnostics and rejects 129", () => {
    const doc = ir({ diagnostics: Array.from({ length: 128 }, (_, i) => `note ${i}`) });
    expectIrOk(doc);
    doc.diagnostics.push("one too many");
    expect(irIssues(doc)).toEqual([{ path: "diagnostics", reason: "must have at most 128 items (got 129)" }]);
  });

  it("accepts a 512-byte diagnostic (170 × 猫 + ab) and rejects a 513-byte one", () => {
    expectIrOk(ir({ diagnostics: [`${"猫".repeat(170)}ab`] }));
    expect(irIssues(ir({ diagnostics: ["fine", `${"猫".repeat(170)}abc`] }))).toEqual([
      { path: "diagnostics[1]", reason: "must be at most 512 UTF-8 bytes (got 513)" },
    ]);
  });

  it("counts a diagnostic's UTF-8 bytes, not its JSON escapes (512 × U+0001 is 512 bytes)", () => {
    expectIrOk(ir({ diagnostics: ["\u0001".repeat(512)] }));
  });

  it("rejects a diagnostic that is not a string", () => {
    expect(irIssues(ir({ diagnostics: [{ note: 1 }] }))).toEqual([
      { path: "diagnostics[0]", reason: "must be a string (got object)" },
    ]);
  });
});

describe("Web IR v1: document", () => {
  it("rejects document.revision different from revision", () => {
    const doc = ir();
    doc.document.revision = 6;
    expect(irIssues(doc)).toEqual([
      { path: "document.revision", reason: "document revision must match the Web IR revision" },
    ]);
  });

  it("reads an absent document as revision 0, as the daemon does", () => {
    const doc = ir();
    delete doc.document;
    expect(irIssues(doc)).toEqual([
      { path: "document.revision", reason: "document revision must match the Web IR revision" },
    ]);
    doc.revision = 0;
    expectIrOk(doc);
  });

  it("requires document.revision", () => {
    const doc = ir();
    delete doc.document.revision;
    expect(irIssues(doc)).toEqual([{ path: "document.revision", reason: "is required" }]);
  });

  it("accepts a url of exactly 2048 bytes (multibyte) and rejects 2049", () => {
    const prefix = "https://shop.example/";
    const url2048 = `${prefix}${"猫".repeat(675)}${"a".repeat(2048 - utf8(prefix) - 2025)}`;
    expect(utf8(url2048)).toBe(2048);
    const doc = ir();
    doc.document.url = url2048;
    expectIrOk(doc);
    doc.document.url = `${url2048}b`;
    expect(irIssues(doc)).toEqual([{ path: "document.url", reason: "must be at most 2048 UTF-8 bytes (got 2049)" }]);
  });

  it.each([
    ["a query", "https://shop.example/cart?session=abc"],
    ["a fragment", "https://shop.example/cart#top"],
    ["an empty query", "https://shop.example/cart?"],
  ])("rejects a url carrying %s", (_label, url) => {
    const doc = ir();
    doc.document.url = url;
    expect(irIssues(doc)).toEqual([
      { path: "document.url", reason: "document URL must omit query strings and fragments" },
    ]);
  });

  it.each([
    ["title", 512, 170],
    ["kind", 128, 42],
  ])("accepts a %s of exactly %d bytes and rejects one byte more", (field, limit, cats) => {
    const exact = `${"猫".repeat(cats)}${"a".repeat(limit - cats * 3)}`;
    expect(utf8(exact)).toBe(limit);
    const doc = ir();
    doc.document[field] = exact;
    expectIrOk(doc);
    doc.document[field] = `${exact}a`;
    expect(irIssues(doc)).toEqual([
      { path: `document.${field}`, reason: `must be at most ${limit} UTF-8 bytes (got ${limit + 1})` },
    ]);
  });

  it("accepts a readyState of exactly 32 bytes (8 × 😀) and rejects 33", () => {
    const doc = ir();
    doc.document.readyState = "😀".repeat(8);
    expectIrOk(doc);
    doc.document.readyState = `${"😀".repeat(8)}a`;
    expect(irIssues(doc)).toEqual([{ path: "document.readyState", reason: "must be at most 32 UTF-8 bytes (got 33)" }]);
  });
});

describe("Web IR v1: closed objects", () => {
  it.each([
    [
      "the document root",
      (doc: Doc) => (doc.extra = 1),
      "extra",
      "schemaVersion, revision, document, entities, relationships, coverage, limits, entityDetails, surfaceSet, diagnostics, relationshipHintDiagnostics",
    ],
    [
      "an entity",
      (doc: Doc) => (doc.entities[1].selector = "#main"),
      "entities[1].selector",
      "id, kind, role, name, quality, evidenceSources",
    ],
    [
      "coverage",
      (doc: Doc) => (doc.coverage.percent = 90),
      "coverage.percent",
      "structural, semantic, interactiveEntitiesObserved, opaqueRegions, reasons",
    ],
    [
      "limits",
      (doc: Doc) => (doc.limits.maxEntities = 10),
      "limits.maxEntities",
      "truncated, omittedFacts, textBytes, missingSources",
    ],
    [
      "document",
      (doc: Doc) => (doc.document.query = "a=1"),
      "document.query",
      "revision, url, title, kind, readyState",
    ],
  ])("rejects an unknown field in %s", (_label, mutate, path, allowed) => {
    const doc = ir();
    mutate(doc);
    expect(irIssues(doc)).toEqual([{ path, reason: `is not allowed (unknown field); allowed fields: ${allowed}` }]);
  });

  it("accepts entityDetails, an open surfaceSet and relationshipHintDiagnostics in the daemon's shapes", () => {
    expectIrOk(
      ir({
        entityDetails: {
          checkout: {
            state: { disabled: false },
            supportedActions: ["click"],
            sensitivity: "public",
            scope: "document",
          },
        },
        surfaceSet: { frames: [], popups: 0 },
        relationshipHintDiagnostics: [
          {
            factIndex: 3,
            source: "accessibility",
            hint: "controls",
            parentRole: "button",
            status: "UnmatchedParent",
            note: "extra keys are ignored",
          },
        ],
      }),
    );
  });

  it("rejects what the daemon refuses in entityDetails and relationshipHintDiagnostics: an unknown key, an action it does not know, a hint that is not a relationship kind", () => {
    const paths = (doc: Doc) => irIssues(doc).map((issue) => issue.path);
    expect(paths(ir({ entityDetails: { checkout: { enabled: true } } }))).toEqual(["entityDetails.checkout.enabled"]);
    expect(paths(ir({ entityDetails: { checkout: { supportedActions: ["clear"] } } }))).toEqual([
      "entityDetails.checkout.supportedActions[0]",
    ]);
    expect(
      paths(
        ir({
          relationshipHintDiagnostics: [
            {
              factIndex: 3,
              source: "accessibility",
              hint: "aria-controls",
              parentRole: "button",
              status: "UnmatchedParent",
            },
          ],
        }),
      ),
    ).toEqual(["relationshipHintDiagnostics[0].hint"]);
  });

  it("rejects entityDetails for an unknown entity id, at entityDetails", () => {
    expect(irIssues(ir({ entityDetails: { ghost: {} } }))).toEqual([
      { path: "entityDetails", reason: "entity details must reference a known entity" },
    ]);
  });

  it("rejects what the daemon refuses of an entity's details, naming the entity by its raw id", () => {
    const details = (detail: Doc) => irIssues(ir({ entityDetails: { checkout: detail } }));
    expect(details({ supportedActions: ["click", "read"] })).toEqual([
      {
        path: "entityDetails.checkout.supportedActions",
        reason: "supported actions must be unique, sorted, and bounded",
      },
    ]);
    expect(details({ state: { disabled: true }, supportedActions: ["click"] })).toEqual([
      {
        path: "entityDetails.checkout.supportedActions",
        reason: "disabled entities cannot advertise executable actions",
      },
    ]);
    expect(details({ regionId: "ghost" })).toEqual([
      { path: "entityDetails.checkout.regionId", reason: "region membership must reference a known entity" },
    ]);
    expect(details({ scopeId: "frame-1" })).toEqual([
      {
        path: "entityDetails.checkout.scopeId",
        reason: "document-scoped entities cannot carry a frame or shadow scope ID",
      },
    ]);
    expect(details({ surfaceId: "s-1" })).toEqual([
      { path: "entityDetails.checkout.surface", reason: "surface metadata requires kind and coverage" },
    ]);
  });
});

describe("Web IR v1: whole document at most 256 KiB of JSON", () => {
  it("builds documents of exactly 262144 and 262145 bytes (measured with TextEncoder)", () => {
    expect(jsonBytes(docOfSize(262_144))).toBe(262_144);
    expect(jsonBytes(docOfSize(262_145))).toBe(262_145);
  });

  it("accepts a document of exactly 262144 bytes (multibyte names, escapes in diagnostics)", () => {
    expectIrOk(docOfSize(262_144));
  });

  it("rejects a document of 262145 bytes at the document root, naming the limit and the size", () => {
    expect(irIssues(docOfSize(262_145))).toEqual([
      { path: "", reason: "must serialize to at most 262144 bytes of JSON (got 262145)" },
    ]);
  });

  it("applies the bound to each document of webIr.diff", () => {
    const before = docOfSize(262_145);
    const after: Doc = { ...structuredClone(before), revision: 8, document: { ...before.document, revision: 8 } };
    after.diagnostics = after.diagnostics.slice(0, 1);
    expect(issuesOf("webIr.diff", { before, after })).toEqual([
      { path: "", reason: "must serialize to at most 262144 bytes of JSON (got 262145)" },
    ]);
  });
});

describe("webIr.diff and webIr.continuity: revision order", () => {
  const at = (revision: number, extra: Doc = {}): Doc =>
    ir({ revision, document: { revision, url: "https://shop.example/cart" }, ...extra });

  it.each(["webIr.diff", "webIr.continuity"])(
    "%s accepts after.revision > before.revision with different documents",
    (operation) => {
      const payload: Doc = { before: at(7), after: at(9, { diagnostics: ["changed"] }) };
      if (operation === "webIr.continuity") payload.entityId = "checkout";
      expectOk(operation, payload);
    },
  );

  it.each(["webIr.diff", "webIr.continuity"])("%s rejects after.revision < before.revision", (operation) => {
    const payload: Doc = { before: at(8), after: at(7) };
    if (operation === "webIr.continuity") payload.entityId = "checkout";
    expect(issuesOf(operation, payload)).toEqual([
      { path: "revision", reason: "target revision is older than the source revision" },
    ]);
  });

  it.each(["webIr.diff", "webIr.continuity"])("%s accepts equal revisions with identical documents", (operation) => {
    const payload: Doc = { before: at(7), after: at(7) };
    if (operation === "webIr.continuity") payload.entityId = "main";
    expectOk(operation, payload);
  });

  it("treats documents that differ only in key order as identical", () => {
    const before = at(7);
    const after: Doc = {};
    for (const key of Object.keys(before).reverse()) after[key] = before[key];
    after.coverage = Object.fromEntries(Object.entries(before.coverage).reverse());
    expectOk("webIr.diff", { before, after });
  });

  it.each(["webIr.diff", "webIr.continuity"])(
    "%s rejects equal revisions with different documents at revision",
    (operation) => {
      const payload: Doc = { before: at(7), after: at(7, { diagnostics: ["something moved"] }) };
      if (operation === "webIr.continuity") payload.entityId = "main";
      expect(issuesOf(operation, payload)).toEqual([
        { path: "revision", reason: "same-revision Web IR documents must have identical content" },
      ]);
    },
  );

  it("rejects equal revisions whose documents differ deep inside an entity", () => {
    const after = at(7);
    after.entities[2].name = "Pay now";
    expect(issuesOf("webIr.diff", { before: at(7), after })).toEqual([
      { path: "revision", reason: "same-revision Web IR documents must have identical content" },
    ]);
  });

  it("reports an invalid document of the pair at the document root, as the daemon does", () => {
    const after = at(9);
    after.entities[2].id = "page";
    after.relationships = [];
    expect(issuesOf("webIr.diff", { before: at(7), after })).toEqual([
      { path: "entities[2].id", reason: "entity IDs must be unique within one revision" },
    ]);
  });

  it("reports the before document's issues first, then the after document's, and the revision order only when both are valid", () => {
    const before = at(9);
    before.entities[2].evidenceSources = [];
    const after = at(7);
    after.relationships.push({ from: "main", to: "main", kind: "owns" });
    expect(issuesOf("webIr.diff", { before, after })).toEqual([
      { path: "entities[2].evidenceSources", reason: "positive entities require source provenance" },
      { path: "relationships[2]", reason: "relationships must reference two distinct known entities" },
    ]);
  });

  it("webIr.continuity requires entityId", () => {
    expect(issuesOf("webIr.continuity", { before: at(7), after: at(8) })).toEqual([
      { path: "entityId", reason: "is required" },
    ]);
  });

  it("webIr.continuity applies the identifier rules to entityId", () => {
    expect(issuesOf("webIr.continuity", { before: at(7), after: at(8), entityId: "check out" })).toEqual([
      { path: "entityId", reason: "must not contain whitespace or control characters (U+0000-U+001F, U+007F-U+009F)" },
    ]);
  });

  it("webIr.diff requires before and after and rejects unknown fields", () => {
    expect(issuesOf("webIr.diff", { before: at(7) })).toEqual([{ path: "after", reason: "is required" }]);
    expect(issuesOf("webIr.diff", { before: at(7), after: at(8), entityId: "x" })).toEqual([
      { path: "entityId", reason: "is not allowed (unknown field); allowed fields: before, after" },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Task v1
// ---------------------------------------------------------------------------------------------

const TASK_KINDS = [
  "form.inspect",
  "form.fill",
  "form.validate",
  "form.submit",
  "navigation.follow",
  "navigation.selectTab",
  "navigation.openMenu",
  "table.extract",
  "collection.extract",
  "region.extract",
  "field.read",
  "dialog.inspect",
  "dialog.confirm",
  "dialog.cancel",
  "pagination.next",
  "pagination.collect",
];
const REGION_KINDS = [
  "form.inspect",
  "form.fill",
  "form.validate",
  "form.submit",
  "field.read",
  "navigation.selectTab",
  "navigation.openMenu",
  "pagination.next",
  "pagination.collect",
  "table.extract",
  "collection.extract",
  "region.extract",
];
const RISKS = [
  "readOnly",
  "localMutation",
  "remoteReversible",
  "remoteIrreversible",
  "authentication",
  "dataDisclosure",
];
const CONTROL_REASON = "must not contain control characters (U+0000-U+001F, U+007F-U+009F)";

/** The inputs each family takes (the daemon wants exactly these; form.fill takes any, at least one). */
const FAMILY_INPUTS: Record<string, Record<string, string>> = {
  "form.fill": { Email: "reader@news.example" },
  "form.submit": { submit: "Subscribe" },
  "navigation.follow": { url: "https://news.example/archive" },
  "navigation.selectTab": { tab: "Archive" },
  "navigation.openMenu": { menu: "Sections" },
  "field.read": { field: "Email" },
  "pagination.next": { next: "Next page" },
  "pagination.collect": { next: "Next page" },
};
/** The entity kind each family's scope may name (region.extract also takes form, table, collection, dialog). */
const FAMILY_ENTITY_KIND: Record<string, string> = {
  "form.inspect": "form",
  "form.fill": "form",
  "form.validate": "form",
  "form.submit": "form",
  "navigation.follow": "page",
  "navigation.selectTab": "tab",
  "navigation.openMenu": "navigationItem",
  "table.extract": "table",
  "collection.extract": "collection",
  "region.extract": "region",
  "field.read": "field",
  "dialog.inspect": "dialog",
  "dialog.confirm": "dialog",
  "dialog.cancel": "dialog",
  "pagination.next": "paginationControl",
  "pagination.collect": "paginationControl",
};

/** A fresh, valid task of the given family: a region, the family's inputs and a postcondition every family accepts. */
function task(kind = "region.extract", extra: Doc = {}): Doc {
  return {
    schemaVersion: 1,
    task: kind,
    scope: { regionName: "Newsletter" },
    ...(kind in FAMILY_INPUTS ? { inputs: { ...FAMILY_INPUTS[kind] } } : {}),
    limits: { maxActions: 5, timeoutMs: 4000, maxItems: 20 },
    risk: "localMutation",
    postconditions: [{ kind: "pageKind", expected: "article" }],
    ...extra,
  };
}

const taskIssues = (doc: Doc): Issue[] => issuesOf("task.validate", { task: doc });
const expectTaskOk = (doc: Doc): void => expectOk("task.validate", { task: doc });

describe("Task v1: kinds and enums", () => {
  it.each(TASK_KINDS)("accepts a valid %s task", (kind) => {
    expectTaskOk(task(kind));
  });

  it("rejects an unknown task kind", () => {
    expect(taskIssues(task("form.reset"))).toEqual([
      { path: "task", reason: `must be one of: ${TASK_KINDS.join(", ")} (got "form.reset")` },
    ]);
  });

  it.each(RISKS)("accepts risk %s", (risk) => {
    expectTaskOk(task("region.extract", { risk }));
  });

  it("rejects unknownRisk with the wording that says so", () => {
    expect(taskIssues(task("region.extract", { risk: "unknownRisk" }))).toEqual([
      {
        path: "risk",
        reason:
          "must be one of readOnly, localMutation, remoteReversible, remoteIrreversible, authentication, dataDisclosure (unknownRisk is not accepted)",
      },
    ]);
  });

  it.each(["fail", "requireConfirmation"])("accepts ambiguity %s", (ambiguity) => {
    expectTaskOk(task("region.extract", { ambiguity }));
  });

  it("rejects an unknown ambiguity policy", () => {
    expect(taskIssues(task("region.extract", { ambiguity: "ask" }))).toEqual([
      { path: "ambiguity", reason: 'must be one of: fail, requireConfirmation (got "ask")' },
    ]);
  });

  it.each(["exact", "compatible", "reextract"])("accepts revision policy %s", (revision) => {
    expectTaskOk(task("region.extract", { revision }));
  });

  it("rejects an unknown revision policy", () => {
    expect(taskIssues(task("region.extract", { revision: "latest" }))).toEqual([
      { path: "revision", reason: 'must be one of: exact, compatible, reextract (got "latest")' },
    ]);
  });

  it("accepts a scope entityKind from the Web IR kinds and rejects another", () => {
    expectTaskOk(
      task("region.extract", { scope: { regionName: "Results", entityKind: "table", entityName: "Orders" } }),
    );
    expect(taskIssues(task("region.extract", { scope: { regionName: "Results", entityKind: "grid" } }))).toEqual([
      { path: "scope.entityKind", reason: `must be one of: ${ENTITY_KINDS.join(", ")} (got "grid")` },
    ]);
  });

  it("reports each missing required field at its name", () => {
    for (const field of ["schemaVersion", "task", "scope", "limits", "risk"]) {
      const doc = task();
      delete doc[field];
      expect(taskIssues(doc)).toEqual([{ path: field, reason: "is required" }]);
    }
  });
});

describe("Task v1: inputs", () => {
  it("accepts 64 inputs and rejects 65 at inputs", () => {
    const inputs: Record<string, string> = {};
    for (let i = 0; i < 64; i++) inputs[`field${i}`] = `value ${i}`;
    expectTaskOk(task("form.fill", { inputs }));
    inputs.field64 = "one too many";
    expect(taskIssues(task("form.fill", { inputs }))).toEqual([
      { path: "inputs", reason: "must have at most 64 entries (got 65)" },
    ]);
  });

  it("accepts an input name of exactly 64 bytes (21 × 猫 + a) and rejects 65 (21 × 猫 + ab)", () => {
    const name64 = `${"猫".repeat(21)}a`;
    const name65 = `${"猫".repeat(21)}ab`;
    expect([utf8(name64), utf8(name65)]).toEqual([64, 65]);
    expectTaskOk(task("form.fill", { inputs: { [name64]: "v" } }));
    expect(taskIssues(task("form.fill", { inputs: { [name65]: "v" } }))).toEqual([
      { path: `inputs[${JSON.stringify(name65)}]`, reason: "must be at most 64 UTF-8 bytes (got 65)" },
    ]);
  });

  it("rejects an empty input name", () => {
    expect(taskIssues(task("form.fill", { inputs: { "": "v" } }))).toEqual([
      { path: 'inputs[""]', reason: "must not be empty" },
    ]);
  });

  it("accepts an input value of exactly 4096 bytes (1365 × 猫 + a) and rejects 4097", () => {
    const value4096 = `${"猫".repeat(1365)}a`;
    expect(utf8(value4096)).toBe(4096);
    expectTaskOk(task("form.fill", { inputs: { Email: value4096 } }));
    expect(taskIssues(task("form.fill", { inputs: { Email: `${value4096}b` } }))).toEqual([
      { path: "inputs.Email", reason: "must be at most 4096 UTF-8 bytes (got 4097)" },
    ]);
  });

  it("accepts a 4096-byte value of 1024 × 😀 and rejects 1024 × 😀 + a", () => {
    expectTaskOk(task("form.fill", { inputs: { Email: "😀".repeat(1024) } }));
    expect(taskIssues(task("form.fill", { inputs: { Email: `${"😀".repeat(1024)}a` } }))).toEqual([
      { path: "inputs.Email", reason: "must be at most 4096 UTF-8 bytes (got 4097)" },
    ]);
  });

  it.each([
    ["U+0000", "\u0000"],
    ["U+0009 tab", "\t"],
    ["U+000A line feed", "\n"],
    ["U+000D carriage return", "\r"],
    ["U+001F", "\u001f"],
    ["U+007F", "\u007f"],
    ["U+0080", "\u0080"],
    ["U+0085", "\u0085"],
    ["U+009F", "\u009f"],
  ])("rejects an input value containing the control character %s", (_label, ch) => {
    expect(taskIssues(task("form.fill", { inputs: { Email: `a${ch}b` } }))).toEqual([
      { path: "inputs.Email", reason: CONTROL_REASON },
    ]);
  });

  it.each([
    ["a space", " "],
    ["U+00A0 no-break space", "\u00a0"],
    ["U+2028 line separator", "\u2028"],
    ["U+3000 ideographic space", "\u3000"],
    ["U+FEFF", "\ufeff"],
  ])("accepts an input value containing %s (values forbid control characters, not whitespace)", (_label, ch) => {
    expectTaskOk(task("form.fill", { inputs: { Email: `a${ch}b` } }));
  });

  it("accepts an empty input value", () => {
    expectTaskOk(task("form.fill", { inputs: { note: "" } }));
  });

  it("rejects a non-string input value", () => {
    expect(taskIssues(task("form.fill", { inputs: { count: 3 } }))).toEqual([
      { path: "inputs.count", reason: "must be a string (got number)" },
    ]);
  });

  it("quotes an input name that is not a plain identifier in the path", () => {
    expect(taskIssues(task("form.fill", { inputs: { "first name": "a\nb" } }))).toEqual([
      { path: 'inputs["first name"]', reason: CONTROL_REASON },
    ]);
  });
});

describe("Task v1: limits", () => {
  it.each([
    ["maxActions", 1, 256],
    ["timeoutMs", 1, 120_000],
    ["maxItems", 1, 4096],
  ])("%s accepts %d and %d and rejects one below and one above", (field, min, max) => {
    const withLimit = (value: number) =>
      task("region.extract", { limits: { maxActions: 5, timeoutMs: 4000, maxItems: 20, [field]: value } });
    expectTaskOk(withLimit(min));
    expectTaskOk(withLimit(max));
    expect(taskIssues(withLimit(min - 1))).toEqual([
      { path: `limits.${field}`, reason: `must be at least ${min} (got ${min - 1})` },
    ]);
    expect(taskIssues(withLimit(max + 1))).toEqual([
      { path: `limits.${field}`, reason: `must be at most ${max} (got ${max + 1})` },
    ]);
  });

  it("rejects a fractional limit", () => {
    expect(taskIssues(task("region.extract", { limits: { maxActions: 1.5, timeoutMs: 4000, maxItems: 20 } }))).toEqual([
      { path: "limits.maxActions", reason: "must be an integer (got number)" },
    ]);
  });

  it("requires all three limits", () => {
    expect(taskIssues(task("region.extract", { limits: { maxActions: 5 } }))).toEqual([
      { path: "limits.timeoutMs", reason: "is required" },
      { path: "limits.maxItems", reason: "is required" },
    ]);
  });
});

describe("Task v1: postconditions", () => {
  it("accepts 32 postconditions and rejects 33", () => {
    const postconditions = Array.from({ length: 32 }, (_, i) => ({ kind: "regionPresent", expected: `Region ${i}` }));
    expectTaskOk(task("region.extract", { postconditions }));
    postconditions.push({ kind: "regionPresent", expected: "one too many" });
    expect(taskIssues(task("region.extract", { postconditions }))).toEqual([
      { path: "postconditions", reason: "must have at most 32 items (got 33)" },
    ]);
  });

  it("accepts a postcondition without expected; refuses a kind the daemon does not know and an expected value that is not a string (the daemon cannot read them)", () => {
    expectTaskOk(task("region.extract", { postconditions: [{ kind: "recordsExtracted" }] }));
    expect(
      taskIssues(
        task("region.extract", { postconditions: [{ kind: "count" }, { kind: "recordsExtracted", expected: 3 }] }),
      ),
    ).toEqual([
      { path: "postconditions[0].kind", reason: expect.stringContaining("must be one of") },
      { path: "postconditions[1].expected", reason: expect.stringContaining("string") },
    ]);
  });

  it("rejects a postcondition kind the family does not accept, and what the daemon refuses of an expected value", () => {
    expect(taskIssues(task("region.extract", { postconditions: [{ kind: "navigationOccurred" }] }))).toEqual([
      { path: "postconditions[0].kind", reason: "postcondition kind is incompatible with the task family" },
    ]);
    expect(
      taskIssues(task("region.extract", { postconditions: [{ kind: "recordsExtracted", expected: "21" }] })),
    ).toEqual([{ path: "postconditions[0].expected", reason: "recordsExtracted expected exceeds task maxItems" }]);
    expect(
      taskIssues(task("form.fill", { postconditions: [{ kind: "entityState", expected: "Email.visible=true" }] })),
    ).toEqual([
      { path: "postconditions[0].expected", reason: "entityState selector, state, or boolean value is invalid" },
    ]);
  });

  it("requires postcondition kind", () => {
    expect(taskIssues(task("region.extract", { postconditions: [{ expected: "1" }] }))).toEqual([
      { path: "postconditions[0].kind", reason: "is required" },
    ]);
  });
});

describe("Task v1: closed objects", () => {
  it.each([
    [
      "the task root",
      (doc: Doc) => (doc.draft = true),
      "draft",
      "schemaVersion, task, scope, inputs, limits, risk, ambiguity, revision, postconditions",
    ],
    ["scope", (doc: Doc) => (doc.scope.selector = "#x"), "scope.selector", "regionName, entityKind, entityName"],
    ["limits", (doc: Doc) => (doc.limits.retries = 1), "limits.retries", "maxActions, timeoutMs, maxItems"],
    [
      "a postcondition",
      (doc: Doc) => (doc.postconditions[0].timeoutMs = 1),
      "postconditions[0].timeoutMs",
      "kind, expected",
    ],
  ])("rejects an unknown field in %s", (_label, mutate, path, allowed) => {
    const doc = task();
    mutate(doc);
    expect(taskIssues(doc)).toEqual([{ path, reason: `is not allowed (unknown field); allowed fields: ${allowed}` }]);
  });
});

describe("Task v1: family rules", () => {
  it("form.fill without inputs is rejected with the daemon's exact wording", () => {
    const doc = task("form.fill");
    delete doc.inputs;
    expect(taskIssues(doc)).toEqual([{ path: "inputs", reason: "form.fill requires at least one bounded input" }]);
  });

  it("form.fill with empty inputs {} is rejected the same way", () => {
    expect(taskIssues(task("form.fill", { inputs: {} }))).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
    ]);
  });

  it("form.fill with one input is accepted", () => {
    expectTaskOk(task("form.fill", { inputs: { Email: "reader@news.example" } }));
  });

  it("form.fill with neither inputs nor region reports inputs first, then the region", () => {
    expect(taskIssues(task("form.fill", { inputs: {}, scope: { entityKind: "form" } }))).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
      { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
    ]);
  });

  it("form.submit without postconditions is rejected", () => {
    const doc = task("form.submit");
    delete doc.postconditions;
    expect(taskIssues(doc)).toEqual([
      { path: "postconditions", reason: "form.submit requires at least one bounded postcondition" },
    ]);
    expect(taskIssues(task("form.submit", { postconditions: [] }))).toEqual([
      { path: "postconditions", reason: "form.submit requires at least one bounded postcondition" },
    ]);
  });

  it("navigation.follow without inputs.url is rejected", () => {
    expect(taskIssues(task("navigation.follow", { inputs: { Email: "x" } }))).toEqual([
      { path: "inputs.url", reason: "navigation.follow requires a bounded url input" },
    ]);
    const doc = task("navigation.follow");
    delete doc.inputs;
    expect(taskIssues(doc)).toEqual([{ path: "inputs.url", reason: "navigation.follow requires a bounded url input" }]);
  });

  it("navigation.follow with an empty url is rejected", () => {
    expect(taskIssues(task("navigation.follow", { inputs: { url: "" } }))).toEqual([
      { path: "inputs.url", reason: "navigation.follow requires a bounded url input" },
    ]);
  });

  it("a family of one input takes no other input beside it, and the others none at all", () => {
    expect(taskIssues(task("navigation.follow", { inputs: { url: "https://news.example/", Email: "x" } }))).toEqual([
      { path: "inputs", reason: "input names are incompatible with the task family" },
    ]);
    expect(taskIssues(task("table.extract", { inputs: { Email: "x" } }))).toEqual([
      { path: "inputs", reason: "input names are incompatible with the task family" },
    ]);
  });

  it("the scope names a region or an entity, an entity name with its kind, a kind the family works on", () => {
    expect(taskIssues(task("dialog.confirm", { scope: {} }))).toEqual([
      { path: "scope", reason: "scope requires a semantic region or entity constraint" },
    ]);
    expect(taskIssues(task("dialog.confirm", { scope: { entityName: "Delete order" } }))).toEqual([
      { path: "scope.entityKind", reason: "entityName requires entityKind" },
    ]);
    expect(taskIssues(task("navigation.follow", { scope: { entityKind: "link", entityName: "Archive" } }))).toEqual([
      { path: "scope.entityKind", reason: "entity kind is incompatible with the task family" },
    ]);
    expect(taskIssues(task("region.extract", { scope: { regionName: "Results", entityKind: "row" } }))).toEqual([
      { path: "scope.entityKind", reason: "entity kind is incompatible with region extraction" },
    ]);
  });

  it.each(REGION_KINDS)("%s without scope.regionName is rejected at scope.regionName", (kind) => {
    expect(taskIssues(task(kind, { scope: { entityKind: FAMILY_ENTITY_KIND[kind] } }))).toEqual([
      { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
    ]);
  });

  it.each(REGION_KINDS)(
    "%s with only scope.entityName still needs scope.regionName (and the entity's kind first)",
    (kind) => {
      expect(taskIssues(task(kind, { scope: { entityName: "Email" } }))).toEqual([
        { path: "scope.entityKind", reason: "entityName requires entityKind" },
        { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
      ]);
    },
  );

  it.each(TASK_KINDS.filter((kind) => !REGION_KINDS.includes(kind)))("%s does not need scope.regionName", (kind) => {
    expectTaskOk(task(kind, { scope: { entityKind: FAMILY_ENTITY_KIND[kind] } }));
  });

  it("rejects an empty regionName as a string rule, not as a missing region", () => {
    expect(taskIssues(task("region.extract", { scope: { regionName: "" } }))).toEqual([
      { path: "scope.regionName", reason: "must not be empty" },
    ]);
  });

  it("accepts a regionName of exactly 256 bytes and rejects 257", () => {
    expectTaskOk(task("region.extract", { scope: { regionName: `${"猫".repeat(85)}a` } }));
    expect(taskIssues(task("region.extract", { scope: { regionName: `${"猫".repeat(85)}ab` } }))).toEqual([
      { path: "scope.regionName", reason: "must be at most 256 UTF-8 bytes (got 257)" },
    ]);
  });
});

describe("task.compile and task.execute payloads", () => {
  it("task.compile accepts a task with its source ir", () => {
    expectOk("task.compile", { task: task(), ir: ir() });
  });

  it("task.compile requires ir", () => {
    expect(issuesOf("task.compile", { task: task() })).toEqual([{ path: "ir", reason: "is required" }]);
  });

  it("task.compile requires task", () => {
    expect(issuesOf("task.compile", { ir: ir() })).toEqual([{ path: "task", reason: "is required" }]);
  });

  it("task.compile rejects the legacy draft field", () => {
    const issues = issuesOf("task.compile", { task: task(), draft: ir() });
    expect(issues).toHaveLength(2);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "ir", reason: "is required" },
        { path: "draft", reason: "is not allowed (unknown field); allowed fields: task, ir" },
      ]),
    );
  });

  it("task.compile checks both documents (a Task rule and a Web IR rule together)", () => {
    const doc = ir();
    doc.entities[2].evidenceSources = [];
    expect(issuesOf("task.compile", { task: task("form.fill", { inputs: {} }), ir: doc })).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
      { path: "entities[2].evidenceSources", reason: "positive entities require source provenance" },
    ]);
  });

  it("task.execute requires expectedRevision", () => {
    expect(issuesOf("task.execute", { task: task() })).toEqual([{ path: "expectedRevision", reason: "is required" }]);
  });

  it("task.execute accepts expectedRevision 0 and confirmed", () => {
    expectOk("task.execute", { task: task(), expectedRevision: 0, confirmed: true });
  });

  it("task.execute rejects a negative expectedRevision", () => {
    expect(issuesOf("task.execute", { task: task(), expectedRevision: -1 })).toEqual([
      { path: "expectedRevision", reason: "must be at least 0 (got -1)" },
    ]);
  });

  it("task.validate requires task and rejects unknown fields", () => {
    expect(issuesOf("task.validate", {})).toEqual([{ path: "task", reason: "is required" }]);
    expect(issuesOf("task.validate", { task: task(), ir: ir() })).toEqual([
      { path: "ir", reason: "is not allowed (unknown field); allowed fields: task" },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Browser payloads and operations outside the catalog
// ---------------------------------------------------------------------------------------------

describe("browser payloads", () => {
  it("browser.click needs target", () => {
    expect(issuesOf("browser.click", {})).toEqual([{ path: "target", reason: "is required" }]);
  });

  it("browser.click accepts target with and without expectedRevision", () => {
    expectOk("browser.click", { target: "ref=r7:b42" });
    expectOk("browser.click", { target: "button[type=submit]", expectedRevision: 7 });
  });

  it("browser.click rejects an empty target and a negative expectedRevision", () => {
    expect(issuesOf("browser.click", { target: "" }).map((issue) => issue.path)).toEqual(["target"]);
    expect(issuesOf("browser.click", { target: "#go", expectedRevision: -1 }).map((issue) => issue.path)).toEqual([
      "expectedRevision",
    ]);
  });

  it("browser.click rejects an unknown field", () => {
    expect(issuesOf("browser.click", { target: "#go", button: "right" })).toEqual([
      { path: "button", reason: "is not allowed (unknown field); allowed fields: target, expectedRevision" },
    ]);
  });

  it("browser.click rejects the MCP-only field includeTrace (not part of the canonical payload)", () => {
    expect(issuesOf("browser.click", { target: "#go", includeTrace: true }).map((issue) => issue.path)).toEqual([
      "includeTrace",
    ]);
  });

  it.each(["fixed", "chain"])(
    "browser.batch with mode %s but no expectedRevision is rejected at expectedRevision",
    (mode) => {
      expect(issuesOf("browser.batch", { steps: [{ tool: "click", target: "#go" }], mode, atomic: false })).toEqual([
        { path: "expectedRevision", reason: "is required when mode is fixed or chain" },
      ]);
    },
  );

  it.each(["fixed", "chain"])("browser.batch with mode %s and expectedRevision is accepted", (mode) => {
    expectOk("browser.batch", { steps: [{ tool: "click", target: "#go" }], mode, atomic: true, expectedRevision: 3 });
  });

  it("browser.batch unguarded or without mode needs no expectedRevision", () => {
    expectOk("browser.batch", { steps: [], mode: "unguarded", atomic: false });
    expectOk("browser.batch", { steps: [], atomic: false });
  });

  it("browser.batch accepts 32 steps and rejects 33", () => {
    expectOk("browser.batch", { steps: Array.from({ length: 32 }, () => ({ tool: "scroll" })), atomic: false });
    expect(
      issuesOf("browser.batch", { steps: Array.from({ length: 33 }, () => ({ tool: "scroll" })), atomic: false }),
    ).toEqual([{ path: "steps", reason: "must have at most 32 items (got 33)" }]);
  });

  it("browser.batch rejects an unknown mode", () => {
    expect(issuesOf("browser.batch", { steps: [], atomic: false, mode: "strict" }).map((issue) => issue.path)).toEqual([
      "mode",
    ]);
  });

  it("browser.scroll accepts {} and offsets", () => {
    expectOk("browser.scroll", {});
    expectOk("browser.scroll", { dx: -10.5, dy: 0, expectedRevision: 1 });
  });

  it("browser.upload accepts 1 and 16 files and rejects 0 and 17", () => {
    expectOk("browser.upload", { target: "#file", files: ["/tmp/a.pdf"] });
    expectOk("browser.upload", { target: "#file", files: Array.from({ length: 16 }, (_, i) => `/tmp/${i}.pdf`) });
    expect(issuesOf("browser.upload", { target: "#file", files: [] }).map((issue) => issue.path)).toEqual(["files"]);
    expect(
      issuesOf("browser.upload", { target: "#file", files: Array.from({ length: 17 }, (_, i) => `/tmp/${i}.pdf`) }),
    ).toEqual([{ path: "files", reason: "must have at most 16 items (got 17)" }]);
  });
});

describe("browser.verify predicates: one key naming the check, as the daemon reads them", () => {
  it("accepts each check and nested all/any/not", () => {
    expectOk("browser.verify", { predicate: { titleContains: "My loans" } });
    expectOk("browser.verify", { predicate: { urlEquals: "https://library.example/account/loans" }, timeoutMs: 2_000 });
    expectOk("browser.verify", { predicate: { revisionEquals: 12 } });
    expectOk("browser.verify", { predicate: { visible: "ref=r12:b7" } });
    expectOk("browser.verify", {
      predicate: {
        all: [
          { urlEquals: "https://library.example/" },
          { not: { titleContains: "Error" } },
          { any: [{ dialogOpen: true }, { popupOpened: true }] },
        ],
      },
    });
  });

  it("rejects a predicate written as {kind} and an unknown check, saying what a predicate is", () => {
    const reason =
      'must be an object with exactly one of the keys urlEquals, titleContains, visible, textContains, popupOpened, dialogOpen, downloadStarted, revisionEquals, all, any, not (e.g. {"titleContains": "Checkout"})';
    expect(issuesOf("browser.verify", { predicate: { kind: "titleContains", text: "My loans" } })).toEqual([
      { path: "predicate", reason },
    ]);
    expect(issuesOf("browser.verify", { predicate: { titleMatches: "a" } })).toEqual([{ path: "predicate", reason }]);
  });

  it("rejects two checks in one object at the extra key", () => {
    expect(
      issuesOf("browser.verify", { predicate: { urlEquals: "b", titleContains: "a" } }).map((issue) => issue.path),
    ).toEqual(["predicate.titleContains"]);
  });

  it("checks nested predicates where they are", () => {
    expect(issuesOf("browser.verify", { predicate: { all: [{ titleContains: "a" }, { titleContains: 7 }] } })).toEqual([
      { path: "predicate.all[1].titleContains", reason: "must be a string (got number)" },
    ]);
    expect(issuesOf("browser.verify", { predicate: { all: [] } }).map((issue) => issue.path)).toEqual([
      "predicate.all",
    ]);
  });
});

describe("operations outside the catalog", () => {
  it.each([
    ["an object", { path: "src/index.ts" }],
    ["null", null],
    ["a string", "text"],
    ["a number", 5],
    ["an array", [1, { a: [] }]],
  ])("browser.project.read accepts %s as payload", (_label, payload) => {
    expectOk("browser.project.read", payload);
  });

  it("browser.project.read still rejects a function inside the payload", () => {
    expect(issuesOf("browser.project.read", { path: "a", filter: () => true })).toEqual([
      { path: "filter", reason: "is a function, which is not JSON" },
    ]);
  });
});
