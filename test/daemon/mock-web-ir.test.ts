/**
 * The Web IR the mock daemon's simulated site extracts (what `createMockGlass` answers
 * `browser.extractWebIr` with, and what tests pass on to `webIr.*` and `task.*`) is a document the
 * real daemon accepts: its validator, inspector and task compiler take it as they take their own.
 */
import { describe, expect, it } from "vitest";
import type { Glass, WebIrDocument } from "glass-sdk";
import { createSimulatedSite } from "../../src/mock-daemon/site/index.js";
import { stdioLabClient } from "./support/lab-client.js";
import { requireInstalledDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

/** The simulated shop's Web IR on its sign-in page and on its orders page. */
const PAGES: Record<string, WebIrDocument> = {
  "the sign-in page": createSimulatedSite().webIr(),
  "the orders page": createSimulatedSite({ signedIn: true, startPath: "/orders" }).webIr(),
};

describe("the mock's Web IR on the real daemon", () => {
  let glass: Glass;
  stdioLabClient((client) => {
    ({ glass } = client);
  });

  it.each(Object.entries(PAGES))("validates and inspects the IR of %s", async (_page, ir) => {
    expect(await glass.webIr.validate({ ir })).toEqual({ valid: true, schemaVersion: 1, revision: ir.revision });
    const inspected = await glass.webIr.inspect({ ir });
    expect(inspected).toMatchObject({
      revision: ir.revision,
      entityCount: ir.entities.length,
      relationshipCount: ir.relationships.length,
    });
  });

  it("diffs the two pages' IR", async () => {
    const [before, after] = Object.values(PAGES) as [WebIrDocument, WebIrDocument];
    const diff = await glass.webIr.diff({
      before,
      after: {
        ...after,
        revision: before.revision + 1,
        document: { ...after.document, revision: before.revision + 1 },
      } as WebIrDocument,
    });
    expect(diff).toMatchObject({ fromRevision: before.revision, toRevision: before.revision + 1 });
  });
});
