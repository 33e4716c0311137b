/**
 * Contract tests of signIn (sign-in.ts), a function of your own, without a browser:
 *
 * (a) with typed handlers written here, one per operation the function uses: the page it sees and
 *     the failures it meets are the test's to decide (a stale revision once, then success);
 * (b) against the mock's simulated shop (`createMockGlass()`): a sign-in page, then the orders;
 * (c) over HTTP with `httpTransport`, the MSW handlers of glass-sdk/testing/msw intercepting fetch.
 *
 *   npx vitest run examples/contract-test
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError, httpTransport, type ResultOf } from "glass-sdk";
import { createMockGlass, mockError } from "glass-sdk/testing";
import { createGlassHandlers } from "glass-sdk/testing/msw";
import { signIn } from "./sign-in.js";

describe("signIn with typed handlers", () => {
  /** The document a daemon reference names (`r<revision>:c<document>:b<node>`): one per page load. */
  const DOCUMENT = "0b8a2c1e-5d3f-4e6a-9b7c-1d2e3f4a5b6c";
  const ref = (revision: number, node: number): string => `r${revision}:c${DOCUMENT}:b${node}`;

  /** The page at `revision`, as the daemon observes the example shop: the sign-in form until signed in, then the orders. */
  function page(revision: number, signedIn: boolean): ResultOf<"browser.observe"> {
    const url = signedIn ? "https://shop.test/orders" : "https://shop.test/login";
    const title = signedIn ? "Orders · Shop" : "Sign in · Shop";
    const flags = { readOnly: false, required: false, empty: false };
    const targets = signedIn
      ? [
          { reference: ref(revision, 42), role: "link", name: "Orders", ...flags },
          { reference: ref(revision, 43), role: "link", name: "Sign out", ...flags },
        ]
      : [
          { reference: ref(revision, 6), role: "RootWebArea", name: title, ...flags },
          { reference: ref(revision, 3), role: "textbox", name: "Email", ...flags },
          { reference: ref(revision, 4), role: "textbox", name: "Password", ...flags },
          { reference: ref(revision, 5), role: "button", name: "Sign in", ...flags },
        ];
    const route = { targetId: "A4FCEBC0B12B6BC961B675ACA8EDA1D0", frameId: "A4FCEBC0B12B6BC961B675ACA8EDA1D0", url };
    const region = signedIn
      ? { id: "region_navigation_1", label: "Site navigation", kind: "navigation" as const }
      : { id: "region_form_1", label: "Sign in", kind: "form" as const };
    return {
      schemaVersion: 1,
      revision,
      level: "interactive",
      route,
      page: {
        kind: signedIn ? "generic" : "authentication",
        title,
        url,
        targetId: route.targetId,
        frameId: route.frameId,
        confidence: signedIn ? "unknown" : "high",
      },
      regions: [{ ...region, interactiveCount: targets.length, confidence: "exact", targets }],
      limits: { truncated: false, omittedRegions: 0, omittedTargets: 0, omittedStructuredRecords: 0 },
    };
  }

  it("observes again and signs in when the page moved on before its first fillForm", async () => {
    let revision = 1;
    let signedIn = false;
    let fillForms = 0;
    const mock = createMockGlass({
      handlers: {
        "browser.observe": () => page(revision, signedIn),
        "browser.fillForm": (payload) => {
          fillForms++;
          if (fillForms === 1) {
            revision++; // something else changed the page after signIn observed it
            throw mockError(
              "staleRevision",
              `expected revision ${payload.expectedRevision} but the page is at revision ${revision}`,
            );
          }
          revision++;
          return { executionId: `act_${revision}` };
        },
        "browser.click": (payload) => {
          if (payload.target !== ref(revision, 5))
            throw mockError("target.notFound", `no element ${String(payload.target)}`);
          signedIn = true;
          revision++;
          return { executionId: `act_${revision}` };
        },
      },
    });
    const glass = await Glass.connect(mock.transport());

    expect(await signIn(glass, "ada@example.com", "correct horse")).toBe("Orders · Shop");

    expect(mock.calls.map((call) => call.operation)).toEqual([
      "browser.observe",
      "browser.fillForm", // staleRevision
      "browser.observe",
      "browser.fillForm",
      "browser.observe",
      "browser.fillForm",
      "browser.observe",
      "browser.click",
      "browser.observe",
    ]);
    expect(mock.calls[1]?.outcome).toMatchObject({ ok: false, error: { code: "staleRevision" } });
    expect(mock.calls[3]?.payload).toEqual({
      fields: [{ target: ref(2, 3), value: "ada@example.com" }],
      expectedRevision: 2,
    });
    expect(mock.calls[5]?.payload).toEqual({
      fields: [{ target: ref(3, 4), value: "correct horse" }],
      expectedRevision: 3,
    });
    expect(mock.calls[7]?.payload).toEqual({ target: ref(4, 5), expectedRevision: 4 });
    await glass.close();
  });

  it("gives up with the staleRevision error when the page moves on a second time", async () => {
    let revision = 1;
    const mock = createMockGlass({
      handlers: {
        "browser.observe": () => page(revision, false),
        "browser.fillForm": (payload) => {
          revision++;
          throw mockError(
            "staleRevision",
            `expected revision ${payload.expectedRevision} but the page is at revision ${revision}`,
          );
        },
      },
    });
    const glass = await Glass.connect(mock.transport());

    const error = await signIn(glass, "ada@example.com", "correct horse").catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(GlassError);
    expect((error as GlassError).code).toBe("staleRevision");
    expect((error as GlassError).mutationPossible).toBe(false);
    expect(mock.calls.filter((call) => call.operation === "browser.fillForm")).toHaveLength(2);
    expect(mock.calls.some((call) => call.operation === "browser.click")).toBe(false);
    await glass.close();
  });
});

describe("signIn against the mock's simulated shop", () => {
  it("signs in and lands on the orders page", async () => {
    const mock = createMockGlass();
    const glass = await Glass.connect(mock.transport());

    expect(await signIn(glass, "ada@example.com", "correct horse")).toBe("Orders · Simulated Shop");

    expect(mock.calls.map((call) => call.operation)).toEqual([
      "browser.observe",
      "browser.fillForm",
      "browser.observe",
      "browser.fillForm",
      "browser.observe",
      "browser.click",
      "browser.observe",
    ]);
    expect(mock.calls.every((call) => call.outcome?.ok === true)).toBe(true);
    await glass.close();
  });

  it("stays on the sign-in page when the password is empty (the shop shows an alert)", async () => {
    const mock = createMockGlass();
    const glass = await Glass.connect(mock.transport());

    expect(await signIn(glass, "ada@example.com", "")).toBe("Sign in · Simulated Shop");

    const alert = await glass.browser.getText();
    expect(alert.text).toMatch(/password/i);
    await glass.close();
  });
});

describe("signIn over HTTP, the MSW handlers answering", () => {
  const url = "http://glass.test/mcp";
  // No fixture and no handlers: the simulated shop answers (a fresh one per set of handlers).
  const server = setupServer(...createGlassHandlers({ url }));

  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it("signs in to the simulated shop through httpTransport", async () => {
    const glass = await Glass.connect(httpTransport({ url }));

    expect(await signIn(glass, "ada@example.com", "correct horse")).toBe("Orders · Simulated Shop");
    await glass.close();
  });

  it("passes on a failure the daemon reports, here a click on an element that is gone", async () => {
    server.use(
      ...createGlassHandlers({
        url,
        handlers: {
          "browser.click": (payload) => {
            throw mockError("target.notFound", `no element ${String(payload.target)} on the page`);
          },
        },
      }),
    );
    const glass = await Glass.connect(httpTransport({ url }));

    const error = await signIn(glass, "ada@example.com", "correct horse").catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(GlassError);
    expect((error as GlassError).code).toBe("target.notFound");
    await glass.close();
  });
});
