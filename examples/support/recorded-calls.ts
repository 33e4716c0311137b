/**
 * The calls the quickstart makes, read from the golden fixture the mock daemon replays: the mock
 * answers a request whose operation and payload were recorded, so the example sends exactly those.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { GlassRequest, OperationName, PayloadOf } from "glass-sdk";

/** The package's golden fixture, `fixtures/protocol-golden-v1.json`. */
export const FIXTURE_PATH = fileURLToPath(new URL("../../fixtures/protocol-golden-v1.json", import.meta.url));

/** The recorded requests, by request id. */
export interface RecordedCalls {
  /**
   * The payload of the recorded request `requestId`, typed as `operation`'s payload. Throws when the
   * fixture has no such request or it is a request for another operation.
   */
  payload<Op extends OperationName>(operation: Op, requestId: string): PayloadOf<Op>;
}

export function loadRecordedCalls(path: string = FIXTURE_PATH): RecordedCalls {
  const fixture = JSON.parse(readFileSync(path, "utf8")) as { requests: GlassRequest[] };
  const byId = new Map(fixture.requests.map((request) => [request.requestId, request]));
  return {
    payload(operation, requestId) {
      const request = byId.get(requestId);
      if (request === undefined) throw new Error(`the fixture ${path} has no request ${requestId}`);
      if (request.operation !== operation) throw new Error(`request ${requestId} of the fixture is ${request.operation}, not ${operation}`);
      // The fixture's JSON has the payload shape of its operation; the mock daemon answers exactly it.
      return request.payload as PayloadOf<typeof operation>;
    },
  };
}
