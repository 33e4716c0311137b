import type { PayloadOf } from "../../generated/operation-map.js";
import type {
  GlassErrorObject,
  GlassMutationLease,
  GlassRequest as GeneratedRequest,
  GlassResponse as GeneratedResponse,
} from "../../generated/types/glass-protocol-v1.js";

/** `T` without its index signature (`[k: string]: unknown`), keeping the named fields. */
type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** The fields every response has, whatever its outcome. */
type ResponseCommon = Omit<KnownFields<GeneratedResponse>, "ok" | "result" | "error">;

/** A Glass request envelope for operation `Op`, its payload typed by the catalog. */
export type GlassRequest<Op extends string = string> = Omit<GeneratedRequest, "operation" | "payload"> & {
  operation: Op;
  payload: PayloadOf<Op>;
};

/** A successful Glass response carrying a result of type `T`. */
export type GlassSuccessResponse<T = unknown> = ResponseCommon & {
  ok: true;
  result: T;
};

/** A failed Glass response carrying a typed error object. */
export type GlassErrorResponse = ResponseCommon & {
  ok: false;
  error: GlassErrorObject;
};

/** A Glass response envelope: `ok` tells which of `result` and `error` it carries. */
export type GlassResponse<T = unknown> = GlassSuccessResponse<T> | GlassErrorResponse;

export type { GlassErrorObject, GlassMutationLease };
