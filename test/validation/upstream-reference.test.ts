import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateRequest, validateResponse } from "glass-sdk";
import type { GoldenFixture } from "../support/golden-fixture.js";

/**
 * Upstream Glass data lives outside the project (it is not ours to copy in). Point
 * GLASS_REFERENCE_DIR at it; by default the shared reference folder next to the checkout is used.
 */
const referenceDir =
  process.env.GLASS_REFERENCE_DIR ?? fileURLToPath(new URL("../../../shared/reference/glass/", import.meta.url));
const goldens = existsSync(referenceDir)
  ? readdirSync(referenceDir).filter((f) => /^protocol-golden-v1\..*\.json$/.test(f))
  : [];

describe.skipIf(goldens.length === 0)(`upstream golden fixtures (${referenceDir})`, () => {
  it.each(goldens)("%s: every envelope is accepted except the deliberate invalid responses", (file) => {
    const fixture = JSON.parse(readFileSync(`${referenceDir}/${file}`, "utf8")) as GoldenFixture;
    for (const request of fixture.requests)
      expect(validateRequest(request), JSON.stringify(request).slice(0, 80)).toMatchObject({ ok: true });
    for (const response of fixture.responses)
      expect(validateResponse(response), String(response.requestId)).toMatchObject({ ok: true });
    for (const response of fixture.invalidResponses ?? []) {
      const checked = validateResponse(response);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.issues[0]!.path).not.toBe("");
    }
  });
});
