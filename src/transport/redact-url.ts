/** Query parameters that carry credentials and must not appear in messages. */
const SECRET_PARAMETERS = /([?&](?:token|access_token|auth|key)=)[^&#]*/gi;

/**
 * A URL as it may appear in an error message or a log: credentials in the query (`?token=…`, the way
 * WebSocket clients that cannot set headers pass the bridge's token) and in the authority
 * (`user:password@`) are replaced by `[redacted]`.
 */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, "$1[redacted]").replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, "$1[redacted]@");
}
