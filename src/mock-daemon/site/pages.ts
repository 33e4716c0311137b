import type { BrowserPageKind, BrowserRegionKind } from "../../../generated/types/operations/browser-results.js";
import type { WebIrEntityKind } from "../../../generated/types/web-ir-v1.js";

/** One order of the simulated site's orders table. */
export interface SimulatedOrder {
  /** The order number shown in the table and the dialog (`1001`). */
  readonly id: string;
  /** The customer's name. */
  readonly customer: string;
  /** The total, as displayed (`€42.00`). */
  readonly total: string;
  /** The order's status (`Shipped`, `Processing`, …). */
  readonly status: string;
}

/** The state of the simulated site: what every handler reads and every mutation changes. */
export interface SimulatedSiteState {
  /** The current page's URL. */
  url: string;
  /** The page revision: advances by one on every mutation. */
  revision: number;
  /** Whether the user has signed in (the orders page needs it). */
  signedIn: boolean;
  /** The sign-in form's values, by field key (`email`, `password`). */
  values: Record<string, string>;
  /** The order whose detail dialog is open, or null. */
  openOrder: string | null;
  /** The key of the element that has focus, or null. */
  focused: string | null;
  /** The alert the page shows (a failed sign-in), or null. */
  alert: string | null;
}

/**
 * An element an action can use. `key` is its stable name across revisions; `node` its backend node
 * id, unique across the whole site, so a reference (`r<revision>:b<node>`) names one element.
 */
export interface SiteElement {
  readonly key: string;
  readonly node: number;
  readonly role: string;
  readonly name: string;
  /** The Web IR kind the element is extracted as. */
  readonly irKind: WebIrEntityKind;
  /** `email`, `password` for text fields. */
  readonly inputType?: string;
  /** The tag the DOM shows (`input`, `button`, `a`). */
  readonly tag: string;
  /** What clicking it does (see actions.ts); absent for text fields, where a click focuses. */
  readonly onClick?: { readonly kind: "submitSignIn" | "openOrder" | "closeDialog" | "goTo" | "signOut"; readonly arg?: string };
}

/** A region of a page: its elements and, for a table, its records. */
export interface SiteRegion {
  readonly id: string;
  readonly label: string;
  readonly kind: BrowserRegionKind;
  /** The Web IR kind the region is extracted as (`region`, `form`, `table`, `dialog`). */
  readonly irKind: WebIrEntityKind;
  readonly elements: readonly SiteElement[];
  /** A table's records, by column name. */
  readonly records?: readonly Readonly<Record<string, string>>[];
  /** The region's text, in reading order. */
  readonly text: readonly string[];
  readonly evidence: readonly string[];
}

/** A page of the simulated site as it is rendered for a given state. */
export interface SitePage {
  readonly path: string;
  readonly title: string;
  readonly kind: BrowserPageKind;
  readonly regions: readonly SiteRegion[];
  readonly evidence: readonly string[];
}

/** The site's name, in every title. */
export const SITE_NAME = "Simulated Shop";

/** The orders the site lists when none are given. */
export const DEFAULT_ORDERS: readonly SimulatedOrder[] = [
  { id: "1001", customer: "Ada Lovelace", total: "€42.00", status: "Shipped" },
  { id: "1002", customer: "Alan Turing", total: "€17.50", status: "Processing" },
  { id: "1003", customer: "Grace Hopper", total: "€128.90", status: "Delivered" },
];

/** The path of a URL (`/orders`), or `/` when it cannot be parsed. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "/";
  }
}

/** The navigation a signed-in user sees on every page. */
const navigation: SiteRegion = {
  id: "region_navigation",
  label: "Site navigation",
  kind: "navigation",
  irKind: "region",
  elements: [
    { key: "nav-orders", node: 10, role: "link", name: "Orders", irKind: "link", tag: "a", onClick: { kind: "goTo", arg: "/orders" } },
    { key: "nav-signout", node: 11, role: "link", name: "Sign out", irKind: "link", tag: "a", onClick: { kind: "signOut" } },
  ],
  text: [SITE_NAME],
  evidence: ["a list of site links"],
};

function loginPage(state: SimulatedSiteState): SitePage {
  const form: SiteRegion = {
    id: "region_signin",
    label: "Sign in",
    kind: "form",
    irKind: "form",
    elements: [
      { key: "email", node: 1, role: "textbox", name: "Email", irKind: "field", inputType: "email", tag: "input" },
      { key: "password", node: 2, role: "textbox", name: "Password", irKind: "field", inputType: "password", tag: "input" },
      { key: "submit", node: 3, role: "button", name: "Sign in", irKind: "action", tag: "button", onClick: { kind: "submitSignIn" } },
    ],
    text: ["Sign in to see your orders", "Email", "Password"],
    evidence: ["form with an email field, a password field and a submit button"],
  };
  const regions: SiteRegion[] = [form];
  if (state.alert !== null) {
    regions.push({ id: "region_alert", label: "Sign-in problem", kind: "alert", irKind: "region", elements: [], text: [state.alert], evidence: ["role=alert"] });
  }
  return { path: "/login", title: `Sign in · ${SITE_NAME}`, kind: "authentication", regions, evidence: ["a password field", "title names sign-in"] };
}

function ordersPage(state: SimulatedSiteState, orders: readonly SimulatedOrder[]): SitePage {
  const table: SiteRegion = {
    id: "region_orders",
    label: "Recent orders",
    kind: "table",
    irKind: "table",
    elements: orders.map((order, i) => ({
      key: `order-${order.id}`,
      node: 20 + i,
      role: "link",
      name: `Order ${order.id}`,
      irKind: "link",
      tag: "a",
      onClick: { kind: "openOrder", arg: order.id },
    })),
    records: orders.map((order) => ({ Order: order.id, Customer: order.customer, Total: order.total, Status: order.status })),
    text: ["Recent orders", "Order Customer Total Status", ...orders.map((o) => `${o.id} ${o.customer} ${o.total} ${o.status}`)],
    evidence: ["table with a header row"],
  };
  const regions: SiteRegion[] = [navigation, table];
  const open = orders.find((order) => order.id === state.openOrder);
  if (open !== undefined) {
    regions.push({
      id: "region_dialog",
      label: `Order ${open.id}`,
      kind: "dialog",
      irKind: "dialog",
      elements: [{ key: "dialog-close", node: 40, role: "button", name: "Close", irKind: "action", tag: "button", onClick: { kind: "closeDialog" } }],
      text: [`Order ${open.id}`, `Customer: ${open.customer}`, `Total: ${open.total}`, `Status: ${open.status}`],
      evidence: ["role=dialog", "aria-modal=true"],
    });
  }
  return { path: "/orders", title: `Orders · ${SITE_NAME}`, kind: "listing", regions, evidence: ["title names the orders page", "a table lists the orders"] };
}

function notFoundPage(path: string, state: SimulatedSiteState): SitePage {
  const main: SiteRegion = {
    id: "region_main",
    label: "Not found",
    kind: "main",
    irKind: "region",
    elements: [{ key: "home", node: 12, role: "link", name: "Back to the start", irKind: "link", tag: "a", onClick: { kind: "goTo", arg: "/" } }],
    text: ["Not found", `No page at ${path}`],
    evidence: ["heading says the page was not found"],
  };
  return { path, title: `Not found · ${SITE_NAME}`, kind: "error", regions: state.signedIn ? [navigation, main] : [main], evidence: ["title says not found"] };
}

/** The page the state shows (the not-found page for a URL outside the site's `origin`). */
export function renderPage(state: SimulatedSiteState, orders: readonly SimulatedOrder[], origin: string): SitePage {
  const path = pathOf(state.url);
  if (!state.url.startsWith(`${origin}/`)) return notFoundPage(path, state);
  if (path === "/login") return loginPage(state);
  if (path === "/orders") return ordersPage(state, orders);
  return notFoundPage(path, state);
}

/** Every element of the page, region by region. */
export function elementsOf(page: SitePage): { element: SiteElement; region: SiteRegion }[] {
  return page.regions.flatMap((region) => region.elements.map((element) => ({ element, region })));
}

/** The page's visible text: each region's lines, regions separated by a blank line. */
export function pageText(page: SitePage): string {
  return `${page.title}\n\n${page.regions.map((region) => region.text.join("\n")).join("\n\n")}\n`;
}

/**
 * Where a navigation to `path` lands, the way a site with a sign-in wall redirects: `/` goes to the
 * orders when signed in and to the sign-in page otherwise, and the orders page needs a sign-in.
 */
export function landingPath(path: string, signedIn: boolean): string {
  if (path === "/" || path === "") return signedIn ? "/orders" : "/login";
  if (path === "/orders" && !signedIn) return "/login";
  return path;
}
