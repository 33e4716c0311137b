import type { WebIrDocument } from "../../../generated/types/web-ir-v1.js";
import type { JsonValue } from "../../validation/json-value.js";
import type { MockCallContext, MockHandlers } from "../handlers.js";
import { click, fillForm, key, navigate, select, type, wait } from "./actions.js";
import { getDOM, getText, inspectPage, observe, screenshot } from "./observe.js";
import { DEFAULT_ORDERS, landingPath, type SimulatedOrder, type SimulatedSiteState } from "./pages.js";
import { SiteContext } from "./site-context.js";
import { findTarget, resolveIntent } from "./targets.js";
import { continuityWebIr } from "./continuity.js";
import { compileTaskResult, executeTask, validateTask } from "./tasks.js";
import { diffWebIr, extractWebIr, inspectWebIr, validateWebIr } from "./web-ir.js";

export type { SimulatedOrder, SimulatedSiteState } from "./pages.js";

/**
 * How a simulated site starts. Every option has a default; the site is deterministic.
 *
 * @example
 * ```ts
 * import { createMockGlass } from "glass-sdk/testing";
 *
 * // The shop at the origin a page of your own is served from, signed in, on its orders.
 * const mock = createMockGlass({ site: { origin: "http://127.0.0.1:8080", signedIn: true, startPath: "/orders" } });
 * ```
 */
export interface SimulatedSiteOptions {
  /**
   * The site's origin: an `http:` or `https:` URL with no path, query or fragment (default
   * `https://shop.example`). Set it to where a page of your own is served, so that the mock stands
   * in for a daemon whose browser can reach it: a navigation to the origin's `/login` lands on the
   * simulated sign-in page. Anything else throws a TypeError.
   */
  readonly origin?: string;
  /**
   * The path of the page to start on (default `/login`; `/orders` needs `signedIn`, or lands on
   * `/login`; another path shows the not-found page). It starts with `/`, or it throws a TypeError.
   */
  readonly startPath?: string;
  /** Start signed in (default false). */
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
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new TypeError(`the simulated site's origin must be an http: or https: origin such as "http://127.0.0.1:8080", with no path, not ${JSON.stringify(text)}`);
  }
  return url.origin;
}

/**
 * The simulated site a mock daemon serves under its handlers and fixture, as its `site` option
 * asks: `true` or options turn it on (a fresh site), `false` off, and absent leaves it as the
 * daemon's default, `onByDefault`. Throws a TypeError for options the site refuses.
 */
export function siteHandlersFor(site: boolean | SimulatedSiteOptions | undefined, onByDefault: boolean): SimulatedSiteHandlers | undefined {
  if (site === false || (site === undefined && !onByDefault)) return undefined;
  return createSimulatedSite(typeof site === "object" && site !== null ? site : {}).handlers;
}

/** A handler of an operation outside the typed catalog, reached with `glass.call` by name. */
export type UntypedMockHandler<Result> = (payload: JsonValue, context: MockCallContext) => Result;

/**
 * The simulated site's handlers: the typed catalog handlers, plus `browser.extractWebIr`, an
 * operation the daemon has but the catalog does not type (its result is the page's Web IR v1
 * document).
 */
export type SimulatedSiteHandlers = MockHandlers & { readonly "browser.extractWebIr": UntypedMockHandler<WebIrDocument> };

/** A simulated site: the handlers that serve it, and its state. */
export interface SimulatedSite {
  /** The handlers, one per operation the site answers; give them to the mock daemon. */
  readonly handlers: SimulatedSiteHandlers;
  /** A copy of the site's current state (URL, revision, sign-in, form values, open dialog, focus, alert). */
  state(): SimulatedSiteState;
  /** The current page's Web IR v1 document (what `browser.extractWebIr` answers). */
  webIr(): WebIrDocument;
}

/**
 * A small simulated web app served by typed mock handlers, with a page revision that advances on
 * every mutation:
 *
 * - `/login`: a sign-in form (Email, Password, a "Sign in" button); submitting it with both filled
 *   signs in and lands on `/orders`, with either empty it shows an alert;
 * - `/orders` (signed in only; otherwise it lands on `/login`): a table of orders, each with an
 *   "Order <id>" link that opens a detail dialog (its text and a "Close" button);
 * - a navigation region when signed in ("Orders", "Sign out"), and a not-found page (with a link
 *   "Back to the start") for any other URL.
 *
 * It answers observe (every level, and the page context without one), inspectPage, getText,
 * getDOM, screenshot (a real PNG), findTarget and resolveIntent (by name), the mutations click,
 * type, fillForm, navigate, key and select (each checking `expectedRevision` and answering
 * `staleRevision` when it is stale, a targeting error for an unknown target), extractWebIr,
 * webIr.inspect/validate/diff/continuity, and task.validate/compile/execute against the page.
 * Handlers receive payloads the mock daemon has already accepted, as the daemon would.
 */
export function createSimulatedSite(options: SimulatedSiteOptions = {}): SimulatedSite {
  const origin = siteOrigin(options.origin ?? DEFAULT_ORIGIN);
  const startPath = options.startPath ?? "/login";
  if (typeof startPath !== "string" || !startPath.startsWith("/")) {
    throw new TypeError(`the simulated site's startPath must be a path starting with "/", such as "/orders", not ${JSON.stringify(startPath)}`);
  }
  const revision = options.revision ?? 1;
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new TypeError(`the simulated site's revision must be a whole number of 0 or more, not ${JSON.stringify(revision)}`);
  }
  const signedIn = options.signedIn ?? false;
  const state: SimulatedSiteState = {
    url: `${origin}${landingPath(startPath, signedIn)}`,
    revision,
    signedIn,
    values: {},
    openOrder: null,
    focused: null,
    alert: null,
  };
  const site = new SiteContext(state, options.orders ?? DEFAULT_ORDERS, origin);
  const handlers: SimulatedSiteHandlers = {
    "browser.observe": (payload) => observe(site, payload),
    "browser.inspectPage": () => inspectPage(site),
    "browser.getText": () => getText(site),
    "browser.getDOM": () => getDOM(site),
    "browser.screenshot": () => screenshot(site),
    "browser.findTarget": (payload) => findTarget(site, payload),
    "browser.resolveIntent": (payload) => resolveIntent(site, payload),
    "browser.click": (payload) => click(site, payload),
    "browser.type": (payload) => type(site, payload),
    "browser.fillForm": (payload) => fillForm(site, payload),
    "browser.navigate": (payload) => navigate(site, payload),
    "browser.wait": (payload) => wait(site, payload),
    "browser.key": (payload) => key(site, payload),
    "browser.select": (payload) => select(site, payload),
    "browser.extractWebIr": () => extractWebIr(site),
    "webIr.inspect": (payload) => inspectWebIr(payload),
    "webIr.validate": (payload) => validateWebIr(payload),
    "webIr.diff": (payload) => diffWebIr(payload),
    "webIr.continuity": (payload) => continuityWebIr(payload),
    "task.validate": (payload) => validateTask(payload),
    "task.compile": (payload) => compileTaskResult(payload),
    "task.execute": (payload) => executeTask(site, payload),
  };
  return {
    handlers,
    state: () => ({ ...state, values: { ...state.values } }),
    webIr: () => extractWebIr(site),
  };
}
