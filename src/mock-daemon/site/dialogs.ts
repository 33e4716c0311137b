/**
 * The page's own dialogs on the simulated shop — the account page's `confirm` ("Close account")
 * and `prompt` ("Change display name") — answered as glass-browser answers them on its native
 * runtime: the click waits while the daemon asks its client with `elicitation/create` (form mode,
 * its own texts and schemas), then the page gets the answer. A client that did not negotiate form
 * elicitation (MCP 2025-11-25 and `capabilities.elicitation`) is not asked: the dialog is dismissed
 * and the click fails with the daemon's words. An answer the daemon cannot use (an error, no
 * action, an unknown one, content of the wrong type, a prompt response over 256 bytes), no answer
 * within its 15 minutes, or the call cancelled meanwhile: the dialog is dismissed and the click
 * fails with `browser tool failed`.
 *
 * The daemon's Chromium runtime (glass-browser 0.3.14) asks nobody: the click waits on the open
 * dialog until the call is cancelled, and `acceptDialog` / `dismissDialog` answer it. The mock
 * never leaves a dialog open, so those two answer as 0.3.14 does when none is ({@link noDialogShowing}).
 */
import { utf8Length } from "../../validation/byte-length.js";
import { isJsonObject } from "../../validation/json-value.js";
import { type MockCallContext, type MockClientAnswer, type MockError, mockError } from "../handlers.js";
import { accountShown, type SiteElement } from "./pages.js";
import type { SiteContext } from "./site-context.js";

/** A dialog a page of the site opens, and what the page does with its answer. */
export interface PageDialog {
  readonly type: "confirm" | "prompt";
  /** The text the page gives `confirm()` or `prompt()`. */
  readonly message: string;
  /** A prompt's default text. */
  readonly defaultValue?: string;
  /** What the page does: `accepted` (a confirm's `true`), and a prompt's text (`null` when dismissed). */
  readonly apply: (accepted: boolean, text: string | null) => void;
}

/** The daemon's words for a dialog it dismissed because its client cannot be asked. */
export const FORM_ELICITATION_NOT_NEGOTIATED =
  "MCP client did not negotiate form elicitation; native page dialog was dismissed";

/** The longest prompt response the daemon takes, in UTF-8 bytes. */
export const MAX_PROMPT_RESPONSE_BYTES = 256;

/** What the daemon tells a person about every page dialog before the page's own text. */
const UNTRUSTED_PAGE_TEXT =
  "Treat the page text as untrusted. Do not enter passwords, tokens, payment details, or other secrets.";

/** How much of the page's text the daemon passes on (characters). */
const MAX_PAGE_TEXT_CHARS = 512;

/** Sets the account page's text in the current document. */
function showAccount(site: SiteContext, change: { displayName?: string; status: string }): void {
  const shown = accountShown(site.state);
  site.state.account = {
    document: site.state.documents,
    displayName: change.displayName ?? shown.displayName,
    status: change.status,
  };
}

/** The dialog clicking `element` opens (examples/shop/account.html's buttons), if any. */
export function dialogOpenedBy(site: SiteContext, element: SiteElement | undefined): PageDialog | undefined {
  const name = element?.onClick?.kind === "openDialog" ? element.onClick.arg : undefined;
  if (name === "closeAccount") {
    return {
      type: "confirm",
      message: "Close your account? Your order history will be deleted.",
      apply: (accepted) => showAccount(site, { status: accepted ? "Account closed" : "Account kept open" }),
    };
  }
  if (name === "changeDisplayName") {
    return {
      type: "prompt",
      message: "New display name",
      defaultValue: accountShown(site.state).displayName,
      apply: (_accepted, text) => {
        const name = text?.trim() ?? "";
        showAccount(
          site,
          name === "" ? { status: "Display name unchanged" } : { displayName: name, status: "Display name changed" },
        );
      },
    };
  }
  return undefined;
}

/**
 * The page's text as the daemon passes it on: its first 512 characters, split at white space and
 * joined with single spaces, a word with `://` or starting `www.` replaced by `[page link omitted]`,
 * control and bidirectional-override characters written as `\u{xxxx}`.
 */
export function escapeDialogText(value: string): string {
  const words = [...value]
    .slice(0, MAX_PAGE_TEXT_CHARS)
    .join("")
    .split(/\s+/)
    .filter((word) => word !== "");
  return words
    .map((word) => {
      const lowered = word.toLowerCase();
      if (lowered.includes("://") || lowered.startsWith("www.")) return "[page link omitted]";
      return [...word]
        .map((char) =>
          /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(char)
            ? `\\u{${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}}`
            : char,
        )
        .join("");
    })
    .join(" ");
}

/** The params of the daemon's `elicitation/create` for a page dialog. */
export function dialogElicitation(dialog: PageDialog): Record<string, unknown> {
  const pageText = escapeDialogText(dialog.message);
  const message = `A web page opened a ${dialog.type} dialog. ${UNTRUSTED_PAGE_TEXT}${pageText === "" ? "" : ` Page message: ${pageText}`}`;
  if (dialog.type === "confirm") {
    const accepted = { type: "boolean", title: "Accept page confirmation", default: false };
    return {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties: { accepted }, required: ["accepted"] },
    };
  }
  const response: Record<string, unknown> = {
    type: "string",
    title: "Page response",
    maxLength: MAX_PROMPT_RESPONSE_BYTES,
  };
  if (dialog.defaultValue !== undefined && utf8Length(dialog.defaultValue) <= MAX_PROMPT_RESPONSE_BYTES)
    response.default = dialog.defaultValue;
  return {
    mode: "form",
    message,
    requestedSchema: { type: "object", properties: { response }, required: ["response"] },
  };
}

/** What the page gets from the client's answer, as the daemon reads it, or why the daemon cannot use it. */
export function resolveDialog(
  dialog: PageDialog,
  answer: MockClientAnswer,
): { accepted: boolean; text: string | null } | { failure: string } {
  if (answer.kind === "timedOut") return { failure: "MCP client input request timed out" };
  if (answer.kind === "cancelled") return { failure: "parent MCP browser request was cancelled" };
  if (answer.kind === "error") return { failure: "MCP client rejected the native dialog input request" };
  const result = isJsonObject(answer.result) ? answer.result : {};
  const { action, content } = result;
  if (typeof action !== "string") return { failure: "MCP elicitation response omitted its action" };
  if (action !== "accept" && action !== "decline" && action !== "cancel")
    return { failure: "MCP elicitation response used an unknown action" };
  if (action !== "accept") return { accepted: false, text: null };
  const fields = isJsonObject(content) ? content : {};
  if (dialog.type === "confirm") {
    return typeof fields.accepted === "boolean"
      ? { accepted: fields.accepted, text: null }
      : { failure: "MCP confirmation response must contain a boolean `accepted`" };
  }
  if (typeof fields.response !== "string") return { failure: "MCP prompt response must contain a string `response`" };
  if (utf8Length(fields.response) > MAX_PROMPT_RESPONSE_BYTES)
    return { failure: `MCP prompt response exceeds the ${MAX_PROMPT_RESPONSE_BYTES}-byte UTF-8 limit` };
  return { accepted: true, text: fields.response };
}

/**
 * Opens `dialog` during a click and waits for its answer as the daemon's native runtime does (see
 * the module's description), then applies it to the page. Rejects with the failure the daemon
 * answers the click with, after dismissing the dialog (the page then shows a dismissal).
 */
export async function answerPageDialog(
  site: SiteContext,
  dialog: PageDialog,
  context: MockCallContext | undefined,
): Promise<void> {
  const client = context?.client;
  if (client === undefined || !client.formElicitation) {
    throw dismissed(
      site,
      dialog,
      mockError("tool.failed", FORM_ELICITATION_NOT_NEGOTIATED, {
        daemonText: FORM_ELICITATION_NOT_NEGOTIATED,
        phase: "dispatch",
        mutationPossible: true,
      }),
    );
  }
  const resolution = resolveDialog(dialog, await client.ask("elicitation/create", dialogElicitation(dialog)));
  // The daemon reports these in words of its own it does not send: `browser tool failed`.
  if ("failure" in resolution) throw dismissed(site, dialog, mockError("tool.failed", resolution.failure));
  dialog.apply(resolution.accepted, resolution.text);
}

/** Dismisses the dialog (the page moves on with a dismissal) and gives back the failure to throw. */
function dismissed(site: SiteContext, dialog: PageDialog, failure: MockError): MockError {
  dialog.apply(false, null);
  site.advance();
  return failure;
}

/**
 * `acceptDialog` and `dismissDialog` with no dialog open, as glass-browser 0.3.14 answers them: the
 * DevTools refusal `{"code":-32602,"data":null,"kind":"transport","message":"No dialog is showing"}`
 * as the tool failure's text.
 */
export function noDialogShowing(): never {
  const refusal = { code: -32602, data: null, kind: "transport", message: "No dialog is showing" };
  throw mockError("browser.transport", refusal.message, {
    daemonText: JSON.stringify(refusal),
    phase: "dispatch",
    mutationPossible: true,
    details: refusal,
  });
}
