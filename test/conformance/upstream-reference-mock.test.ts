/**
 * The mock daemon checked against upstream Glass data, read from outside the project (never copied
 * in): each upstream golden fixture replayed as the mock's fixture must come back as the recorded
 * results and errors, and the upstream framing corpus must be accepted or refused as upstream does.
 * Point GLASS_REFERENCE_DIR at the data; by default the shared reference folder next to the
 * checkout is used. Skipped when there is none.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GlassRequest, GlassResponse } from "glass-sdk";
import { requiresLease, toolFor } from "../../src/operations/catalog.js";
import type { GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { TRANSPORTS, startTarget } from "../support/conformance-target.js";
import { expectedToolResult } from "../support/fixture-calls.js";

const referenceDir =
  process.env.GLASS_REFERENCE_DIR ?? fileURLToPath(new URL("../../../shared/reference/glass/", import.meta.url));
const files = existsSync(referenceDir) ? readdirSync(referenceDir) : [];
const goldens = files.filter((file) => /^protocol-golden-v1\..*\.json$/.test(file));
const corpora = files.filter((file) => /^mcp_framing_corpus\..*\.json$/.test(file));

const read = (file: string): unknown => JSON.parse(readFileSync(`${referenceDir}/${file}`, "utf8"));

describe.skipIf(goldens.length === 0)(`upstream golden fixtures replayed by the mock daemon (${referenceDir})`, () => {
  it.each(goldens)(
    "%s: every recorded request is answered with its recorded result or error, session ids in the arguments never compared",
    async (file) => {
      const golden = read(file) as { requests: GlassRequest[]; responses: GlassResponse[] };
      const target = await startTarget("socket", { fixture: golden as unknown as GoldenFixture });
      try {
        const peer = await target.connectReady({ protocolVersion: 1 });
        const lease = (await peer.request("lease", "glass/lease/acquire", { ttlMs: 60_000 })).result as {
          token: string;
        };
        let answered = 0;
        for (const request of golden.requests) {
          const response = golden.responses.find((r) => r.requestId === request.requestId);
          if (response === undefined) continue;
          const args: Record<string, unknown> = { ...(request.payload as Record<string, unknown>) };
          if (requiresLease(request.operation, request.payload)) {
            // The recorded session ids go along untouched; only the token must be this connection's.
            if (request.sessionId !== undefined) args.sessionId = request.sessionId;
            if (request.mutationLease !== undefined)
              args.mutationLease = { sessionId: request.mutationLease.sessionId, token: lease.token };
            else args.leaseToken = lease.token;
          }
          const answer = await peer.request(request.requestId, "tools/call", {
            name: toolFor(request.operation),
            arguments: args,
          });
          expect(answer.error, request.requestId).toBeUndefined();
          expect(answer.result, request.requestId).toEqual(expectedToolResult(response, request.operation));
          answered++;
        }
        expect(answered).toBe(golden.responses.length);
      } finally {
        await target.stop();
      }
    },
  );
});

interface FramingCase {
  name: string;
  bytes: number[];
  valid: boolean;
}

describe.skipIf(corpora.length === 0)(`the upstream framing corpus against the mock daemon (${referenceDir})`, () => {
  it.each(corpora)("%s: a valid case is answered; an invalid one ends the connection without a reply", async (file) => {
    for (const transport of TRANSPORTS) {
      for (const framingCase of read(file) as FramingCase[]) {
        const target = await startTarget(transport);
        try {
          const peer = await target.connect();
          peer.sendRaw(new Uint8Array(framingCase.bytes));
          peer.endInput();
          const label = `${framingCase.name} over ${transport}`;
          if (framingCase.valid) {
            // A request before the handshake: answered -32002, which shows it was read.
            const answer = await peer.waitFor((item) => item.message !== undefined, 2000);
            expect(answer.message, label).toMatchObject({ error: { code: -32002 } });
          } else {
            await peer.closed;
            expect(peer.received, label).toEqual([]);
          }
        } finally {
          await target.stop();
        }
      }
    }
  });
});
