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
  /** The page at `revision`: the sign-in form until signed in, then the orders. */
  function page(revision: number, signedIn: boolean): ResultOf<"browser.observe"> {
    const url = signedIn ? "https://shop.test/orders" : "https://shop.test/login";
    const title = signedIn ? "Orders" : "Sign in";
    const targets = signedIn
      ? [{ reference: `r${revision}:b20`, role: "link", name: "Order 1001" }]
      : [
          { reference: `r${revision}:b1`, role: "textbox", name: "Email" },
          { reference: `r${revision}:b2`, role: "textbox", name: "Password" },
          { reference: `r${revision}:b3`, role: "button", name: "Sign in" },
        ];
    return {
      schemaVersion: 1,
      revision,
      level: "interactive",
      route: { targetId: "tab-1", frameId: "frame-1", url },
      page: { kind: signedIn ? "listing" : "authentication", title, url, targetId: "tab-1", frameId: "frame-1", confidence: "high" },
      regions: [{ id: "region_main", label: title, kind: signedIn ? "table" : "form", interactiveCount: targets.length, confidence: "high", targets }],
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
            throw mockError("staleRevision", `expected revision ${payload.expectedRevision} but the page is at revision ${revision}`);
          }
          revision++;
          return { executionId: `fill-${revision}` };
        },
        "browser.click": (payload) => {
          if (payload.target !== `r${revision}:b3`) throw mockError("target.notFound", `no element ${String(payload.target)}`);
          signedIn = true;
          revision++;
          return { executionId: `click-${revision}` };
        },
      },
    });
    const glass = await Glass.connect(mock.transport());

    expect(await signIn(glass, "ada@example.com", "correct horse")).toBe("Orders");

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
    expect(mock.calls[3]?.payload).toEqual({ fields: [{ target: "r2:b1", value: "ada@example.com" }], expectedRevision: 2 });
    expect(mock.calls[5]?.payload).toEqual({ fields: [{ target: "r3:b2", value: "correct horse" }], expectedRevision: 3 });
    expect(mock.calls[7]?.payload).toEqual({ target: "r4:b3", expectedRevision: 4 });
    await glass.close();
  });

  it("gives up with the staleRevision error when the page moves on a second time", async () => {
    let revision = 1;
    const mock = createMockGlass({
      handlers: {
        "browser.observe": () => page(revision, false),
        "browser.fillForm": (payload) => {
          revision++;
          throw mockError("staleRevision", `expected revision ${payload.expectedRevision} but the page is at revision ${revision}`);
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
