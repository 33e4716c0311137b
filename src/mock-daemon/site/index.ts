import type { WebIrDocument } from "../../../generated/types/web-ir-v1.js";
import type { MockHandlers } from "../handlers.js";
import { click, fillForm, key, navigate, select, type, wait } from "./actions.js";
import { noDialogShowing } from "./dialogs.js";
import { getDOM, getText, inspectPage, observe, screenshot } from "./observe.js";
import { DEFAULT_ORDERS, landingUrl, type SimulatedOrder, type SimulatedSiteState } from "./pages.js";
import { SiteContext } from "./site-context.js";
import { findTarget, resolveIntent, resolveIntentWithKnowledge } from "./targets.js";
import { preflightNavigation } from "./navigation-policy.js";
import { continuityWebIr } from "./continuity.js";
import { daemonStoreHandlers } from "./daemon-stores.js";
import { compileTaskResult, executeTask, validateTask } from "./tasks.js";
import { diffWebIr, extractWebIr, inspectWebIr, projectedWebIr, validateWebIr } from "./web-ir.js";

export type { SimulatedOrder, SimulatedSiteState } from "./pages.js";

/**
 * How a simulated site starts. Every option has a default; the site is deterministic.
 *
 * @example
 * ```ts
 * import { createMockGlass } from "glass-sdk/testing";
 *
 * // The shop at the origin a page of your own is served from, on its orders.
 * const mock = createMockGlass({ site: { origin: "http://127.0.0.1:8080", startPath: "/orders" } });
 * ```
 */
export interface SimulatedSiteOptions {
  /**
   * The site's origin: an `http:` or `https:` URL with no path, query or fragment (default
   * `https://shop.example`); anything else throws a TypeError. Set it to where a page of your own
   * is served (docs/testing.md, "The site's options").
   */
  readonly origin?: string;
  /**
   * The path of the page to start on (default `/login`), resolved as a browser resolves it. It
   * starts with `/`, or it throws a TypeError. See docs/testing.md, "The site's options".
   */
  readonly startPath?: string;
  /**
   * Start signed in (default false). The shop does not check it, as examples/shop/ does not: its
   * orders page is open to all; the site's state reports it.
   */
  readonly signedIn?: boolean;
  /** The first revision (default 1). */
  readonly revision?: number;
  /** The orders the orders page lists (default three). */
  readonly orders?: readonly SimulatedOrder[];
}

/** The simulated site's origin when none is given. */
const DEFAULT_ORIGIN = "https://shop.example";

/**
 * The origin `text` names (`http://127.0.0.1:8080`, lower-cased, without a trailing slash), as the
 * simulated site's `origin` option takes it.
 * @throws TypeError when `text` is not an absolute `http:` or `https:` URL with nothing after its
 * host and port but an optional `/`.
 */
export function siteOrigin(text: string): string {
  let url: URL | undefined;
  try {
    url = typeof text === "string" ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new TypeError(
      `the simulated site's origin must be an http: or https: origin such as "http://127.0.0.1:8080", with no path, not ${JSON.stringify(text)}`,
    );
  }
  return url.origin;
}

/**
 * The simulated site a mock daemon serves under its handlers and fixture, as its `site` option
 * asks: `true` or options turn it on (a fresh site), `false` off, and absent leaves it as the
 * daemon's default, `onByDefault`. Throws a TypeError for options the site refuses.
 */
export function siteHandlersFor(
  site: boolean | SimulatedSiteOptions | undefined,
  onByDefault: boolean,
): MockHandlers | undefined {
  if (site === false || (site === undefined && !onByDefault)) return undefined;
  return createSimulatedSite(typeof site === "object" && site !== null ? site : {}).handlers;
}

/** A simulated site: the handlers that serve it, and its state. */
export interface SimulatedSite {
  /** The handlers, one per operation the site answers; give them to the mock daemon. */
  readonly handlers: MockHandlers;
  /** A copy of the site's current state (URL, revision, sign-in, form values, focus, alert, documents loaded). */
  state(): SimulatedSiteState;
  /**
   * The current page's Web IR v1 document, read with the default request (what `browser.extractWebIr`
   * answers without one, less its `detailAvailability`).
   */
  webIr(): WebIrDocument;
}

/**
 * The example shop (examples/shop/) simulated by typed mock handlers, answering as glass-browser
 * 0.3.14 answers on the real pages in Chromium, with a page revision that advances on every
 * mutation. Its pages, operations and references: see docs/testing.md, "What it serves by default:
 * a simulated site". Handlers receive payloads the mock daemon has already accepted.
 * @throws TypeError for options the site refuses (see {@link SimulatedSiteOptions}).
 */
export function createSimulatedSite(options: SimulatedSiteOptions = {}): SimulatedSite {
  const origin = siteOrigin(options.origin ?? DEFAULT_ORIGIN);
  const startPath = options.startPath ?? "/login";
  if (typeof startPath !== "string" || !startPath.startsWith("/")) {
    throw new TypeError(
      `the simulated site's startPath must be a path starting with "/", such as "/orders", not ${JSON.stringify(startPath)}`,
    );
  }
  const revision = options.revision ?? 1;
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new TypeError(
      `the simulated site's revision must be a whole number of 0 or more, not ${JSON.stringify(revision)}`,
    );
  }
  const signedIn = options.signedIn ?? false;
  const state: SimulatedSiteState = {
    url: landingUrl(origin, startPath),
    revision,
    signedIn,
    values: {},
    focused: null,
    alert: null,
    documents: 1,
  };
  const site = new SiteContext(state, options.orders ?? DEFAULT_ORDERS, origin);
  const handlers: MockHandlers = {
    "browser.observe": (payload) => observe(site, payload),
    "browser.inspectPage": () => inspectPage(site),
    "browser.getText": () => getText(site),
    "browser.getDOM": () => getDOM(site),
    "browser.screenshot": () => screenshot(site),
    "browser.findTarget": (payload) => findTarget(site, payload),
    "browser.resolveIntent": (payload) => resolveIntent(site, payload),
    "browser.resolveIntentWithKnowledge": (payload) => resolveIntentWithKnowledge(site, payload),
    "browser.preflightNavigation": (payload) => preflightNavigation(payload),
    "browser.click": (payload, context) => click(site, payload, context),
    "browser.acceptDialog": () => noDialogShowing(),
    "browser.dismissDialog": () => noDialogShowing(),
    "browser.type": (payload) => type(site, payload),
    "browser.fillForm": (payload) => fillForm(site, payload),
    "browser.navigate": (payload) => navigate(site, payload),
    "browser.wait": (payload) => wait(site, payload),
    "browser.key": (payload) => key(site, payload),
    "browser.select": (payload) => select(site, payload),
    "browser.extractWebIr": (payload) => projectedWebIr(site, payload),
    "webIr.inspect": (payload) => inspectWebIr(payload),
    "webIr.validate": (payload) => validateWebIr(payload),
    "webIr.diff": (payload) => diffWebIr(payload),
    "webIr.continuity": (payload) => continuityWebIr(payload),
    "task.validate": (payload) => validateTask(payload),
    "task.compile": (payload) => compileTaskResult(payload),
    "task.execute": (payload) => executeTask(site, payload),
    ...daemonStoreHandlers(),
  };
  return {
    handlers,
    state: () => ({ ...state, values: { ...state.values } }),
    webIr: () => extractWebIr(site),
  };
}
