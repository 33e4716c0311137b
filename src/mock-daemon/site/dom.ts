import type { BrowserDomNode } from "../../../generated/types/operations/browser-observation.js";
import { accountShown, type SimulatedOrder, type SimulatedSiteState, SITE_NAME, type SitePage } from "./pages.js";

/** An element or text of the DOM before it is numbered. */
interface Draft {
  readonly name: string;
  readonly value?: string;
  readonly attributes?: readonly string[];
  readonly children?: readonly Draft[];
}

const el = (name: string, attributes: readonly string[], ...children: Draft[]): Draft => ({
  name,
  attributes,
  children,
});
const txt = (value: string): Draft => ({ name: "#text", value });

/** The shop's styles and its scripts, as examples/shop/ has them (the DOM carries their text). */
const LOGIN_STYLE = `
      body { font: 15px/1.5 system-ui, sans-serif; margin: 32px; max-width: 420px; color: #1b1b1f; }
      label { display: block; margin: 12px 0 4px; }
      input { width: 100%; padding: 6px; box-sizing: border-box; }
      button { margin-top: 16px; padding: 6px 16px; }
      [role="alert"] { color: #b3261e; }
    `;
const ORDERS_STYLE = `
      body { font: 15px/1.5 system-ui, sans-serif; margin: 32px; max-width: 640px; color: #1b1b1f; }
      nav a { margin-left: 12px; }
      table { border-collapse: collapse; width: 100%; }
      th, td { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid #ddd; }
    `;
const LOGIN_SCRIPT = `
      // Both fields filled: go to the orders. Either empty: say so, and stay.
      document.getElementById("sign-in").addEventListener("submit", (event) => {
        event.preventDefault();
        const filled = ["email", "password"].every((id) => document.getElementById(id).value !== "");
        const problem = document.getElementById("problem");
        problem.textContent = filled ? "" : "Enter your email and password to sign in.";
        problem.hidden = filled;
        if (filled) location.assign("/orders");
      });
    `;

/** examples/shop/account.html's styles and script. */
const ACCOUNT_STYLE = `
      body { font: 15px/1.5 system-ui, sans-serif; margin: 32px; max-width: 520px; color: #1b1b1f; }
      button { margin: 8px 8px 0 0; padding: 6px 16px; }
    `;
const ACCOUNT_SCRIPT = `
      // Each button asks with one of the page's own dialogs and shows what was answered.
      const outcome = document.getElementById("outcome");
      document.getElementById("close-account").addEventListener("click", () => {
        const closing = confirm("Close your account? Your order history will be deleted.");
        outcome.textContent = closing ? "Account closed" : "Account kept open";
      });
      document.getElementById("change-name").addEventListener("click", () => {
        const shown = document.getElementById("display-name");
        const name = prompt("New display name", shown.textContent);
        if (name === null || name.trim() === "") {
          outcome.textContent = "Display name unchanged";
          return;
        }
        shown.textContent = name.trim();
        outcome.textContent = "Display name changed";
      });
    `;

const head = (title: string, style: string): Draft =>
  el("HEAD", [], el("META", ["charset", "utf-8"]), el("TITLE", [], txt(title)), el("STYLE", [], txt(style)));

function loginBody(state: SimulatedSiteState): Draft {
  const problem =
    state.alert === null
      ? el("P", ["id", "problem", "role", "alert", "aria-label", "Sign-in problem", "hidden", ""])
      : el("P", ["id", "problem", "role", "alert", "aria-label", "Sign-in problem"], txt(state.alert));
  const form = el(
    "FORM",
    ["id", "sign-in", "aria-labelledby", "sign-in-heading", "novalidate", ""],
    el("H1", ["id", "sign-in-heading"], txt("Sign in")),
    el("P", [], txt("Sign in to see your orders")),
    el("LABEL", ["for", "email"], txt("Email")),
    el("INPUT", ["id", "email", "type", "email", "autocomplete", "username"]),
    el("LABEL", ["for", "password"], txt("Password")),
    el("INPUT", ["id", "password", "type", "password", "autocomplete", "current-password"]),
    el("BUTTON", ["type", "submit"], txt("Sign in")),
  );
  return el("BODY", [], el("MAIN", [], form, problem), el("SCRIPT", [], txt(LOGIN_SCRIPT)));
}

function ordersBody(orders: readonly SimulatedOrder[]): Draft {
  const row = (cells: readonly string[], tag: "TH" | "TD"): Draft =>
    el("TR", [], ...cells.map((cell) => el(tag, tag === "TH" ? ["scope", "col"] : [], txt(cell))));
  const table = el(
    "TABLE",
    ["aria-labelledby", "orders-heading"],
    el("THEAD", [], row(["Order", "Customer", "Total", "Status"], "TH")),
    el("TBODY", [], ...orders.map((order) => row([order.id, order.customer, order.total, order.status], "TD"))),
  );
  const navigation = el(
    "NAV",
    ["aria-label", "Site navigation"],
    el("SPAN", [], txt(SITE_NAME)),
    el("A", ["href", "/orders"], txt("Orders")),
    el("A", ["href", "/login"], txt("Sign out")),
  );
  return el(
    "BODY",
    [],
    navigation,
    el(
      "MAIN",
      [],
      el(
        "SECTION",
        ["aria-labelledby", "orders-heading"],
        el("H1", ["id", "orders-heading"], txt("Recent orders")),
        table,
      ),
    ),
  );
}

function accountBody(state: SimulatedSiteState): Draft {
  const { displayName, status } = accountShown(state);
  const section = el(
    "SECTION",
    ["aria-labelledby", "account-heading"],
    el("H1", ["id", "account-heading"], txt("Account")),
    el("P", [], txt("Display name: "), el("SPAN", ["id", "display-name"], txt(displayName))),
    el("BUTTON", ["type", "button", "id", "change-name"], txt("Change display name")),
    el("BUTTON", ["type", "button", "id", "close-account"], txt("Close account")),
    el("P", ["id", "outcome", "role", "status", "aria-label", "Account status"], txt(status)),
  );
  return el("BODY", [], el("MAIN", [], section), el("SCRIPT", [], txt(ACCOUNT_SCRIPT)));
}

/** The page's document, before numbering: the shop's HTML, or the plain text Chromium wraps in a `<pre>`. */
function draft(page: SitePage, state: SimulatedSiteState, orders: readonly SimulatedOrder[]): Draft {
  const doctype: Draft = { name: "html" };
  if (page.path === "/login" && !page.foreign)
    return {
      name: "#document",
      children: [doctype, el("HTML", ["lang", "en"], head(page.title, LOGIN_STYLE), loginBody(state))],
    };
  if (page.path === "/orders" && !page.foreign)
    return {
      name: "#document",
      children: [doctype, el("HTML", ["lang", "en"], head(page.title, ORDERS_STYLE), ordersBody(orders))],
    };
  if (page.path === "/account" && !page.foreign)
    return {
      name: "#document",
      children: [doctype, el("HTML", ["lang", "en"], head(page.title, ACCOUNT_STYLE), accountBody(state))],
    };
  const body = el("BODY", [], el("PRE", ["style", "word-wrap: break-word; white-space: pre-wrap;"], txt(page.text)));
  return {
    name: "#document",
    children: [el("HTML", [], el("HEAD", [], el("META", ["name", "color-scheme", "content", "light dark"])), body)],
  };
}

/**
 * The page's DOM as the daemon's getDOM gives it: node ids in document order from 1 (an input's
 * user-agent shadow root takes the id after it), element names upper-case, no bounding boxes.
 */
export function domTree(page: SitePage, state: SimulatedSiteState, orders: readonly SimulatedOrder[]): BrowserDomNode {
  let next = 0;
  const number = (node: Draft): BrowserDomNode => {
    next += 1;
    const id = next;
    if (node.name === "INPUT") next += 1;
    const children = (node.children ?? []).map(number);
    return {
      node_id: id,
      node_name: node.name,
      node_value: node.value ?? "",
      children,
      attributes: [...(node.attributes ?? [])],
      bounding_box: null,
    };
  };
  return number(draft(page, state, orders));
}

/** How many elements the document has (the daemon's `boundaries.scanned_elements`). */
export function elementCount(node: BrowserDomNode): number {
  const own = /^[A-Z]/.test(node.node_name) ? 1 : 0;
  return own + node.children.reduce((sum, child) => sum + elementCount(child), 0);
}
