/**
 * An independent oracle for the version 1 envelope rules (protocol page §1), to compare
 * `validateRequest` / `validateResponse` against.
 *
 * It deliberately shares no code with `src/validation` or `generated/`:
 *
 * - the structure comes from ajv compiling `schema/glass-protocol-v1.schema.json` (the `request`
 *   and `response` definitions; the strict response is a copy of the schema with
 *   `additionalProperties: false` added to the response, error and retry-advice objects);
 * - what ajv cannot check is written here from the protocol page: "any JSON" (ajv's `{}` accepts
 *   `undefined`, functions, NaN, class instances...), byte limits counted with `TextEncoder`
 *   (identifiers ≤ 128, operation ≤ 96, error code ≤ 64, message ≤ 512 UTF-8 bytes, details ≤ 16 KiB
 *   of compact JSON), `sessionId` = `mutationLease.sessionId`, and — as a second opinion on the
 *   schema's patterns — the identifier and operation character rules, using the JS engine's own
 *   `\p{White_Space}` data.
 *
 * The oracle is only ever given generated data (JSON values and ordinary non-JSON values such as
 * `undefined`, NaN, Maps, Dates, sparse arrays). Hostile values (cycles, throwing getters, proxies)
 * are only used to check that the validators never throw; the oracle does not judge them.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";

/** The oracle's verdict, with the rules it found broken (for failure messages). */
export interface OracleVerdict {
  ok: boolean;
  broken: string[];
}

const SCHEMA_FILE = new URL("../../../schema/glass-protocol-v1.schema.json", import.meta.url);
const BASE = "https://glass-sdk.oracle.test/";

type SchemaObject = Record<string, unknown> & { $defs: Record<string, Record<string, unknown>> };

function loadSchema(): SchemaObject {
  return JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as SchemaObject;
}

/** The schema with unknown fields rejected on the response, error and retry-advice objects. */
function strictCopy(schema: SchemaObject): SchemaObject {
  const copy = structuredClone(schema);
  for (const name of ["response", "error", "retryAdvice"]) {
    const def = copy.$defs[name];
    if (def === undefined) throw new Error(`the schema has no $defs/${name}`);
    def["additionalProperties"] = false;
  }
  return copy;
}

let compiled: { request: ValidateFunction; response: ValidateFunction; responseStrict: ValidateFunction } | undefined;

function validators(): NonNullable<typeof compiled> {
  if (compiled !== undefined) return compiled;
  // unicodeRegExp (the default) compiles the schema's \p{White_Space} pattern with the `u` flag.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const schema = loadSchema();
  ajv.addSchema({ ...schema, $id: `${BASE}lenient.json` });
  ajv.addSchema({ ...strictCopy(schema), $id: `${BASE}strict.json` });
  compiled = {
    request: ajv.compile({ $ref: `${BASE}lenient.json#/$defs/request` }),
    response: ajv.compile({ $ref: `${BASE}lenient.json#/$defs/response` }),
    responseStrict: ajv.compile({ $ref: `${BASE}strict.json#/$defs/response` }),
  };
  return compiled;
}

// ---------------------------------------------------------------------------------------------
// "Any JSON": a value that JSON.stringify → JSON.parse gives back as it is.

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Why a value is not JSON data, or `undefined` when it is: null, a boolean, a finite number, a
 * string, a dense array of JSON data, or a plain object (prototype Object.prototype or null) whose
 * own enumerable string-keyed properties are all JSON data. No cycles.
 */
export function notJsonBecause(value: unknown, where = "", ancestors: object[] = []): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${where}: non-finite number`;
  if (typeof value !== "object") return `${where}: ${typeof value}`;
  if (ancestors.includes(value)) return `${where}: cycle`;
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!Object.hasOwn(value, i)) return `${where}[${i}]: hole`;
        const inner = notJsonBecause(value[i], `${where}[${i}]`, ancestors);
        if (inner !== undefined) return inner;
      }
      return undefined;
    }
    if (!isPlainObject(value)) return `${where}: not a plain object`;
    for (const key of Object.keys(value)) {
      const inner = notJsonBecause((value as Record<string, unknown>)[key], `${where}.${key}`, ancestors);
      if (inner !== undefined) return inner;
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
}

// ---------------------------------------------------------------------------------------------
// What JSON Schema cannot say, from the protocol page.

const encoder = new TextEncoder();

/** UTF-8 bytes of a string, as `TextEncoder` writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** UTF-8 bytes of a value's compact JSON serialization. */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value));
}

const WHITE_SPACE = /^\p{White_Space}$/u;

function isControl(codePoint: number): boolean {
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** Identifier (§1): non-empty, ≤ 128 UTF-8 bytes, no Unicode whitespace, no U+0000–U+001F / U+007F–U+009F. */
function identifierBroken(value: unknown, name: string, broken: string[]): void {
  if (typeof value !== "string") return; // type errors are ajv's to report
  if (value.length === 0) broken.push(`${name}: empty`);
  if (utf8Bytes(value) > 128) broken.push(`${name}: ${utf8Bytes(value)} UTF-8 bytes > 128`);
  for (const char of value) {
    const codePoint = char.codePointAt(0)!;
    if (isControl(codePoint)) broken.push(`${name}: control character U+${codePoint.toString(16)}`);
    else if (WHITE_SPACE.test(char)) broken.push(`${name}: whitespace U+${codePoint.toString(16)}`);
  }
}

/** Operation (§1): 1..96 UTF-8 bytes, no Unicode whitespace (control characters are allowed). */
function operationBroken(value: unknown, broken: string[]): void {
  if (typeof value !== "string") return;
  if (value.length === 0) broken.push("operation: empty");
  if (utf8Bytes(value) > 96) broken.push(`operation: ${utf8Bytes(value)} UTF-8 bytes > 96`);
  for (const char of value) {
    if (WHITE_SPACE.test(char)) broken.push(`operation: whitespace U+${char.codePointAt(0)!.toString(16)}`);
  }
}

function has(object: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(object, key) && object[key] !== undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// The verdicts.

/** The oracle's verdict on a request envelope. */
export function oracleRequest(value: unknown): OracleVerdict {
  const broken: string[] = [];
  const notJson = notJsonBecause(value);
  if (notJson !== undefined) broken.push(`not JSON (${notJson})`);
  const ajv = validators().request;
  if (!ajv(value)) broken.push(`ajv: ${ajvErrors(ajv)}`);
  const request = asRecord(value);
  if (request !== undefined) {
    identifierBroken(request["requestId"], "requestId", broken);
    identifierBroken(request["correlationId"], "correlationId", broken);
    identifierBroken(request["sessionId"], "sessionId", broken);
    operationBroken(request["operation"], broken);
    const lease = asRecord(request["mutationLease"]);
    if (lease !== undefined) {
      identifierBroken(lease["sessionId"], "mutationLease.sessionId", broken);
      identifierBroken(lease["token"], "mutationLease.token", broken);
      // §1: when mutationLease is present too, sessionId must equal mutationLease.sessionId.
      if (has(request, "sessionId") && request["sessionId"] !== lease["sessionId"]) {
        broken.push("sessionId ≠ mutationLease.sessionId");
      }
    }
  }
  return { ok: broken.length === 0, broken };
}

/** The oracle's verdict on a response envelope (`strict`: unknown fields rejected). */
export function oracleResponse(value: unknown, strict: boolean): OracleVerdict {
  const broken: string[] = [];
  const notJson = notJsonBecause(value);
  if (notJson !== undefined) broken.push(`not JSON (${notJson})`);
  const ajv = strict ? validators().responseStrict : validators().response;
  if (!ajv(value)) broken.push(`ajv: ${ajvErrors(ajv)}`);
  const response = asRecord(value);
  if (response !== undefined) {
    identifierBroken(response["requestId"], "requestId", broken);
    identifierBroken(response["correlationId"], "correlationId", broken);
    // §1: exactly one of result/error, agreeing with ok (also in the schema; checked again here).
    if (response["ok"] === true && (!has(response, "result") || has(response, "error")))
      broken.push("ok true needs result and no error");
    if (response["ok"] === false && (!has(response, "error") || has(response, "result")))
      broken.push("ok false needs error and no result");
    const error = asRecord(response["error"]);
    if (error !== undefined) {
      const code = error["code"];
      const message = error["message"];
      if (typeof code === "string" && utf8Bytes(code) > 64) broken.push(`error.code: ${utf8Bytes(code)} bytes > 64`);
      if (typeof message === "string" && utf8Bytes(message) > 512)
        broken.push(`error.message: ${utf8Bytes(message)} bytes > 512`);
      if (has(error, "details") && notJsonBecause(error["details"]) === undefined) {
        const size = jsonBytes(error["details"]);
        if (size > 16384) broken.push(`error.details: ${size} bytes of JSON > 16384`);
      }
      const retry = asRecord(error["retry"]);
      if (retry !== undefined)
        identifierBroken(retry["recommendedOperation"], "error.retry.recommendedOperation", broken);
    }
  }
  return { ok: broken.length === 0, broken };
}

function ajvErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`).join("; ");
}
