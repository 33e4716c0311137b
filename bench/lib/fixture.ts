import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WebIrDocument } from "glass-sdk";
import { webIrSample } from "../../test/support/web-ir-sample.js";

/** The two calls measured: a small read and a ~100 KB Web IR document. */
export type PayloadKey = "small" | "large";

/** One measured call: its operation, MCP tool, payload and the result every client must get. */
export interface BenchOperation {
  /** The name the clients call it by: `small`, `large`, or a ladder rung's. */
  readonly key: string;
  readonly operation: string;
  readonly tool: string;
  readonly payload: Record<string, unknown>;
  /** UTF-8 bytes of the payload's compact JSON. */
  readonly payloadBytes: number;
  /** The recorded result, which the fast daemon answers with. */
  readonly result: Record<string, unknown>;
}

/** The bench fixture written for the daemon, and the calls it answers. */
export interface BenchFixture {
  readonly path: string;
  readonly operations: Readonly<Record<PayloadKey, BenchOperation>>;
}

/**
 * Writes a fixture for the fast daemon into `dir` as `name`: one recorded request and response per
 * operation (the fast daemon answers each read-only tool with the first recorded result of it).
 */
export function writeFixture(dir: string, name: string, operations: readonly BenchOperation[]): string {
  const fixture = {
    schemaVersion: 1,
    requests: operations.map((op) => ({
      protocolVersion: 1,
      requestId: `bench-${op.key}`,
      operation: op.operation,
      payload: op.payload,
    })),
    responses: operations.map((op) => ({
      protocolVersion: 1,
      requestId: `bench-${op.key}`,
      ok: true,
      result: op.result,
    })),
  };
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(fixture));
  return path;
}

/** The small call's result: a summary-level semantic observation of a checkout page (what observe answers with `level`). */
const CHECKOUT_ROUTE = { targetId: "tab-1", frameId: "frame-main", url: "https://shop.example/checkout" };
const CHECKOUT_SUMMARY = {
  schemaVersion: 1,
  revision: 12,
  level: "summary",
  route: CHECKOUT_ROUTE,
  page: {
    kind: "checkout",
    title: "Checkout",
    url: CHECKOUT_ROUTE.url,
    targetId: CHECKOUT_ROUTE.targetId,
    frameId: CHECKOUT_ROUTE.frameId,
    confidence: "high",
  },
  regions: [
    { id: "region_form", label: "Shipping address", kind: "form", interactiveCount: 6, confidence: "high" },
    {
      id: "region_summary",
      label: "Order summary",
      kind: "checkoutSummary",
      interactiveCount: 1,
      itemCount: 2,
      confidence: "high",
    },
  ],
  limits: { truncated: false, omittedRegions: 0, omittedTargets: 0, omittedStructuredRecords: 0 },
};

/** Target size of the large payload. */
const LARGE_PAYLOAD_BYTES = 100_000;

/**
 * Writes the bench fixture into `dir`: one recorded request per operation — `browser.observe
 * {level: "summary"}` with a small result, and `webIr.validate` of a valid ~100 KB Web IR document
 * (the test generator's page of regions, forms, fields, links and cells) with its small result.
 */
export function writeBenchFixture(dir: string): BenchFixture {
  const ir: WebIrDocument = webIrSample(LARGE_PAYLOAD_BYTES);
  const small: BenchOperation = {
    key: "small",
    operation: "browser.observe",
    tool: "observe",
    payload: { level: "summary" },
    payloadBytes: Buffer.byteLength(JSON.stringify({ level: "summary" })),
    result: CHECKOUT_SUMMARY,
  };
  const large: BenchOperation = {
    key: "large",
    operation: "webIr.validate",
    tool: "validateWebIr",
    payload: { ir },
    payloadBytes: Buffer.byteLength(JSON.stringify({ ir })),
    result: { valid: true, schemaVersion: 1, revision: ir.revision },
  };
  return { path: writeFixture(dir, "bench-fixture.json", [small, large]), operations: { small, large } };
}
