import { describe, expect, it } from "vitest";
import type { WebIrDocument } from "../../generated/types/web-ir-v1.js";
import { DOCUMENT_MEMBERS, webIrDocument } from "../../src/operations/web-ir-document.js";

describe("webIrDocument", () => {
  it("keeps the document's own members and leaves detailAvailability and anything else behind", () => {
    const entities = [{ id: "page" }];
    const extracted = {
      schemaVersion: 1,
      revision: 4,
      entities,
      detailAvailability: { entityDetails: "omitted" },
      extra: true,
    } as unknown as WebIrDocument;
    const document = webIrDocument(extracted);
    expect(document).toEqual({ schemaVersion: 1, revision: 4, entities });
    expect(document).not.toBe(extracted);
    // The members' values are the answer's own, not copies.
    expect(document.entities).toBe(entities);
  });

  it("leaves a member the answer lacks, or holds as undefined, absent", () => {
    const document = webIrDocument({ schemaVersion: 1, diagnostics: undefined } as unknown as WebIrDocument);
    expect(Object.keys(document)).toEqual(["schemaVersion"]);
  });

  it("does not take a member the answer only inherits", () => {
    const inherited = Object.create({ revision: 9 }) as Record<string, unknown>;
    inherited.schemaVersion = 1;
    expect(webIrDocument(inherited as unknown as WebIrDocument)).toEqual({ schemaVersion: 1 });
  });

  it("copies a whole document member for member", () => {
    const full = Object.fromEntries(DOCUMENT_MEMBERS.map((member, i) => [member, i])) as unknown as WebIrDocument;
    expect(webIrDocument(full)).toEqual(full);
    expect(new Set(DOCUMENT_MEMBERS).size).toBe(DOCUMENT_MEMBERS.length);
  });
});
