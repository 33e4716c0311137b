// Reading what the server answers to a request — a JSON message or batch, or an SSE stream of them —
// and, when a call's SSE stream ends or drops before its answer after giving an event id, resuming it
// with GET and `Last-Event-ID` (MCP 2025-11-25, Streamable HTTP, "Resumability and Redelivery"; the
// loop and its bounds are sse-resume.ts's). The GETs of the server's standalone stream are read here
// too (server-stream.ts holds that stream's life).

import { describeError } from "../errors/redact.js";
import {
  isJsonRpcResponse,
  JsonRpcErrorCode,
  jsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../mcp/json-rpc.js";
import { AnswerTooLarge, contentTypeOf, discard, readText } from "./http-body.js";
import { callOf, errorBody, snippet, type HttpErrorContext } from "./http-errors.js";
import type { HttpRequest } from "./http-request.js";
import { RETRY_STATUSES } from "./http-retry.js";
import { createSseParser, SseTooLargeError, type SseEvent } from "./sse-parser.js";
import { resumeSseStream, type ResumeAttempt, type ResumeFailure, type SseCursor } from "./sse-resume.js";
import { TransportLimits, type TransportHandlers } from "./transport.js";
import { ignore, messagesIn } from "./transport-util.js";

/** A request whose answer is being awaited: a cancel aborts its fetch (`stop`) and cancels the body being read (`reader`). */
export interface PendingAnswer {
  id: JsonRpcId;
  stop: AbortController;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
}

/** What reading answers needs of the transport. */
export interface AnswerStreamHost extends HttpErrorContext {
  /** The transport's handlers, to report a message that cannot be parsed; `undefined` once it closed. */
  handlers(): TransportHandlers | undefined;
  /** Hands a message from the server to the client. */
  deliver(message: JsonRpcMessage): void;
  /** Whether the transport is started and not closed. */
  isOpen(): boolean;
  /** Sends the GET of an SSE stream, aborted by `stop`; resolves with its response whatever its status. */
  getStream(
    request: Extract<HttpRequest, { kind: "resume" | "serverStream" }>,
    stop: AbortController,
  ): Promise<Response>;
  /** Ends the transport because the server answered 401 or 403. */
  endRefused(response: Response): Promise<void>;
}

/** Passes a message to whoever reads; a truthy result means the awaited answer came, so reading stops. */
export type TakeMessage = (message: JsonRpcMessage) => unknown;

/** Where the messages read go, besides `take`. */
export interface ReadOptions {
  handlers: TransportHandlers | undefined;
  /** The request whose body is read: its `reader` is set, so a cancel can close the body. */
  answer?: PendingAnswer | undefined;
  /** Moved on with the SSE stream's last event id and `retry`, kept across streams for a resumption. */
  cursor?: SseCursor | undefined;
}

/**
 * Passes the JSON-RPC messages of a response body — a JSON message or batch, or an SSE stream of
 * them — to `take`, until it returns something truthy. Throws AnswerTooLarge (after cancelling
 * the body) for a body or an event past the bound.
 */
export async function readMessages(response: Response, take: TakeMessage, options: ReadOptions): Promise<void> {
  const { handlers, answer, cursor } = options;
  const { body, status } = response;
  if (body === null || status === 202 || status === 204) return;
  const type = contentTypeOf(response);
  if (type === "application/json") {
    const keepReader = answer === undefined ? undefined : (reader: PendingAnswer["reader"]) => (answer.reader = reader);
    const text = await readText(response, TransportLimits.maxMessageBytes, "fail", keepReader);
    if (text.trim() !== "")
      for (const message of messagesIn(text, "the daemon's JSON answer", handlers, true)) if (take(message)) return;
    return;
  }
  if (type !== "text/event-stream") {
    await discard(response);
    throw new Error(`its content type ${JSON.stringify(type)} is neither application/json nor text/event-stream`);
  }
  const reader = body.getReader();
  if (answer !== undefined) answer.reader = reader;
  const parser = createSseParser({ maxEventBytes: TransportLimits.maxMessageBytes });
  let done = false;
  try {
    while (!done) {
      const chunk = await reader.read();
      done = chunk.done;
      let events: SseEvent[];
      let tooLarge: SseTooLargeError | undefined;
      try {
        events = chunk.done ? parser.end() : parser.push(chunk.value);
      } catch (error) {
        if (!(error instanceof SseTooLargeError)) throw error;
        [events, tooLarge] = [error.completed, error];
      }
      if (cursor !== undefined) {
        // Where the stream got to, for a resumption: its last event id and `retry`, kept across streams.
        if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
        if (parser.retryMs !== undefined) cursor.retryMs = parser.retryMs;
      }
      for (const event of events) {
        if (event.type !== "message" || event.data === "") continue; // priming events and other types carry no message
        for (const message of messagesIn(event.data, "an event of the daemon's SSE stream", handlers))
          if (take(message)) return;
      }
      if (tooLarge !== undefined)
        throw new AnswerTooLarge(
          `${tooLarge.part === "event" ? "an event" : "a line"} of its SSE stream passed ${tooLarge.maxBytes} bytes`,
          TransportLimits.maxMessageBytes,
        );
    }
  } finally {
    if (!done) reader.cancel().catch(ignore);
  }
}

/** One GET of an SSE stream and the reading of what it answers. */
export interface StreamGetOptions {
  /** The GET: a resumption after an event, or the opening of the server's standalone stream. */
  request: Extract<HttpRequest, { kind: "resume" | "serverStream" }>;
  /** Moved on as the stream is read. */
  cursor: SseCursor;
  /** Aborts the GET and its stream (the call was cancelled, or the server stream stopped). */
  stop: AbortController;
  take: TakeMessage;
  /** The call whose answer the stream should bring, if any. */
  answer?: PendingAnswer | undefined;
  /** Whether the awaited answer came (default: never, for the server stream). */
  answered?: () => boolean;
}

/**
 * GETs an SSE stream and reads it with `take` until it ends, or until `answered` says the awaited
 * answer came. 401 and 403 end the transport; a 408, 429, 502, 503 or 504 or a failed GET is
 * `transient`; another status or an answer that is not an SSE stream is `final`. Throws
 * AnswerTooLarge for an event past the bound.
 */
export async function readStreamGet(host: AnswerStreamHost, options: StreamGetOptions): Promise<ResumeAttempt> {
  const { request, cursor, stop, take, answer, answered = () => false } = options;
  const live = (): boolean => !stop.signal.aborted && host.isOpen();
  let response: Response;
  try {
    response = await host.getStream(request, stop);
  } catch (error) {
    return live() ? { outcome: "transient", why: `the GET failed: ${describeError(error)}` } : { outcome: "stopped" };
  }
  if (!live()) {
    await discard(response);
    return { outcome: "stopped" };
  }
  const { status } = response;
  if (status === 401 || status === 403) {
    await host.endRefused(response);
    return { outcome: "stopped" };
  }
  if (!response.ok) {
    const meaning =
      status === 404
        ? " (the session has expired, and the answer with it)"
        : status === 405
          ? " (the server offers no stream to resume)"
          : "";
    const said = `the GET was answered HTTP ${status}${meaning}${snippet(await errorBody(response), host.redact)}`;
    return RETRY_STATUSES.has(status) ? { outcome: "transient", why: said } : { outcome: "final", why: said, status };
  }
  if (contentTypeOf(response) !== "text/event-stream") {
    await discard(response);
    return {
      outcome: "final",
      why: `the GET was answered with content type ${JSON.stringify(contentTypeOf(response))}, not an SSE stream`,
      status,
    };
  }
  // Read until the stream ends, or until the answer awaited: the server may keep it open for more.
  const dropped = await readMessages(response, take, { handlers: host.handlers(), answer, cursor }).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof AnswerTooLarge) throw error;
      return error;
    },
  );
  if (answered()) return { outcome: "answered" };
  if (!live()) return { outcome: "stopped" };
  return {
    outcome: "read",
    why:
      dropped === undefined
        ? "the GET's stream ended without the answer"
        : `the GET's stream failed: ${describeError(dropped)}`,
  };
}

/** A call's accepted POST, whose answer is to be read. */
export interface CallAnswerOptions {
  /** The POST's 2xx response. */
  response: Response;
  request: JsonRpcRequest;
  answer: PendingAnswer;
  /** Told of the answer before it is delivered. */
  onAnswer?: (answer: JsonRpcResponse) => void;
}

/**
 * Reads the answer to a call's accepted POST and delivers its messages; an SSE stream that ends
 * (or drops) before the answer after giving an event id is resumed with GET, within the bounds of
 * {@link resumeSseStream} (the request is never POSTed again; a cancel of the call or the
 * transport's close aborts the wait or the GET). The POST's stream is released (its fetch aborted)
 * once the answer came. Resolves the failure to deliver when the call was left unanswered (its
 * answer too large, its stream gone), else `undefined`.
 */
export async function readCallAnswer(
  host: AnswerStreamHost,
  { response, request, answer, onAnswer }: CallAnswerOptions,
): Promise<JsonRpcResponse | undefined> {
  const { stop } = answer;
  const cursor: SseCursor = { lastEventId: "", retryMs: undefined };
  let answered = false;
  const take = (message: JsonRpcMessage): boolean => {
    if (isJsonRpcResponse(message) && message.id === request.id) {
      answered = true;
      onAnswer?.(message);
    }
    host.deliver(message);
    return answered;
  };
  let why = "the daemon sent no answer";
  let resumeFailure: ResumeFailure | undefined;
  let tooLarge: AnswerTooLarge | undefined;
  try {
    // The POST's SSE stream is read until the answer: then it is released (its body cancelled, its
    // fetch aborted) rather than held until the server ends it, so a server that never ends its
    // streams holds no connection per answered call. A JSON answer has been read to its end when
    // it is taken: nothing of it is left to release.
    await readMessages(response, take, { handlers: host.handlers(), answer, cursor }).catch((error: unknown) => {
      if (error instanceof AnswerTooLarge || cursor.lastEventId === "") throw error;
      why = describeError(error);
    });
    if (answered && contentTypeOf(response) !== "application/json") stop.abort();
    if (!answered && cursor.lastEventId !== "" && !stop.signal.aborted && host.isOpen())
      resumeFailure = await resumeSseStream(cursor, stop.signal, (lastEventId) =>
        readStreamGet(host, {
          request: { kind: "resume", lastEventId },
          cursor,
          stop,
          take,
          answer,
          answered: () => answered,
        }),
      );
  } catch (error) {
    if (error instanceof AnswerTooLarge) tooLarge = error;
    why = describeError(error);
  }
  if (answered || stop.signal.aborted || !host.isOpen()) return undefined;
  if (tooLarge !== undefined) {
    const message = `the HTTP answer to ${callOf(request)} from ${host.shownUrl} is over the ${tooLarge.maxBytes}-byte limit per message (${tooLarge.howFound}); the transport stopped reading it and closed its stream`;
    return jsonRpcFailure(request.id, JsonRpcErrorCode.ResponseTooLarge, message, { maxBytes: tooLarge.maxBytes });
  }
  const message = `the HTTP answer from ${host.shownUrl} ended before the daemon answered (${resumeFailure?.why ?? why}); the request may have been carried out`;
  return jsonRpcFailure(request.id, JsonRpcErrorCode.InternalError, message, resumeFailure?.details);
}
