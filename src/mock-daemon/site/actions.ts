import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import { type MockCallContext, mockError } from "../handlers.js";
import { answerPageDialog, dialogOpenedBy } from "./dialogs.js";
import { referencedElement, type Resolved, resolveTarget, targetErrors } from "./locators.js";
import { landingUrl, SIGN_IN_ALERT, type SiteElement } from "./pages.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

/**
 * Loads `path` of the site's origin (with its query and fragment, if any), resolved as a browser
 * resolves it and redirected as the shop's server does (see landingUrl): a new document.
 */
export function goTo(site: SiteContext, path: string): void {
  site.load(landingUrl(site.origin, path));
}

/**
 * Submits the sign-in form as examples/shop/login.html does: with an email and a password the user
 * is signed in and lands on the orders; without, the page shows its alert and stays.
 */
export function submitSignIn(site: SiteContext): void {
  const { state } = site;
  if ((state.values.email ?? "") === "" || (state.values.password ?? "") === "") {
    state.alert = SIGN_IN_ALERT;
    return;
  }
  state.signedIn = true;
  goTo(site, "/orders");
}

/** What clicking an element does: it takes focus, then a submit button submits and a link is followed. */
export function activate(site: SiteContext, element: SiteElement | undefined): void {
  site.state.focused = element === undefined || element.key === "root" ? null : element.key;
  if (element?.onClick?.kind === "submitSignIn") submitSignIn(site);
  else if (element?.onClick?.kind === "goTo") goTo(site, element.onClick.arg ?? "/");
}

/** Inserts text where the focus is: at the end of a focused text field; anywhere else it goes nowhere. */
function insertText(site: SiteContext, text: string): void {
  const { state } = site;
  const field = site.page().elements.find((element) => element.key === state.focused && element.role === "textbox");
  if (field !== undefined) state.values[field.key] = (state.values[field.key] ?? "") + text;
}

/** Where the page was before an action, to say what the action changed. */
interface Before {
  readonly revision: number;
  readonly url: string;
  readonly title: string;
}

const before = (site: SiteContext): Before => ({
  revision: site.state.revision,
  url: site.state.url,
  title: site.page().title,
});

/** What an action changed: the revisions, and (for a click) whether the URL and title did. */
function verification(site: SiteContext, was: Before, pageChanges: boolean) {
  const revisionDelta = site.state.revision - was.revision;
  return {
    revisionDelta,
    urlChanged: pageChanges && site.state.url !== was.url,
    titleChanged: pageChanges && site.page().title !== was.title,
    targetChanged: false,
    frameChanged: false,
  };
}

/** An action's result as the daemon reports it: what it did, to which target, the revisions and what changed. */
function actionResult(
  site: SiteContext,
  action: string,
  executionId: string,
  target: Resolved | undefined,
  was: Before,
  pageChanges: boolean,
) {
  const { revision } = site.state;
  return {
    status: "succeeded",
    action,
    executionId,
    ...(target === undefined
      ? {}
      : {
          target: { label: target.label, ...(target.reference === undefined ? {} : { reference: target.reference }) },
        }),
    revision,
    previousRevision: was.revision,
    currentRevision: revision,
    target_id: TARGET_ID,
    frame_id: FRAME_ID,
    verification: verification(site, was, pageChanges),
  };
}

/** Clicks a target: the daemon resolves it, clicks it (one execution id), and the page moves on. */
function clickTarget(site: SiteContext, target: string): Resolved {
  const resolved = resolveTarget(site, target);
  activate(site, resolved.element);
  return resolved;
}

/**
 * click: activates the target (submits the form, follows a link; a field takes focus). A button
 * that opens the page's own dialog waits for its answer, asked of the call's client (see dialogs.ts).
 */
export function click(
  site: SiteContext,
  payload: PayloadOf<"browser.click">,
  context?: MockCallContext,
): ResultOf<"browser.click"> | Promise<ResultOf<"browser.click">> {
  site.checkRevision(payload.expectedRevision);
  const was = before(site);
  const finish = (resolved: Resolved): ResultOf<"browser.click"> => {
    activate(site, resolved.element);
    const executionId = site.nextExecutionId();
    site.advance();
    return actionResult(site, "click", executionId, resolved, was, true);
  };
  const resolved = resolveTarget(site, payload.target);
  const dialog = dialogOpenedBy(site, resolved.element);
  return dialog === undefined ? finish(resolved) : answerPageDialog(site, dialog, context).then(() => finish(resolved));
}

/** type: clicks the target first when there is one (a click of its own), then inserts the text where the focus is. */
export function type(site: SiteContext, payload: PayloadOf<"browser.type">): ResultOf<"browser.type"> {
  site.checkRevision(payload.expectedRevision);
  const was = before(site);
  let resolved: Resolved | undefined;
  if (payload.target !== undefined) {
    resolved = clickTarget(site, payload.target);
    site.nextExecutionId();
  }
  insertText(site, payload.text);
  const executionId = site.nextExecutionId();
  site.advance();
  return actionResult(site, "type", executionId, resolved, was, false);
}

/** key: a key press reaches the page as a keydown alone, so Enter submits no form; the page moves on. */
export function key(site: SiteContext, payload: PayloadOf<"browser.key">): ResultOf<"browser.key"> {
  site.checkRevision(payload.expectedRevision);
  const was = before(site);
  const executionId = site.nextExecutionId();
  site.advance();
  return actionResult(site, "key_press", executionId, undefined, was, true);
}

/** select: the shop has no select element, so no target is one. */
export function select(site: SiteContext, payload: PayloadOf<"browser.select">): ResultOf<"browser.select"> {
  site.checkRevision(payload.expectedRevision);
  throw targetErrors.notFound();
}

/** One field of a fill, typed as `type` with a reference types: a click, the text, the page moved on. */
function fillField(
  site: SiteContext,
  resolved: Resolved,
  value: string,
): { action: string; success: boolean; error?: string } {
  if (resolved.reference === undefined) return { action: "none", success: false, error: "element has no reference" };
  let element: SiteElement;
  try {
    element = referencedElement(site, site.page(), resolved.reference);
  } catch (error) {
    const stale = (error as { code?: string }).code === "target.staleReference";
    return {
      action: "type",
      success: false,
      error: stale ? "element reference is stale" : "element target is not actionable",
    };
  }
  activate(site, element);
  site.nextExecutionId();
  insertText(site, value);
  site.nextExecutionId();
  site.advance();
  return { action: "type", success: true };
}

/** A fill's outcome, as the daemon's `FillFormOutcome` reports it. */
export type FillOutcome = ResultOf<"browser.fillForm">;

/**
 * Fills fields as the daemon's fill_form does: resolves every target first (one that does not
 * resolve fails the call), then types each value as `type` with the field's reference does.
 */
export function fillFields(site: SiteContext, fields: readonly { target: string; value?: string }[]): FillOutcome {
  const was = before(site);
  const resolved = fields.map((field) => ({ field, target: resolveTarget(site, field.target) }));
  const results = resolved.map(({ field, target }) => ({
    target: field.target,
    label: target.label,
    ...fillField(site, target, field.value ?? ""),
  }));
  const filled = results.filter((field) => field.success).length;
  const executionId = site.nextExecutionId();
  return {
    status: filled === results.length ? "succeeded" : "completed_with_verification_failure",
    ...(filled === results.length ? {} : { failureKind: "verification_failed" }),
    executionId,
    filled,
    total: results.length,
    fields: results.map(({ target, action, label, success, error }) => ({
      target,
      action,
      label,
      success,
      ...(error === undefined ? {} : { error }),
    })),
    previousRevision: was.revision,
    currentRevision: site.state.revision,
    verification: verification(site, was, true),
  };
}

/**
 * fillForm: fills the fields (see {@link fillFields}). A field found by CSS or text has no
 * reference and is not filled; a reference taken before the first field was typed is stale by the
 * second (every keystroke moves the page on), so one fillForm fills one field of a form.
 */
export function fillForm(site: SiteContext, payload: PayloadOf<"browser.fillForm">): ResultOf<"browser.fillForm"> {
  site.checkRevision(payload.expectedRevision);
  return fillFields(site, payload.fields);
}

/**
 * navigate: loads a URL (a new document). A path of the site's origin lands where the shop's
 * server sends it (`/` goes to the sign-in page); any other URL is a page the mock does not
 * simulate. Answers the page it landed on; with `expectedRevision`, the daemon's
 * navigation outcome (an execution of its own, the revisions, how the URL was reached).
 */
export function navigate(
  site: SiteContext,
  payload: PayloadOf<"browser.navigate"> & { expectedRevision?: number },
): ResultOf<"browser.navigate"> {
  let url: URL;
  try {
    url = new URL(payload.url);
  } catch {
    throw mockError("policy.denied", "URL is invalid: relative URL without a base");
  }
  site.checkRevision(payload.expectedRevision);
  const was = before(site);
  if (url.origin === site.origin) goTo(site, `${url.pathname}${url.search}${url.hash}`);
  else site.load(url.href);
  site.advance();
  const page = {
    url: site.state.url,
    title: site.page().title,
    ready_state: "complete",
    target_id: TARGET_ID,
    frame_id: FRAME_ID,
  };
  if (payload.expectedRevision === undefined) return page;
  const landed = new URL(site.state.url);
  return {
    status: "succeeded",
    action: "navigate",
    executionId: site.nextExecutionId(),
    page,
    previousRevision: was.revision,
    currentRevision: site.state.revision,
    browserLoadCompleted: true,
    applicationReady: false,
    identity: {
      requestedUrl: url.href,
      observedFinalUrl: landed.href,
      sameOrigin: landed.origin === url.origin,
      redirectCount: landed.href === url.href ? 0 : 1,
      redirectEvidence: { status: "observed", source: "Network.requestWillBeSent" },
      classification: {
        state: "normal",
        confidence: "medium",
        evidence: [{ signal: "normal.content", detail: "bounded page content present" }],
        next_step: "inspect",
      },
    },
    verification: verification(site, was, true),
  };
}

export { wait } from "./wait.js";
