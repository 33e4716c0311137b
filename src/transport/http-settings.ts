// The HTTP transport's settings, checked once when it is made: a `request.invalid` GlassError for a
// token that is not a bearer token, a setting out of range, or a `serverStream` that is not a boolean.

import { requestInvalid } from "../errors/error-classes.js";
import { redactUrl } from "../errors/redact.js";
import type { HttpErrorContext } from "./http-errors.js";
import { checkDurationMs, checkMaxRetries, DEFAULT_MAX_RETRY_WAIT_MS } from "./http-retry.js";
import { checkMaxInFlight, transportRedactor } from "./transport-util.js";

/** RFC 6750 `b64token`: what a bearer token may contain. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The options of `httpTransport` these settings come from (all but its ky and fetch). */
export interface HttpSettingsOptions {
  url: string | URL;
  token?: string | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  maxInFlight?: number | undefined;
  requestTimeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  maxRetryWaitMs?: number | undefined;
  serverStream?: boolean | undefined;
}

/** The checked settings, defaults applied. */
export interface HttpSettings {
  url: string;
  /** The URL as messages show it, and the scrubbing of the token and the URL's credentials. */
  errorContext: HttpErrorContext;
  /** The caller's headers (lower-cased names) and `authorization`: the start of every request's headers. */
  baseHeaders: Readonly<Record<string, string>>;
  hasToken: boolean;
  maxInFlight: number;
  requestTimeoutMs: number | undefined;
  maxRetries: number;
  maxRetryWaitMs: number;
  serverStream: boolean;
}

/** Checks `options` and applies the defaults; throws a `request.invalid` GlassError for a setting it refuses. */
export function httpSettingsOf(options: HttpSettingsOptions): HttpSettings {
  const { token } = options;
  const url = String(options.url);
  if (token !== undefined && !BEARER_TOKEN.test(token)) {
    throw requestInvalid(
      "httpTransport: the token is not a bearer token (letters, digits, - . _ ~ + /, optionally ending in =); pass the bridge's token as it printed it",
    );
  }
  const baseHeaders: Record<string, string> = {};
  new Headers(options.headers).forEach((value, name) => (baseHeaders[name] = value));
  if (token !== undefined) baseHeaders.authorization = `Bearer ${token}`;
  const errorContext = { shownUrl: redactUrl(url), redact: transportRedactor(url, token) };
  const maxInFlight = checkMaxInFlight(options.maxInFlight);
  const requestTimeoutMs = checkDurationMs("requestTimeoutMs", options.requestTimeoutMs, undefined);
  const maxRetries = checkMaxRetries(options.maxRetries);
  const maxRetryWaitMs = checkDurationMs("maxRetryWaitMs", options.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS)!;
  if (options.serverStream !== undefined && typeof options.serverStream !== "boolean")
    throw requestInvalid("httpTransport: serverStream must be true or false");
  const serverStream = options.serverStream === true;
  const hasToken = token !== undefined;
  return {
    url,
    errorContext,
    baseHeaders,
    hasToken,
    maxInFlight,
    requestTimeoutMs,
    maxRetries,
    maxRetryWaitMs,
    serverStream,
  };
}
