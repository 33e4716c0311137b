import type { GlassErrorObject, GlassResponse } from "./envelope-types.js";

/** The ids a response copies from the request it answers. */
export interface ResponseIds {
  readonly requestId: string;
  readonly correlationId?: string | undefined;
}

/**
 * The response envelope answering `ids` (a request, or another response): `ok` with `value` as its
 * result, or not `ok` with `value` as its error object. Built field by field (no spreads): it runs
 * once per call.
 */
export function responseEnvelope(ids: ResponseIds, ok: true, value: unknown): GlassResponse;
export function responseEnvelope(ids: ResponseIds, ok: false, value: GlassErrorObject): GlassResponse;
export function responseEnvelope(ids: ResponseIds, ok: boolean, value: unknown): GlassResponse {
  const response: Record<string, unknown> = { protocolVersion: 1, requestId: ids.requestId };
  if (ids.correlationId !== undefined) response.correlationId = ids.correlationId;
  response.ok = ok;
  if (ok) response.result = value;
  else response.error = value;
  return response as GlassResponse;
}
