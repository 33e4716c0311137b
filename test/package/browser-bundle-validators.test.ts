import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readGoldenFixture } from "../support/golden-fixture.js";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const bundlePath = `${dist}browser/glass-sdk.browser.min.js`;

/** Text only the compiled validators contain (the compact ones build this reason from the field list). */
const COMPILED_ONLY =
  "allowed fields: protocolVersion, requestId, correlationId, sessionId, mutationLease, operation, payload, deadlineMs";

describe.skipIf(!existsSync(bundlePath))("validators in the builds (run `npm run build` first)", () => {
  it("the browser bundle validates with the compact validators, not the compiled ones", () => {
    const text = readFileSync(bundlePath, "utf8");
    expect(text).not.toContain(COMPILED_ONLY);
    expect(text).toContain("allowed fields: ${");
    expect(text).not.toMatch(/\beval\(|new Function\b/);
  });

  it("the Node builds keep the compiled validators", () => {
    const esm = readdirSync(dist).filter((file) => file.endsWith(".js") && file !== "cli.js");
    const cjs = readdirSync(dist).filter((file) => file.endsWith(".cjs"));
    for (const files of [esm, cjs]) {
      expect(files.some((file) => readFileSync(`${dist}${file}`, "utf8").includes(COMPILED_ONLY))).toBe(true);
    }
  });

  it("the browser bundle's validators answer as the Node build's, on the golden fixture and broken copies of it", async () => {
    type Validators = typeof import("glass-sdk");
    const browser = (await import(bundlePath)) as Validators;
    const node = (await import(`${dist}index.js`)) as Validators;
    const fixture = readGoldenFixture();
    let compared = 0;
    const same = (run: (v: Validators) => unknown): void => {
      expect(run(browser)).toEqual(run(node));
      compared++;
    };
    for (const request of fixture.requests) {
      const broken: Record<string, unknown> = {
        ...request,
        requestId: " ",
        extra: 1,
        payload: { ...(request.payload as object), unknownField: true },
      };
      for (const value of [request, broken]) {
        same((v) => v.validateRequest(value));
        same((v) => v.validatePayload(String(value.operation), value.payload));
      }
    }
    for (const response of [...fixture.responses, ...(fixture.invalidResponses ?? [])]) {
      same((v) => v.validateResponse(response));
      same((v) => v.validateResponse({ ...response, extra: 1 }, { strict: true }));
    }
    expect(compared).toBeGreaterThan(50);
  });
});
