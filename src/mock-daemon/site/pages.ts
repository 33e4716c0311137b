import type { BrowserRegionKind } from "../../../generated/types/operations/browser-results.js";
import type { WebIrEntityKind } from "../../../generated/types/web-ir-v1.js";

/** One order of the simulated site's orders table. */
export interface SimulatedOrder {
  /** The order number shown in the table (`1001`). */
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
  /** Whether the user has signed in (the shop itself does not check: its orders page is open to all). */
  signedIn: boolean;
  /** The sign-in form's values, by field key (`email`, `password`). */
  values: Record<string, string>;
  /** The key of the element that has focus, or null. */
  focused: string | null;
  /** The alert the sign-in page shows (a sign-in with an empty field), or null. */
  alert: string | null;
  /** How many documents have been loaded: each navigation loads a new one (its references name it). */
  documents: number;
  /**
   * What the account page (examples/shop/account.html) shows after its dialogs were answered in
   * document `document`; absent (or from an earlier document), it shows what it loads with.
   */
  account?: SimulatedAccount;
}

/** The account page's changing text: the display name and its status line. */
export interface SimulatedAccount {
  /** The document the page changed in (a new document shows the page as it loads). */
  readonly document: number;
  /** The display name (`Ada Lovelace` when the page loads). */
  readonly displayName: string;
  /** The status line (`Account open` when the page loads). */
  readonly status: string;
}

/**
 * An element of the page's accessibility tree that the daemon lists as interactive (the
 * `RootWebArea` too). `key` is its stable name across documents; `node` its backend DOM node id in
 * its document, as Chromium numbered it when glass-browser loaded the shop.
 */
export interface SiteElement {
  readonly key: string;
  readonly node: number;
  readonly role: string;
  readonly name: string;
  /** The tag the DOM shows (`input`, `button`, `a`; `#document` for the page itself). */
  readonly tag: string;
  /** Its DOM attributes (`id`, `type`, `href`, `autocomplete`), for CSS selectors. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The Web IR kind the element is extracted as; none for the page itself. */
  readonly irKind?: WebIrEntityKind;
  /** What clicking it does (see actions.ts; `openDialog` opens the page's dialog named by `arg`, see dialogs.ts); absent where a click only focuses. */
  readonly onClick?: { readonly kind: "submitSignIn" | "goTo" | "openDialog"; readonly arg?: string };
}

/** A node of the page's accessibility tree, as the daemon's compact projection keeps it. */
export interface AxNode {
  readonly role: string;
  readonly name?: string;
  readonly children?: readonly AxNode[];
  /** The interactive element the node is (its name then lives in the element, not the tree). */
  readonly element?: SiteElement;
}

/** A region of a page as the mock's Web IR extracts it: its elements and, for a table, its records. */
export interface SiteRegion {
  readonly id: string;
  readonly label: string;
  readonly kind: BrowserRegionKind;
  /** The Web IR kind the region is extracted as (`region`, `form`, `table`). */
  readonly irKind: WebIrEntityKind;
  readonly elements: readonly SiteElement[];
  /** A table's records, by column name. */
  readonly records?: readonly Readonly<Record<string, string>>[];
}

/** An element whose visible text a `text=` locator matches, and the element a click on it reaches. */
export interface TextElement {
  readonly text: string;
  readonly target?: SiteElement;
}

/** A page of the simulated site as it is rendered for a given state. */
export interface SitePage {
  readonly path: string;
  readonly title: string;
  /** The page's text as Chromium's `innerText` gives it. */
  readonly text: string;
  /** The accessibility tree: the `RootWebArea` and everything under it. */
  readonly tree: AxNode;
  /** The interactive elements, in document order (the page itself first). */
  readonly elements: readonly SiteElement[];
  /** The regions the mock's Web IR extracts. */
  readonly regions: readonly SiteRegion[];
  /** The visible elements a `text=` locator can match. */
  readonly texts: readonly TextElement[];
  /** A page outside the site's origin, which the mock does not simulate (its kind is `error`). */
  readonly foreign: boolean;
}

/** The site's name, in every title. */
export const SITE_NAME = "Simulated Shop";

/** What the sign-in page says when a field is empty (examples/shop/login.html). */
export const SIGN_IN_ALERT = "Enter your email and password to sign in.";

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

/** Static text as Chromium's accessibility tree has it: a StaticText node over its inline text box. */
const text = (value: string): AxNode => ({
  role: "StaticText",
  name: value,
  children: [{ role: "InlineTextBox", name: value }],
});
/** The page itself, as the daemon lists it: an interactive `RootWebArea` named by the title. */
const root = (node: number, title: string): SiteElement => ({
  key: "root",
  node,
  role: "RootWebArea",
  name: title,
  tag: "#document",
  attributes: {},
});
/** `<html>` and `<body>` are `none` in the tree. */
const document = (page: SiteElement, body: readonly AxNode[]): AxNode => ({
  role: "RootWebArea",
  element: page,
  children: [{ role: "none", children: [{ role: "none", children: body }] }],
});

/** A text field and what it shows: its value (a password as bullets) inside a generic node. */
function textbox(element: SiteElement, value: string): AxNode {
  const shown = element.attributes.type === "password" ? "•".repeat([...value].length) : value;
  return {
    role: "textbox",
    element,
    children: [{ role: "generic", ...(shown === "" ? {} : { children: [text(shown)] }) }],
  };
}

/** examples/shop/login.html: the sign-in form, and its alert once a sign-in with an empty field was tried. */
function loginPage(state: SimulatedSiteState): SitePage {
  const title = `Sign in · ${SITE_NAME}`;
  const page = root(6, title);
  const email: SiteElement = {
    key: "email",
    node: 3,
    role: "textbox",
    name: "Email",
    tag: "input",
    attributes: { id: "email", type: "email", autocomplete: "username" },
    irKind: "field",
  };
  const password: SiteElement = {
    key: "password",
    node: 4,
    role: "textbox",
    name: "Password",
    tag: "input",
    attributes: { id: "password", type: "password", autocomplete: "current-password" },
    irKind: "field",
  };
  const submit: SiteElement = {
    key: "submit",
    node: 5,
    role: "button",
    name: "Sign in",
    tag: "button",
    attributes: { type: "submit" },
    irKind: "action",
    onClick: { kind: "submitSignIn" },
  };
  const form: AxNode = {
    role: "form",
    name: "Sign in",
    children: [
      { role: "heading", name: "Sign in", children: [text("Sign in")] },
      { role: "paragraph", children: [text("Sign in to see your orders")] },
      { role: "LabelText", children: [text("Email")] },
      textbox(email, state.values.email ?? ""),
      { role: "LabelText", children: [text("Password")] },
      textbox(password, state.values.password ?? ""),
      { role: "button", element: submit, children: [text("Sign in")] },
    ],
  };
  const alert = state.alert;
  const main: AxNode = {
    role: "main",
    children: alert === null ? [form] : [form, { role: "alert", name: "Sign-in problem", children: [text(alert)] }],
  };
  const regions: SiteRegion[] = [
    { id: "region_signin", label: "Sign in", kind: "form", irKind: "form", elements: [email, password, submit] },
  ];
  if (alert !== null)
    regions.push({ id: "region_alert", label: "Sign-in problem", kind: "alert", irKind: "region", elements: [] });
  const texts: TextElement[] = [
    { text: "Sign in" },
    { text: "Sign in to see your orders" },
    { text: "Email", target: email },
    { text: "Password", target: password },
    { text: "Sign in", target: submit },
    ...(alert === null ? [] : [{ text: alert }]),
  ];
  const shownText = `Sign in\n\nSign in to see your orders\n\nEmail\nPassword\n Sign in${alert === null ? "" : `\n\n${alert}`}`;
  return {
    path: "/login",
    title,
    text: shownText,
    tree: document(page, [main]),
    elements: [page, email, password, submit],
    regions,
    texts,
    foreign: false,
  };
}

/** examples/shop/orders.html: the site navigation and the table of orders. */
function ordersPage(orders: readonly SimulatedOrder[]): SitePage {
  const title = `Orders · ${SITE_NAME}`;
  const page = root(33, title);
  const toOrders: SiteElement = {
    key: "nav-orders",
    node: 42,
    role: "link",
    name: "Orders",
    tag: "a",
    attributes: { href: "/orders" },
    irKind: "link",
    onClick: { kind: "goTo", arg: "/orders" },
  };
  const signOut: SiteElement = {
    key: "nav-signout",
    node: 43,
    role: "link",
    name: "Sign out",
    tag: "a",
    attributes: { href: "/login" },
    irKind: "link",
    onClick: { kind: "goTo", arg: "/login" },
  };
  const columns = ["Order", "Customer", "Total", "Status"];
  const cells = (order: SimulatedOrder): string[] => [order.id, order.customer, order.total, order.status];
  const navigation: AxNode = {
    role: "navigation",
    name: "Site navigation",
    children: [
      text(SITE_NAME),
      text(" "),
      { role: "link", element: toOrders, children: [text("Orders")] },
      text(" "),
      { role: "link", element: signOut, children: [text("Sign out")] },
    ],
  };
  const table: AxNode = {
    role: "table",
    name: "Recent orders",
    children: [
      {
        role: "rowgroup",
        children: [
          {
            role: "row",
            children: columns.map((column) => ({ role: "columnheader", name: column, children: [text(column)] })),
          },
        ],
      },
      {
        role: "none",
        children: orders.map((order) => ({
          role: "row",
          children: cells(order).map((cell) => ({ role: "cell", name: cell, children: [text(cell)] })),
        })),
      },
    ],
  };
  const main: AxNode = {
    role: "main",
    children: [
      {
        role: "region",
        name: "Recent orders",
        children: [{ role: "heading", name: "Recent orders", children: [text("Recent orders")] }, table],
      },
    ],
  };
  const records = orders.map((order) => ({
    Order: order.id,
    Customer: order.customer,
    Total: order.total,
    Status: order.status,
  }));
  const regions: SiteRegion[] = [
    {
      id: "region_navigation",
      label: "Site navigation",
      kind: "navigation",
      irKind: "region",
      elements: [toOrders, signOut],
    },
    { id: "region_orders", label: "Recent orders", kind: "table", irKind: "table", elements: [], records },
  ];
  const texts: TextElement[] = [
    { text: SITE_NAME },
    { text: "Orders", target: toOrders },
    { text: "Sign out", target: signOut },
    { text: "Recent orders" },
    ...columns.map((column) => ({ text: column })),
    ...orders.flatMap((order) => [{ text: cells(order).join(" ") }, ...cells(order).map((cell) => ({ text: cell }))]),
  ];
  const rows = orders.map((order) => `\n${cells(order).join("\t")}`).join("");
  const shownText = `${SITE_NAME} Orders Sign out\nRecent orders\n${columns.join("\t")}${rows}`;
  return {
    path: "/orders",
    title,
    text: shownText,
    tree: document(page, [navigation, main]),
    elements: [page, toOrders, signOut],
    regions,
    texts,
    foreign: false,
  };
}

/** What the account page shows as it loads. */
export const ACCOUNT_AT_LOAD = { displayName: "Ada Lovelace", status: "Account open" } as const;

/** The account page's display name and status line in the current document. */
export function accountShown(state: SimulatedSiteState): { displayName: string; status: string } {
  const { account } = state;
  return account !== undefined && account.document === state.documents ? account : ACCOUNT_AT_LOAD;
}

/** examples/shop/account.html: the display name, a button that asks for a new one (`prompt`), one that closes the account (`confirm`), and the status line. */
function accountPage(state: SimulatedSiteState): SitePage {
  const title = `Account · ${SITE_NAME}`;
  const { displayName, status } = accountShown(state);
  const page = root(2, title);
  const changeName: SiteElement = {
    key: "change-name",
    node: 14,
    role: "button",
    name: "Change display name",
    tag: "button",
    attributes: { type: "button", id: "change-name" },
    irKind: "action",
    onClick: { kind: "openDialog", arg: "changeDisplayName" },
  };
  const closeAccount: SiteElement = {
    key: "close-account",
    node: 15,
    role: "button",
    name: "Close account",
    tag: "button",
    attributes: { type: "button", id: "close-account" },
    irKind: "action",
    onClick: { kind: "openDialog", arg: "closeAccount" },
  };
  const section: AxNode = {
    role: "region",
    name: "Account",
    children: [
      { role: "heading", name: "Account", children: [text("Account")] },
      { role: "paragraph", children: [text("Display name: "), { role: "generic", children: [text(displayName)] }] },
      { role: "button", element: changeName, children: [text("Change display name")] },
      { role: "button", element: closeAccount, children: [text("Close account")] },
      { role: "status", name: "Account status", children: [text(status)] },
    ],
  };
  const regions: SiteRegion[] = [
    { id: "region_account", label: "Account", kind: "main", irKind: "region", elements: [changeName, closeAccount] },
    { id: "region_status", label: "Account status", kind: "status", irKind: "region", elements: [] },
  ];
  const texts: TextElement[] = [
    { text: "Account" },
    { text: `Display name: ${displayName}` },
    { text: displayName },
    { text: "Change display name", target: changeName },
    { text: "Close account", target: closeAccount },
    { text: status },
  ];
  const shownText = `Account\n\nDisplay name: ${displayName}\n\nChange display name Close account\n\n${status}`;
  return {
    path: "/account",
    title,
    text: shownText,
    tree: document(page, [{ role: "main", children: [section] }]),
    elements: [page, changeName, closeAccount],
    regions,
    texts,
    foreign: false,
  };
}

/**
 * What the shop's server answers for any other path: `No page at <path>` as plain text, which
 * Chromium shows as an untitled page; outside the site's origin, the same page stands for a site
 * the mock does not simulate.
 */
function notFoundPage(path: string, foreign: boolean): SitePage {
  const said = `No page at ${path}\n`;
  const page = root(93, "");
  const body: AxNode = {
    role: "generic",
    children: [
      {
        role: "StaticText",
        name: said,
        children: [
          { role: "InlineTextBox", name: said.trimEnd() },
          { role: "InlineTextBox", name: "\n" },
        ],
      },
    ],
  };
  return {
    path,
    title: "",
    text: said,
    tree: document(page, [body]),
    elements: [page],
    regions: [],
    texts: [{ text: said.trim() }],
    foreign,
  };
}

/** The page the state shows. */
export function renderPage(state: SimulatedSiteState, orders: readonly SimulatedOrder[], origin: string): SitePage {
  const path = pathOf(state.url);
  if (!state.url.startsWith(`${origin}/`)) return notFoundPage(path, true);
  if (path === "/login") return loginPage(state);
  if (path === "/orders") return ordersPage(orders);
  if (path === "/account") return accountPage(state);
  return notFoundPage(path, false);
}

/** Every element of the page's Web IR regions, with its region. */
export function elementsOf(page: SitePage): { element: SiteElement; region: SiteRegion }[] {
  return page.regions.flatMap((region) => region.elements.map((element) => ({ element, region })));
}

/**
 * Where a browser lands for `path` of `origin` (a path, with an optional query and fragment): the
 * URL as the browser resolves it before asking for it (dot segments such as `/./` and `/x/../`
 * resolved, the query and fragment kept in the URL but no part of which page it is), then as the
 * shop's server answers it: `/`, whatever its query, redirects to the sign-in page. The path is
 * always read as a path of `origin` (`//host/x` is the path `//host/x`, not another host).
 */
export function landingUrl(origin: string, path: string): string {
  let url: URL;
  try {
    url = new URL(`${origin}${path.startsWith("/") ? "" : "/"}${path}`);
  } catch {
    return `${origin}/login`;
  }
  if (url.origin !== origin) return `${origin}/login`;
  return url.pathname === "/" ? `${origin}/login` : url.href;
}
