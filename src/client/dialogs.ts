/**
 * The `onDialog` option of `Glass.connect`: the daemon's `elicitation/create` request for a page's
 * dialog read into a {@link GlassDialog}, and the handler's answer written back. See docs/calls.md, "Dialogs".
 */
import { neutraliseControls } from "../errors/redact.js";
import type { ServerRequestAbortReason, ServerRequestHandler } from "../mcp/mcp-session.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { utf8Length } from "../validation/byte-length.js";
import { isJsonObject, ownProperty } from "../validation/json-value.js";

/** The kind of a page's dialog, as `window.alert`, `confirm`, `prompt` and a `beforeunload` handler open them. */
export type GlassDialogType = "alert" | "confirm" | "prompt" | "beforeunload";

/** A dialog the page opened, as the daemon describes it. */
export interface GlassDialog {
  /** Which dialog it is, as the shape of the daemon's request tells. */
  readonly type: GlassDialogType;
  /**
   * The page's own text, as the daemon passes it on: its first 512 characters, runs of white space
   * made one space, links replaced by `[page link omitted]`, control characters escaped. Empty for
   * `beforeunload` (the daemon does not show a page's leave warning) and for a dialog without text.
   * It comes from the page: treat it as untrusted.
   */
  readonly message: string;
  /** A prompt's default text (`""` for other dialogs, and for a prompt without one). */
  readonly defaultValue: string;
  /**
   * The daemon's whole text for a person, at most 2048 UTF-8 bytes: its warning that the page's
   * text is untrusted (never type passwords or other secrets into a page's prompt), then the
   * page's text.
   */
  readonly daemonMessage: string;
}

/** How a dialog is answered. */
export interface GlassDialogAnswer {
  /**
   * `accept`: OK — the confirm gets `true`, the prompt `response`, a `beforeunload` leaves the page;
   * `decline`: the person said no — the confirm gets `false`, the prompt `null`, the page stays;
   * `cancel`: dismissed without a choice, as `decline` for the page. An alert is closed either way.
   */
  readonly action: "accept" | "decline" | "cancel";
  /**
   * The text an accepted prompt answers with, at most {@link MAX_PROMPT_RESPONSE_BYTES} UTF-8 bytes
   * (the daemon's bound); absent, the prompt's `defaultValue`. Ignored for other dialogs and actions.
   */
  readonly response?: string;
}

/** What a {@link GlassDialogHandler} is given besides the dialog. */
export interface GlassDialogContext {
  /**
   * Aborted when the answer is no longer wanted: the daemon cancelled its request (the tool call
   * that opened the dialog was cancelled, or the daemon's own 15-minute bound passed), the client's
   * bound (`dialogTimeoutMs`) passed, or the connection closed.
   */
  readonly signal: AbortSignal;
}

/** Answers a page's dialog: the `onDialog` option of `Glass.connect`. */
export type GlassDialogHandler = (
  dialog: GlassDialog,
  context: GlassDialogContext,
) => GlassDialogAnswer | Promise<GlassDialogAnswer>;

/**
 * How one dialog request ended, as the `dialog` log event reports it: `answered` (the handler's
 * answer was sent), `notADialog` (the request was not one of the daemon's dialog forms),
 * `invalidAnswer` (the handler returned something that is not a {@link GlassDialogAnswer}),
 * `responseTooLong` (a prompt response past {@link MAX_PROMPT_RESPONSE_BYTES}), `handlerThrew`,
 * `timedOut` (past `dialogTimeoutMs`), `cancelledByDaemon`, `connectionClosed`.
 */
export type GlassDialogOutcome =
  | "answered"
  | "notADialog"
  | "invalidAnswer"
  | "responseTooLong"
  | "handlerThrew"
  | "timedOut"
  | "cancelledByDaemon"
  | "connectionClosed";

/**
 * The log event of a page's dialog the daemon asked about (`onDialog`): its type, the action sent
 * (`none`: the daemon cancelled, or the connection closed) and why. Never the page's text or the
 * response.
 */
export interface GlassDialogEvent {
  readonly type: "dialog";
  /** The dialog's type, or `unknown` for a request that is not a dialog. */
  readonly dialogType: GlassDialogType | "unknown";
  /** The daemon's id of its request. */
  readonly requestId: string;
  /** What the client answered. */
  readonly action: "accept" | "decline" | "cancel" | "none";
  /** Why. */
  readonly outcome: GlassDialogOutcome;
  /** How long the answer took, in milliseconds. */
  readonly ms: number;
}

/** What the daemon is sent for a dialog: the action, and for `accept` the form's content. */
interface WireAnswer {
  readonly action: GlassDialogAnswer["action"];
  readonly content?: Readonly<Record<string, string | boolean>>;
}

/** The longest prompt response the daemon takes, in UTF-8 bytes (a longer one fails its tool call). */
export const MAX_PROMPT_RESPONSE_BYTES = 256;

/** How long the client waits for an `onDialog` handler by default (ms) before answering `cancel`. */
export const DEFAULT_DIALOG_TIMEOUT_MS = 60_000;

/** The longest `dialogTimeoutMs`: the daemon itself waits at most 15 minutes. */
export const MAX_DIALOG_TIMEOUT_MS = 900_000;

/** The method the daemon asks with. */
const ELICITATION_METHOD = "elicitation/create";

/** Where the daemon's text turns to the page's own (`… Page message: <text>`). */
const PAGE_MESSAGE_MARK = " Page message: ";

/** The title the daemon gives the `accepted` field of a `beforeunload` (a confirm's is "Accept page confirmation"). */
const LEAVE_PAGE_TITLE = "Leave this page";

/** How the daemon's text for a `beforeunload` ends. */
const LEAVE_PAGE_ENDING = "leaving the page.";

/** How much of the daemon's text a {@link GlassDialog} keeps (UTF-8 bytes). */
const MAX_DAEMON_MESSAGE_BYTES = 2048;

/** The answer to a request that gets no usable answer: dismissed without a choice. */
const CANCEL: WireAnswer = { action: "cancel" };

/**
 * The dialog an `elicitation/create` request describes, as the daemon shapes it, or `undefined` when
 * it is not one of its dialog forms. The daemon asks in form mode with a `requestedSchema` whose
 * `properties` hold:
 *
 * - nothing — an `alert`;
 * - `accepted` (a boolean) — a `confirm`, or a `beforeunload` when the field's title is "Leave
 *   this page" (or the text ends "… leaving the page.");
 * - `response` (a string, `maxLength` 256, its `default` the prompt's default text) — a `prompt`.
 *
 * The page's text follows " Page message: " in the daemon's `message`.
 */
export function readDialog(params: Record<string, unknown> | undefined): GlassDialog | undefined {
  if (params === undefined || (params.mode !== undefined && params.mode !== "form")) return undefined;
  const schema = params.requestedSchema;
  if (!isJsonObject(schema) || (schema.properties !== undefined && !isJsonObject(schema.properties))) return undefined;
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const said = typeof params.message === "string" ? params.message : "";
  const daemonMessage = truncateUtf8(said, MAX_DAEMON_MESSAGE_BYTES);
  const mark = said.indexOf(PAGE_MESSAGE_MARK);
  const message = mark < 0 ? "" : truncateUtf8(said.slice(mark + PAGE_MESSAGE_MARK.length), MAX_DAEMON_MESSAGE_BYTES);
  if (names.length === 0) return { type: "alert", message, defaultValue: "", daemonMessage };
  if (names.length !== 1) return undefined;
  const field = ownProperty(properties, names[0] as string);
  if (!isJsonObject(field)) return undefined;
  if (names[0] === "accepted" && field.type === "boolean") {
    const leaving = field.title === LEAVE_PAGE_TITLE || said.endsWith(LEAVE_PAGE_ENDING);
    return {
      type: leaving ? "beforeunload" : "confirm",
      message: leaving ? "" : message,
      defaultValue: "",
      daemonMessage,
    };
  }
  if (names[0] === "response" && field.type === "string") {
    const fallback = field.default;
    const defaultValue =
      typeof fallback === "string" && utf8Length(fallback) <= MAX_PROMPT_RESPONSE_BYTES ? fallback : "";
    return { type: "prompt", message, defaultValue, daemonMessage };
  }
  return undefined;
}

/** The daemon's answer for a handler's answer, or why there is none. */
function wireAnswer(
  dialog: GlassDialog,
  answer: unknown,
): { answer: WireAnswer } | { problem: "invalidAnswer" | "responseTooLong" } {
  if (!isJsonObject(answer)) return { problem: "invalidAnswer" };
  const { action, response } = answer;
  if (action !== "accept" && action !== "decline" && action !== "cancel") return { problem: "invalidAnswer" };
  if (response !== undefined && typeof response !== "string") return { problem: "invalidAnswer" };
  if (action !== "accept") return { answer: { action } };
  switch (dialog.type) {
    case "alert":
      return { answer: { action, content: {} } };
    case "confirm":
    case "beforeunload":
      return { answer: { action, content: { accepted: true } } };
    case "prompt": {
      const text = response ?? dialog.defaultValue;
      if (utf8Length(text) > MAX_PROMPT_RESPONSE_BYTES) return { problem: "responseTooLong" };
      return { answer: { action, content: { response: text } } };
    }
  }
}

/** What {@link dialogRequestHandler} needs besides the caller's handler. */
export interface DialogHandlerSettings {
  /** How long the handler may take (ms). */
  readonly timeoutMs: number;
  /** The client's logger, if any. */
  readonly log: ((event: GlassDialogEvent) => void) | undefined;
}

/**
 * The `elicitation/create` handler that serves `onDialog`: always answers (`cancel` when it cannot
 * use the handler's answer) and logs one `dialog` event per request, never the page's text, the
 * prompt's default or the response, which may hold a person's data. See docs/calls.md, "Dialogs".
 */
export function dialogRequestHandler(
  onDialog: GlassDialogHandler,
  settings: DialogHandlerSettings,
): ServerRequestHandler {
  return async (params, request, { signal }) => {
    const started = Date.now();
    const dialog = readDialog(params);
    const report = (outcome: GlassDialogOutcome, action: "accept" | "decline" | "cancel" | "none"): void => {
      settings.log?.({
        type: "dialog",
        dialogType: dialog?.type ?? "unknown",
        requestId: neutraliseControls(truncateUtf8(String(request.id), 64)),
        action,
        outcome,
        ms: Date.now() - started,
      });
    };
    if (dialog === undefined) {
      report("notADialog", "cancel");
      return CANCEL;
    }
    const settled = await runBounded(onDialog, dialog, signal, settings.timeoutMs);
    if (settled.kind === "aborted") {
      report(settled.reason, settled.reason === "timedOut" ? "cancel" : "none");
      return CANCEL;
    }
    if (settled.kind === "threw") {
      report("handlerThrew", "cancel");
      return CANCEL;
    }
    const checked = wireAnswer(dialog, settled.value);
    if ("problem" in checked) {
      report(checked.problem, "cancel");
      return CANCEL;
    }
    report("answered", checked.answer.action);
    return checked.answer;
  };
}

/** How a handler run within its bound ended. */
type Settled =
  | { kind: "returned"; value: unknown }
  | { kind: "threw" }
  | { kind: "aborted"; reason: "timedOut" | ServerRequestAbortReason };

/**
 * Runs the handler with a signal of its own that aborts when `outer` does (the daemon cancelled, the
 * connection closed) or `timeoutMs` passes; settles as soon as either happens, without waiting for a
 * handler that ignores its signal.
 */
async function runBounded(
  onDialog: GlassDialogHandler,
  dialog: GlassDialog,
  outer: AbortSignal,
  timeoutMs: number,
): Promise<Settled> {
  const controller = new AbortController();
  let stop: ((settled: Settled) => void) | undefined;
  const stopped = new Promise<Settled>((resolve) => {
    stop = resolve;
  });
  const abort = (reason: "timedOut" | ServerRequestAbortReason): void => {
    controller.abort(reason);
    stop?.({ kind: "aborted", reason });
  };
  const onOuterAbort = (): void =>
    abort(outer.reason === "connectionClosed" ? "connectionClosed" : "cancelledByDaemon");
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener("abort", onOuterAbort, { once: true });
  const timer = setTimeout(() => abort("timedOut"), timeoutMs);
  try {
    const running = Promise.resolve()
      .then(() => onDialog(dialog, { signal: controller.signal }))
      .then(
        (value): Settled => ({ kind: "returned", value }),
        (): Settled => ({ kind: "threw" }),
      );
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener("abort", onOuterAbort);
  }
}

/**
 * The daemon-request handlers a client answers with: the caller's `serverRequestHandlers`, plus
 * `elicitation/create` serving `onDialog` when it is given.
 * @throws TypeError when `onDialog` is not a function, when `serverRequestHandlers` also answers
 * `elicitation/create` (one of the two must go), or when `dialogTimeoutMs` is not a whole number of
 * milliseconds from 1 to 900000.
 */
export function serverRequestHandlersWith(
  options: {
    readonly serverRequestHandlers?: Readonly<Record<string, ServerRequestHandler>>;
    readonly onDialog?: GlassDialogHandler;
    readonly dialogTimeoutMs?: number;
  },
  log: ((event: GlassDialogEvent) => void) | undefined,
): Readonly<Record<string, ServerRequestHandler>> | undefined {
  const { serverRequestHandlers, onDialog, dialogTimeoutMs } = options;
  if (onDialog === undefined) {
    if (dialogTimeoutMs !== undefined) checkDialogTimeout(dialogTimeoutMs);
    return serverRequestHandlers;
  }
  if (typeof onDialog !== "function")
    throw new TypeError(
      `onDialog must be a function (dialog, { signal }) => answer, not ${onDialog === null ? "null" : typeof onDialog}`,
    );
  if (ownProperty(serverRequestHandlers, ELICITATION_METHOD) !== undefined) {
    throw new TypeError(
      `onDialog and serverRequestHandlers["${ELICITATION_METHOD}"] both answer the daemon's dialog requests: pass one of them`,
    );
  }
  const timeoutMs = checkDialogTimeout(dialogTimeoutMs ?? DEFAULT_DIALOG_TIMEOUT_MS);
  return { ...serverRequestHandlers, [ELICITATION_METHOD]: dialogRequestHandler(onDialog, { timeoutMs, log }) };
}

function checkDialogTimeout(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DIALOG_TIMEOUT_MS) {
    throw new TypeError(
      `dialogTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_DIALOG_TIMEOUT_MS}, not ${String(value)}`,
    );
  }
  return value;
}
