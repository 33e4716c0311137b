import { describe, expectTypeOf, it } from "vitest";
import type {
  BrowserObservePayload,
  BrowserObserveResult,
  BrowserPageContext,
  BrowserSemanticObservation,
  BrowserSessionSnapshotDiffResult,
  BrowserSessionSnapshotListResult,
  BrowserSessionSnapshotPayload,
  BrowserSessionSnapshotPurgeResult,
  BrowserSessionSnapshotResult,
  BrowserSessionSnapshotSingleResult,
  Glass,
} from "glass-sdk";

declare const glass: Glass;

describe("result overloads (catalog resultCases)", () => {
  it("resolves browser.observe with a level to a semantic observation, without one to the page context", async () => {
    const observation = await glass.browser.observe({ level: "interactive" });
    expectTypeOf(observation).toEqualTypeOf<BrowserSemanticObservation>();
    expectTypeOf(observation.revision).toBeNumber();
    expectTypeOf(glass.browser.observe()).resolves.toEqualTypeOf<BrowserPageContext>();
    expectTypeOf(glass.browser.observe({ includeScreenshot: true })).resolves.toEqualTypeOf<BrowserPageContext>();
  });

  it("resolves browser.observe with a payload whose level is not known statically to the full result", () => {
    const payload: BrowserObservePayload = Math.random() > 0.5 ? { level: "summary" } : {};
    expectTypeOf(glass.browser.observe(payload)).resolves.toEqualTypeOf<BrowserObserveResult>();
  });

  it("resolves browser.sessionSnapshot by its operation, list when it is absent", () => {
    expectTypeOf(
      glass.browser.sessionSnapshot({ operation: "list" }),
    ).resolves.toEqualTypeOf<BrowserSessionSnapshotListResult>();
    expectTypeOf(glass.browser.sessionSnapshot({})).resolves.toEqualTypeOf<BrowserSessionSnapshotListResult>();
    expectTypeOf(
      glass.browser.sessionSnapshot({ operation: "create" }),
    ).resolves.toEqualTypeOf<BrowserSessionSnapshotSingleResult>();
    expectTypeOf(
      glass.browser.sessionSnapshot({ operation: "inspect", from: "snap-12-0123456789ab" }),
    ).resolves.toEqualTypeOf<BrowserSessionSnapshotSingleResult>();
    expectTypeOf(
      glass.browser.sessionSnapshot({ operation: "diff", from: "snap-11-0123456789ab", to: "snap-12-0123456789ab" }),
    ).resolves.toEqualTypeOf<BrowserSessionSnapshotDiffResult>();
    expectTypeOf(
      glass.browser.sessionSnapshot({ operation: "purge" }),
    ).resolves.toEqualTypeOf<BrowserSessionSnapshotPurgeResult>();
    const payload = { operation: "list" } as BrowserSessionSnapshotPayload;
    expectTypeOf(glass.browser.sessionSnapshot(payload)).resolves.toEqualTypeOf<BrowserSessionSnapshotResult>();
  });
});
