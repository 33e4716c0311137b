import type { WebIrDocument } from "glass-sdk";

/**
 * Builds a valid Web IR v1 document of about `targetBytes` of compact JSON: a page with regions,
 * forms, fields, links and table cells, each contained by the page or a region.
 */
export function webIrSample(targetBytes: number, revision = 7, renamed = 0): WebIrDocument {
  const kinds = ["region", "form", "field", "action", "link", "table", "row", "cell"] as const;
  const doc: WebIrDocument = {
    schemaVersion: 1,
    revision,
    document: {
      revision,
      url: "https://shop.example/checkout",
      title: "Checkout — Zahlung & Lieferung",
      readyState: "complete",
    },
    entities: [{ id: "page", kind: "page", quality: "confirmed", evidenceSources: ["dom", "accessibility"] }],
    relationships: [],
    coverage: {
      structural: "strong",
      semantic: "partial",
      interactiveEntitiesObserved: 0,
      opaqueRegions: 0,
      reasons: [],
    },
    limits: { truncated: false, omittedFacts: 0, textBytes: 0, missingSources: [] },
  };
  let region = "page";
  let bytes = JSON.stringify(doc).length;
  for (let i = 1; bytes < targetBytes && i < 4096; i++) {
    const kind = kinds[i % kinds.length]!;
    const id = `${kind}-${i}`;
    const entity = {
      id,
      kind,
      role: kind === "field" ? "textbox" : kind,
      name: `${kind} ${i}${i <= renamed ? " (edited)" : ""} — Straße ${i}`,
      quality: i % 3 === 0 ? ("strong" as const) : ("confirmed" as const),
      evidenceSources: i % 2 === 0 ? (["dom", "accessibility"] as const) : (["dom"] as const),
    };
    const relationship = { from: region, to: id, kind: "contains" as const };
    doc.entities.push({ ...entity, evidenceSources: [...entity.evidenceSources] });
    doc.relationships.push(relationship);
    bytes += JSON.stringify(entity).length + JSON.stringify(relationship).length + 2;
    if (kind === "region") region = id;
  }
  doc.coverage.interactiveEntitiesObserved = doc.entities.filter((e) =>
    ["field", "action", "link"].includes(e.kind),
  ).length;
  return doc;
}

/** A `webIr.diff` payload of about `targetBytes` in total: two revisions of one page. */
export function webIrDiffSample(targetBytes: number): { before: WebIrDocument; after: WebIrDocument } {
  return { before: webIrSample(targetBytes / 2, 7), after: webIrSample(targetBytes / 2, 8, 10) };
}
