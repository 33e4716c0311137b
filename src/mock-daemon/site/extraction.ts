/**
 * The daemon's structured extraction of one region (glass-browser 0.3.14 `extract_structured`), as
 * task.execute's table.extract runs it: the region's `structuredRecords` as the field `rows`, cut
 * to `maxItems` (with a continuation to resume from), each row also an item of `recordItems`, and
 * the size of the whole result in `limits.serializedBytes`.
 */
import type {
  BrowserSemanticObservation,
  BrowserSemanticRegion,
  BrowserSemanticTarget,
} from "../../../generated/types/operations/browser-results.js";
import { utf8Length } from "../../validation/byte-length.js";
import { mockError } from "../handlers.js";
import { sortedKeys } from "./daemon-text.js";
import type { SiteContext } from "./site-context.js";

/** The largest result, in bytes, an extraction for a task returns. */
const MAX_BYTES = 64 * 1024;

/** The lowercase hex SHA-256 of `text`'s UTF-8 bytes, by Web Crypto. */
async function sha256(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined)
    throw new Error(
      "task.execute needs Web Crypto (crypto.subtle) to hash the extraction's contract, and this environment has none",
    );
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** A URL without credentials, query or fragment. */
function sanitized(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url.split(/[?#]/)[0] ?? "";
  }
}

/** The extraction of a region's records as the field `name` (`rows` for a table), at most `maxItems` of them. */
export async function extractRecords(
  observation: BrowserSemanticObservation,
  region: BrowserSemanticRegion,
  name: string,
  maxItems: number,
) {
  const path = "$.structuredRecords";
  const source = (region.structuredRecords ?? region.targets) as unknown[] | undefined;
  if (source === undefined) throw mockError("tool.failed", `field path is missing: ${path}`);
  const end = Math.min(maxItems, source.length);
  const items = source.slice(0, end);
  const { limits } = observation;
  const truncated =
    limits.truncated ||
    limits.omittedRegions > 0 ||
    limits.omittedTargets > 0 ||
    limits.omittedStructuredRecords > 0 ||
    end < source.length;
  const route = { ...observation.route, url: sanitized(observation.route.url) };
  const referenceOf = (item: unknown): string | undefined => {
    const reference = (item as { reference?: unknown }).reference;
    return typeof reference === "string" && reference !== "" && reference.length <= 128 ? reference : undefined;
  };
  const entityIds = items.flatMap((item) => referenceOf(item) ?? []);
  const contractHash = await sha256(JSON.stringify([[{ name, path, kind: "table" }], region.id]));
  const continuation =
    end < source.length
      ? {
          nextIndex: end,
          sourceRevision: observation.revision,
          regionId: region.id,
          contractHash,
          sourceRoute: route,
          sourceRouteFingerprint: await sha256(JSON.stringify(observation.route)),
        }
      : undefined;
  const extraction = {
    sourceRevision: observation.revision,
    sourceRoute: route,
    records: [{ [name]: items }],
    ...(items.length === 0
      ? {}
      : {
          recordItems: items.map((value, index) => ({
            field: name,
            index,
            value,
            ...(referenceOf(value) === undefined ? {} : { entityIds: [referenceOf(value)] }),
          })),
        }),
    truncated,
    provenance: [path],
    fieldProvenance: [{ field: name, path, regionId: region.id, ...(entityIds.length === 0 ? {} : { entityIds }) }],
    ...(continuation === undefined ? {} : { continuation }),
    limits: {
      maxItems,
      maxBytes: MAX_BYTES,
      observedItems: limits.omittedStructuredRecords + source.length,
      serializedBytes: 0,
      truncated,
    },
  };
  return settle(extraction);
}

const SENSITIVE = [
  "password",
  "passwd",
  "secret",
  "token",
  "apikey",
  "cookie",
  "authorization",
  "creditcard",
  "cardnumber",
  "cvv",
  "ssn",
  "socialsecurity",
];

/** Whether a text names something sensitive, as the daemon judges it (its ASCII letters and digits, lower-cased). */
const sensitive = (text: string): boolean => {
  const squeezed = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SENSITIVE.some((term) => squeezed.includes(term));
};

/** A copy of a value with every sensitive string, and the value of every sensitive key, `<redacted>`. */
function redacted(value: unknown): unknown {
  if (typeof value === "string") return sensitive(value) ? "<redacted>" : value;
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, sensitive(key) ? "<redacted>" : redacted(inner)]),
  );
}

/** The result's size settled as the daemon settles it (the size counts itself). */
function settle<T extends { limits: { serializedBytes: number } }>(extraction: T): T {
  for (let round = 0; round < 8; round += 1) {
    const bytes = utf8Length(JSON.stringify(extraction));
    if (bytes === extraction.limits.serializedBytes) break;
    extraction.limits.serializedBytes = bytes;
  }
  return extraction;
}

/** region.extract's extraction: the region itself as the field `region` (sensitive text redacted). */
export function extractRegion(
  observation: BrowserSemanticObservation,
  region: BrowserSemanticRegion,
  maxItems: number,
) {
  const { limits } = observation;
  const truncated =
    limits.truncated || limits.omittedRegions > 0 || limits.omittedTargets > 0 || limits.omittedStructuredRecords > 0;
  return settle({
    sourceRevision: observation.revision,
    sourceRoute: { ...observation.route, url: sanitized(observation.route.url) },
    records: [{ region: redacted(region) }],
    truncated,
    provenance: ["$"],
    fieldProvenance: [{ field: "region", path: "$", regionId: region.id }],
    limits: {
      maxItems,
      maxBytes: MAX_BYTES,
      observedItems: limits.omittedStructuredRecords,
      serializedBytes: 0,
      truncated,
    },
  });
}

/** field.read's extraction: one record of the field's state from the form values (a password `<redacted>`); its size is the record's. */
export function readField(
  site: SiteContext,
  observation: BrowserSemanticObservation,
  region: BrowserSemanticRegion,
  target: BrowserSemanticTarget,
  maxItems: number,
) {
  const element = site.page().elements.find((candidate) => site.reference(candidate) === target.reference);
  const value =
    element === undefined
      ? null
      : element.attributes.type === "password"
        ? "<redacted>"
        : (site.state.values[element.key] ?? "");
  const empty = element === undefined || (site.state.values[element.key] ?? "") === "";
  const record = sortedKeys({
    field: target.name ?? "",
    reference: target.reference,
    role: target.role,
    inputType: null,
    value,
    checked: null,
    selectedOption: null,
    empty,
    readOnly: false,
    required: false,
  });
  return {
    sourceRevision: observation.revision,
    sourceRoute: observation.route,
    records: [record],
    truncated: false,
    provenance: ["$.interactive"],
    fieldProvenance: [{ field: "field", path: "$.interactive", regionId: region.id, entityIds: [target.reference] }],
    limits: {
      maxItems,
      maxBytes: MAX_BYTES,
      observedItems: 1,
      serializedBytes: utf8Length(JSON.stringify(record)),
      truncated: false,
    },
  };
}
