import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import { mockError } from "../handlers.js";
import { landingPath, pageText, pathOf, type SiteElement } from "./pages.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

/** The message a sign-in without an email or a password shows. */
export const SIGN_IN_ALERT = "Enter your email and password to sign in.";

/** Goes to `path` on the site's origin, redirecting as the site does (see landingPath). */
export function goTo(site: SiteContext, path: string): void {
  const { state } = site;
  state.url = `${site.origin}${landingPath(path, state.signedIn)}`;
  state.openOrder = null;
  state.focused = null;
  if (pathOf(state.url) !== "/login") state.alert = null;
}

/**
 * Submits the sign-in form: with an email and a password the user is signed in and lands on the
 * orders; without, the page shows an alert and stays.
 */
export function submitSignIn(site: SiteContext): void {
  const { state } = site;
  if ((state.values.email ?? "") === "" || (state.values.password ?? "") === "") {
    state.alert = SIGN_IN_ALERT;
    return;
  }
  state.signedIn = true;
  state.alert = null;
  goTo(site, "/orders");
}

/** What clicking an element does to the state (a text field takes focus). */
export function activate(site: SiteContext, element: SiteElement): void {
  const { state } = site;
  const action = element.onClick;
  if (action === undefined) {
    state.focused = element.key;
    return;
  }
  switch (action.kind) {
    case "submitSignIn":
      submitSignIn(site);
      return;
    case "openOrder":
      state.openOrder = action.arg ?? null;
      return;
    case "closeDialog":
      state.openOrder = null;
      return;
    case "goTo":
      goTo(site, action.arg ?? "/");
      return;
    case "signOut":
      state.signedIn = false;
      state.values = {};
      goTo(site, "/login");
      return;
  }
}

/** A text field of the page named by `target`, or a targeting error for any other element. */
function textField(site: SiteContext, target: string): SiteElement {
  const { element } = site.resolveTarget(target);
  if (element.role !== "textbox") {
    throw mockError("target.notEditable", `${element.role} "${element.name}" does not take text`, { details: { kind: "target", code: "target.notEditable", target } });
  }
  return element;
}

/** Where the page was before an action, to say what the action changed. */
interface Before {
  readonly revision: number;
  readonly url: string;
  readonly title: string;
}

function before(site: SiteContext): Before {
  return { revision: site.state.revision, url: site.state.url, title: site.page().title };
}

/**
 * The result of an action (click, type, key), as the daemon reports it: what it did, to which
 * target (a reference is echoed as one), the revisions before and after, and what changed.
 */
function actionResult(site: SiteContext, action: string, target: string | undefined, was: Before) {
  const { revision } = site.state;
  const label = target ?? "focused element";
  return {
    status: "succeeded",
    action,
    executionId: site.nextExecutionId(),
    target: /^(?:ref=)?r\d+:/.test(label) ? { label, reference: label.replace(/^ref=/, "") } : { label },
    revision,
    previousRevision: was.revision,
    currentRevision: revision,
    target_id: TARGET_ID,
    frame_id: FRAME_ID,
    verification: { revisionDelta: revision - was.revision, urlChanged: site.state.url !== was.url, titleChanged: site.page().title !== was.title, targetChanged: false, frameChanged: false },
  };
}

/** click: activates the element (submits, opens, closes, follows a link; a field takes focus). */
export function click(site: SiteContext, payload: PayloadOf<"browser.click">): ResultOf<"browser.click"> {
  site.checkRevision(payload.expectedRevision);
  const { element } = site.resolveTarget(payload.target);
  const was = before(site);
  activate(site, element);
  site.advance();
  return actionResult(site, "click", payload.target, was);
}

/** type: appends the text to the field named by `target`, or to the focused field without one. */
export function type(site: SiteContext, payload: PayloadOf<"browser.type">): ResultOf<"browser.type"> {
  site.checkRevision(payload.expectedRevision);
  const { state } = site;
  let key = state.focused;
  if (payload.target !== undefined) key = textField(site, payload.target).key;
  if (key === null) throw mockError("target.notFound", "no target given and no field has focus; pass target or click a field first", { details: { kind: "target", code: "target.notFound" } });
  const was = before(site);
  state.values[key] = (state.values[key] ?? "") + payload.text;
  state.focused = key;
  site.advance();
  return actionResult(site, "type", payload.target, was);
}

/** key: `Enter` in a sign-in field submits the form; other keys only advance the revision. */
export function key(site: SiteContext, payload: PayloadOf<"browser.key">): ResultOf<"browser.key"> {
  site.checkRevision(payload.expectedRevision);
  const was = before(site);
  if (payload.key === "Enter" && pathOf(site.state.url) === "/login" && site.state.focused !== null) submitSignIn(site);
  site.advance();
  return actionResult(site, "key", undefined, was);
}

/** select: the site has no select element, so every target is a targeting error unless it names a field. */
export function select(site: SiteContext, payload: PayloadOf<"browser.select">): ResultOf<"browser.select"> {
  site.checkRevision(payload.expectedRevision);
  const { element } = site.resolveTarget(payload.target);
  throw mockError("target.notSelectable", `${element.role} "${element.name}" is not a select element`, { details: { kind: "target", code: "target.notSelectable", target: payload.target } });
}

/**
 * fillForm: sets each field's value (replacing what it held), in one mutation, and reports each
 * field as the daemon's fill outcome does. Every target is resolved before anything is filled.
 */
export function fillForm(site: SiteContext, payload: PayloadOf<"browser.fillForm">): ResultOf<"browser.fillForm"> {
  site.checkRevision(payload.expectedRevision);
  const fields = payload.fields.map((field) => ({ field, element: textField(site, field.target) }));
  const previousRevision = site.state.revision;
  for (const { field, element } of fields) site.state.values[element.key] = field.value ?? "";
  site.advance();
  const executionId = site.nextExecutionId();
  return {
    status: "succeeded",
    executionId,
    filled: fields.length,
    total: fields.length,
    fields: fields.map(({ field, element }) => ({ target: field.target, action: "type", label: element.name, success: true })),
    previousRevision,
    currentRevision: site.state.revision,
    verification: { revisionDelta: site.state.revision - previousRevision, urlChanged: false, titleChanged: false, targetChanged: false, frameChanged: false },
  };
}

/**
 * navigate: loads a URL. A path of the site's origin lands where the site sends it (`/` and a
 * signed-out `/orders` go to the sign-in page); another origin, or an unknown path, shows the
 * site's not-found page at that URL. Answers the page it landed on, as the daemon does.
 */
export function navigate(site: SiteContext, payload: PayloadOf<"browser.navigate">): ResultOf<"browser.navigate"> {
  site.checkRevision(payload.expectedRevision);
  let url: URL;
  try {
    url = new URL(payload.url);
  } catch {
    throw mockError("navigation.invalidUrl", `not an absolute URL: ${JSON.stringify(payload.url)}`, { retry: { classification: "notRetryable", recommendedOperation: "fix_request" } });
  }
  const { state } = site;
  if (url.origin === site.origin) goTo(site, url.pathname);
  else {
    state.url = url.href;
    state.openOrder = null;
    state.focused = null;
  }
  site.advance();
  // As the daemon: the page it landed on, no execution id.
  return { url: state.url, title: site.page().title, ready_state: "complete", target_id: TARGET_ID, frame_id: FRAME_ID };
}

/**
 * wait: the condition (`<kind>=<value>`) checked against the page as it is — the simulated page
 * does not change by itself, so a condition holds at once or never. `text=`, `url=`, `url-prefix=`
 * and `lifecycle=` are checked; one that does not hold fails as the daemon's wait times out.
 */
export function wait(site: SiteContext, payload: PayloadOf<"browser.wait">): ResultOf<"browser.wait"> {
  const condition = String(payload.condition);
  const separator = condition.indexOf("=");
  const [kind, value] = separator < 0 ? [condition, ""] : [condition.slice(0, separator), condition.slice(separator + 1)];
  const { url } = site.state;
  const holds: Record<string, () => boolean> = {
    text: () => pageText(site.page()).includes(value),
    url: () => url === value,
    "url-prefix": () => url.startsWith(value),
    lifecycle: () => ["load", "domcontentloaded", "complete"].includes(value),
  };
  const check = holds[kind];
  if (check === undefined) throw mockError("mock.unsupportedCondition", `the simulated site cannot wait for ${JSON.stringify(kind)} conditions; it checks text=, url=, url-prefix= and lifecycle=`);
  if (!check()) {
    throw mockError("wait.timeout", `the condition ${JSON.stringify(condition)} did not hold within ${payload.timeoutMs ?? 10_000} ms`, {
      phase: "dispatch",
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    });
  }
  const lastState = kind === "text" ? "present=true" : kind === "lifecycle" ? `readyState=${value}` : `url=${url}`;
  return { condition: kind, elapsed_ms: 0, last_state: lastState, target_id: TARGET_ID, frame_id: FRAME_ID };
}
