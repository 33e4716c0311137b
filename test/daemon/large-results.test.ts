/**
 * Large answers of the real daemon that the SDK must read and validate whole: a full-page
 * screenshot of a tall page, and a 5 000-item page's DOM, text and observation.
 */
import { describe, expect, it } from "vitest";
import { type Glass, GlassError } from "glass-sdk";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import type { LabServer } from "./support/lab-server.js";
import { stdioLabClient } from "./support/lab-client.js";

requireInstalledDaemon();

/** The width and height a PNG's IHDR chunk states. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64.slice(0, 64), "base64");
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("large results from the real daemon", () => {
  let glass: Glass;
  let lab: LabServer;
  stdioLabClient((client) => {
    ({ glass, lab } = client);
  });

  it("a full-page screenshot of the tall lab page is a PNG taller than the viewport, its metadata matching the image", async () => {
    await glass.browser.navigate({ url: lab.url("/lab") });
    const viewport = await glass.browser.screenshot({ format: "png" });
    const full = await glass.browser.screenshot({ format: "png", fullPage: true });
    expect(full.image.mimeType).toBe("image/png");
    const fullSize = pngSize(full.image.data);
    const viewportSize = pngSize(viewport.image.data);
    expect(fullSize.width).toBe(viewportSize.width);
    expect(fullSize.height).toBeGreaterThan(viewportSize.height);
    expect(full).toMatchObject({ format: "png" });
    if (typeof full.width === "number") expect(full.width).toBe(fullSize.width);
    if (typeof full.height === "number") expect(full.height).toBe(fullSize.height);
    const bytes = Buffer.from(full.image.data, "base64").length;
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it("a 5 000-item page: getDOM validates whole, getText is cut at 16 KiB with a [truncated] mark", async () => {
    await glass.browser.navigate({ url: lab.url("/large?n=5000") }, { deadlineMs: 30_000 });
    const dom = await glass.browser.getDOM({});
    const domBytes = JSON.stringify(dom).length;
    expect(domBytes).toBeGreaterThan(5000 * 100);
    expect(domBytes).toBeLessThan(16 * 1024 * 1024);
    expect(JSON.stringify(dom)).toContain("Item 4999");
    const { text } = await glass.browser.getText({});
    expect(text.startsWith("5000 items\nItem 0\nItem 1\n")).toBe(true);
    expect(Buffer.byteLength(text)).toBe(16 * 1024);
    expect(text.endsWith("\n[truncated]")).toBe(true);
  });

  it("observe stays bounded on a 2 000-item page (truncated, a few dozen targets); on 5 000 items it fits its time budget or fails opaquely", async () => {
    await glass.browser.navigate({ url: lab.url("/large?n=2000") }, { deadlineMs: 30_000 });
    const page = await glass.browser.observe({ level: "interactive" });
    const targets = page.regions.flatMap((region) => region.targets ?? []);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.length).toBeLessThanOrEqual(64);
    expect(page.limits).toMatchObject({ truncated: true });
    expect(JSON.stringify(page).length).toBeLessThan(64 * 1024);
    await glass.browser.navigate({ url: lab.url("/large?n=5000") }, { deadlineMs: 30_000 });
    // The daemon gives an observation about 3 s; past it the reason is dropped ("browser tool failed").
    const outcome = await glass.browser.observe({ level: "summary" }).then(
      (summary) => ({ truncated: summary.limits?.truncated }),
      (error: unknown) =>
        error instanceof GlassError
          ? {
              code: error.code,
              mutationPossible: error.mutationPossible,
              kind: (error.details as { kind?: string }).kind,
            }
          : { thrown: String(error) },
    );
    expect([
      { truncated: true },
      { code: "tool.failed", mutationPossible: false, kind: "opaqueToolFailure" },
    ]).toContainEqual(outcome);
  });
});
