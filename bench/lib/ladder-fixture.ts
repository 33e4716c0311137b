import { RESULT_SAMPLES } from "../../test/support/result-samples.js";
import { webIrSample } from "../../test/support/web-ir-sample.js";
import type { BenchOperation } from "./fixture.js";

/** Which way a rung's large message goes. */
export type LadderDirection = "response" | "request";

/** One rung of the large-message ladder: one call whose request or response is `messageBytes` on the wire. */
export interface LadderRung {
  /** The rung's name, also the operation's key: `getDOM-8MB`. */
  readonly key: string;
  readonly direction: LadderDirection;
  /** What the message stands for. */
  readonly shape: string;
  /** UTF-8 bytes of the large JSON-RPC message (the response, or the request) as the fast daemon / the raw client writes it. */
  readonly messageBytes: number;
  readonly operation: BenchOperation;
}

const MB = 1_000_000;
const KIB = 1024;
/** The Web IR maximum (x-maxBytes of the schema): 256 KiB of compact JSON. */
const WEB_IR_MAX_BYTES = 256 * KIB;
/** The daemon's request limit: 4 MiB per message. */
const REQUEST_MAX_BYTES = 4 * KIB * KIB;

/** The rungs, smallest first within each direction. */
export const LADDER_SIZES: readonly {
  direction: LadderDirection;
  kind: "getDOM" | "screenshot" | "webIr" | "extract";
  bytes: number;
  label: string;
}[] = [
  { direction: "response", kind: "getDOM", bytes: 100_000, label: "100KB" },
  { direction: "response", kind: "getDOM", bytes: 1 * MB, label: "1MB" },
  { direction: "response", kind: "getDOM", bytes: 8 * MB, label: "8MB" },
  { direction: "response", kind: "getDOM", bytes: 30 * MB, label: "30MB" },
  { direction: "response", kind: "screenshot", bytes: 8 * MB, label: "8MB" },
  { direction: "request", kind: "webIr", bytes: 100_000, label: "100KB" },
  // The largest Web IR document the schema allows; the message wraps it in a little more.
  { direction: "request", kind: "webIr", bytes: WEB_IR_MAX_BYTES - 64, label: "256KiB" },
  // Just under the daemon's limit, so every framing (one JSON line, too) stays within it.
  { direction: "request", kind: "extract", bytes: REQUEST_MAX_BYTES - 1024, label: "4MiB" },
];

/** Builds every rung's operation (the 30 MB one takes a second or two). */
export function ladderRungs(): LadderRung[] {
  return LADDER_SIZES.map(({ direction, kind, bytes, label }) => {
    const key = `${kind}-${label}`;
    switch (kind) {
      case "getDOM":
        return rung(key, direction, "getDOM: a DOM tree (nested nodes, attributes, text)", {
          operation: "browser.getDOM",
          tool: "getDOM",
          payload: {},
          result: domTree(bytes),
        });
      case "screenshot":
        return rung(key, direction, "screenshot: capture metadata and one base64 image", {
          operation: "browser.screenshot",
          tool: "screenshot",
          payload: { fullPage: true },
          result: screenshot(bytes),
        });
      case "webIr": {
        const ir = webIrDocument(bytes);
        return rung(key, direction, "webIr.validate of a Web IR document", {
          operation: "webIr.validate",
          tool: "validateWebIr",
          payload: { ir },
          result: { valid: true, schemaVersion: 1, revision: ir.revision },
        });
      }
      case "extract": {
        const sample = RESULT_SAMPLES.find((s) => s.operation === "browser.extractStructured")!;
        return rung(key, direction, "extractStructured with a large open payload (field hints and example records)", {
          operation: "browser.extractStructured",
          tool: "extractStructured",
          payload: extractionRequest(bytes),
          result: sample.result as Record<string, unknown>,
        });
      }
    }
  });
}

function rung(
  key: string,
  direction: LadderDirection,
  shape: string,
  op: Omit<BenchOperation, "key" | "payloadBytes">,
): LadderRung {
  const operation: BenchOperation = { ...op, key, payloadBytes: Buffer.byteLength(JSON.stringify(op.payload)) };
  return {
    key,
    direction,
    shape,
    operation,
    messageBytes: direction === "response" ? responseBytes(op.result, op.operation) : requestBytes(op.tool, op.payload),
  };
}

/** Bytes of the tools/call request the raw client writes (id 1000). */
function requestBytes(tool: string, payload: Record<string, unknown>): number {
  return Buffer.byteLength(
    JSON.stringify({ jsonrpc: "2.0", id: 1000, method: "tools/call", params: { name: tool, arguments: payload } }),
  );
}

/** Bytes of the fast daemon's answer carrying `result` (the result's JSON as the text item; a screenshot's image as an image item). */
function responseBytes(result: Record<string, unknown>, operation: string): number {
  const { image, ...rest } = result as { image?: { data: string; mimeType: string } };
  const text = JSON.stringify(image === undefined ? result : rest);
  const content: unknown[] = [{ type: "text", text }];
  if (image !== undefined) content.push({ type: "image", data: image.data, mimeType: image.mimeType });
  const meta =
    operation === "browser.screenshot"
      ? {}
      : {
          _meta: {
            contextCost: {
              payloadBytes: Buffer.byteLength(text),
              estimatedTokens: Math.ceil(Buffer.byteLength(text) / 4),
            },
          },
        };
  return Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1000, result: { content, ...meta } }));
}

/** A DOM node as getDOM reports it. */
interface DomNode {
  node_id: number;
  node_name: string;
  node_value: string;
  children: DomNode[];
  attributes: string[];
  bounding_box: null;
}

/**
 * A getDOM tree whose answer is about `messageBytes`: #document › HTML › BODY › sections of 20
 * list items, each an element with attributes and a text child. Sized by the answer's bytes
 * (the result's JSON travels escaped inside the text item, so the answer is larger than the JSON).
 */
function domTree(messageBytes: number): Record<string, unknown> {
  let id = 0;
  const node = (name: string, value: string, children: DomNode[] = [], attributes: string[] = []): DomNode => ({
    node_id: ++id,
    node_name: name,
    node_value: value,
    children,
    attributes,
    bounding_box: null,
  });
  const body = node("BODY", "", [], ["class", "page"]);
  const root = node("#document", "", [
    node(
      "HTML",
      "",
      [node("HEAD", "", [node("TITLE", "", [node("#text", "Catalogue — page 1")])]), body],
      ["lang", "en"],
    ),
  ]);
  // One section's share of the answer, measured once: the escaped JSON of a section, plus a comma.
  const section = (n: number): DomNode =>
    node(
      "SECTION",
      "",
      Array.from({ length: 20 }, (_, i) =>
        node(
          "LI",
          "",
          [
            node(
              "A",
              "",
              [node("#text", `Item ${n}.${i} — Straße ${n * 20 + i}, in stock`)],
              ["href", `/items/${n}-${i}`, "class", "item-link"],
            ),
          ],
          ["class", "item", "data-row", String(i)],
        ),
      ),
      ["id", `section-${n}`, "class", "results"],
    );
  const measure = (): number => responseBytes(root as unknown as Record<string, unknown>, "browser.getDOM");
  const fixed = measure();
  const perSection = Buffer.byteLength(JSON.stringify(JSON.stringify(section(0)))) - 2 + 1;
  // Estimate, measure, then correct once by the measured size of a section.
  const fill = (count: number): void => {
    id = 1000;
    body.children = Array.from({ length: Math.max(1, count) }, (_, n) => section(n));
  };
  const estimate = Math.round((messageBytes - fixed) / perSection);
  fill(estimate);
  const measured = (measure() - fixed) / estimate;
  fill(Math.round((messageBytes - fixed) / measured));
  return root as unknown as Record<string, unknown>;
}

/** A full-page PNG capture whose base64 image makes the answer about `messageBytes`. */
function screenshot(messageBytes: number): Record<string, unknown> {
  const metadata = {
    format: "png",
    width: 1920,
    height: 8000,
    encoded_bytes: 0,
    device_scale_factor: 1,
    scale: 1,
    full_page: true,
    target_id: "tab-1",
    frame_id: "frame-main",
  };
  const fixed = responseBytes({ ...metadata, image: { data: "", mimeType: "image/png" } }, "browser.screenshot");
  const base64Length = Math.floor((messageBytes - fixed) / 4) * 4;
  const raw = Buffer.alloc((base64Length / 4) * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 131 + (i >> 7)) & 0xff; // not compressible, like image data
  return { ...metadata, encoded_bytes: raw.length, image: { data: raw.toString("base64"), mimeType: "image/png" } };
}

/** An extractStructured payload (open: passed through as given) whose request is about `messageBytes`. */
function extractionRequest(messageBytes: number): Record<string, unknown> {
  const fields = [
    { name: "title", path: "$.page.title", kind: "string", hint: "the item's title" },
    { name: "due", path: "$.page.due", kind: "date", hint: "the due date, ISO 8601" },
  ];
  const example = (i: number) => ({
    title: `Example title ${i} — Straße ${i}`,
    due: `2026-12-${String((i % 28) + 1).padStart(2, "0")}`,
    note: "returned on time; renewed once",
  });
  const base = { fields, examples: [] as unknown[] };
  const fixed = requestBytes("extractStructured", base);
  const perExample = Buffer.byteLength(JSON.stringify(example(100_000))) + 1;
  base.examples = Array.from({ length: Math.floor((messageBytes - fixed) / perExample) }, (_, i) => example(i));
  return base;
}

/** The largest test-generator Web IR document whose compact JSON is at most `maxBytes` (the generator counts characters, not bytes). */
function webIrDocument(maxBytes: number): ReturnType<typeof webIrSample> {
  let target = maxBytes;
  for (;;) {
    const ir = webIrSample(target);
    const bytes = Buffer.byteLength(JSON.stringify(ir));
    if (bytes <= maxBytes) return ir;
    target -= Math.max(64, bytes - maxBytes);
  }
}
