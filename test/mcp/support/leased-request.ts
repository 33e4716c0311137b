import type { GlassRequest } from "glass-sdk";

/** A request for `operation` carrying session s-1's mutation lease (token t-1), ids r-1 and c-1. */
export const leased = <Op extends string>(operation: Op, payload: unknown): GlassRequest =>
  ({
    protocolVersion: 1,
    requestId: "r-1",
    correlationId: "c-1",
    sessionId: "s-1",
    mutationLease: { sessionId: "s-1", token: "t-1" },
    operation,
    payload,
  }) as GlassRequest;
