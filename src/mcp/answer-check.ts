import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { describeIssues, type ValidationIssue } from "../validation/issue.js";
import { utf8Length } from "../validation/byte-length.js";
import { pathPastDepth, TOO_DEEP_REASON } from "../validation/json-depth.js";
import { isJsonObject } from "../validation/json-value.js";
import { MAX_DETAILS_BYTES } from "./bounded-details.js";
import type { JsonRpcResponse } from "./json-rpc.js";
import { truncateUtf8 } from "./utf8-truncate.js";

/**
 * What makes a daemon's JSON-RPC answer unreadable before anything looks inside it: arrays and
 * objects nested past the SDK's bound ({@link MAX_JSON_DEPTH} levels, checked without recursion),
 * or an `error` member that is not an object with a numeric `code`. Returns the first such issue
 * (its path under `root`), or `undefined` for an answer that may be read.
 */
export function answerProblem(message: JsonRpcResponse, root = "answer"): ValidationIssue | undefined {
  const deep = pathPastDepth(message, root);
  if (deep !== undefined) return { path: deep, reason: TOO_DEEP_REASON };
  if ("error" in message) {
    const error: unknown = message.error;
    if (!isJsonObject(error) || typeof error.code !== "number" || !Number.isFinite(error.code)) {
      return { path: `${root}.error`, reason: "must be a JSON-RPC error object with a numeric code" };
    }
  }
  return undefined;
}

/**
 * What makes a `tools/call` result unreadable (§2; MCP's `CallToolResult`): a `result` that is not
 * an object, a `content` that is not an array, a content item that is not an object, or a `text`
 * item whose `text` is not a string. The daemon always sends `{content: [...]}`; such an answer is
 * broken, not empty. Everything else MCP servers send is read as it comes: an empty `content`
 * (with `isError`, or beside `structuredContent`), a result without `content`, image, audio,
 * resource and unknown item types. Returns the first issue (its path under `root`), or
 * `undefined`.
 */
export function toolResultProblem(result: unknown, root = "answer.result"): ValidationIssue | undefined {
  if (!isJsonObject(result))
    return { path: root, reason: `must be a tools/call result object ({content: [...]}), not ${kindOf(result)}` };
  const content: unknown = result.content;
  if (content === undefined) return undefined;
  if (!Array.isArray(content))
    return { path: `${root}.content`, reason: `must be an array of content items, not ${kindOf(content)}` };
  for (let index = 0; index < content.length; index++) {
    const item: unknown = content[index];
    if (!isJsonObject(item))
      return { path: `${root}.content[${index}]`, reason: `must be a content item object, not ${kindOf(item)}` };
    if (item.type === "text" && typeof item.text !== "string")
      return {
        path: `${root}.content[${index}].text`,
        reason: `must be a string in a text item, not ${kindOf(item.text)}`,
      };
  }
  return undefined;
}

/** How a value's JSON type is named in an issue: `a number`, `null`, `an array`, `missing`. */
function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** Issues as an error's details carry them: at most 50, each path and reason cut to 256 bytes, the whole within 16 KiB. */
export function boundedIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  let bytes = 64;
  for (const issue of issues.slice(0, 50)) {
    const cut = { path: truncateUtf8(issue.path, 256), reason: truncateUtf8(issue.reason, 256) };
    bytes += cut.path.length * 3 + cut.reason.length * 3 + 32;
    if (bytes > MAX_DETAILS_BYTES) break;
    out.push(cut);
  }
  return out;
}

/**
 * The error of an answer that cannot be believed: `response.invalid`, after dispatch. The call
 * reached the daemon, so a mutating call may have changed the page (`mutationPossible`, observe
 * before deciding); a read-only call changed nothing. The issues (bounded) are in
 * `details.issues`.
 */
export function responseInvalid(
  operation: string,
  issues: readonly ValidationIssue[],
  mutating: boolean,
): GlassErrorObject {
  const shown = boundedIssues(issues);
  const summary = describeIssues(shown.slice(0, 3), "response");
  const tail = mutating ? "; the action may have happened — observe before deciding" : "";
  return {
    code: "response.invalid",
    message:
      truncateUtf8(
        `the daemon's answer to ${operation} does not match the protocol: ${summary}`,
        512 - utf8Length(tail),
      ) + tail,
    phase: "postDispatch",
    mutationPossible: mutating,
    retry: { classification: mutating ? "safeAfterReobserve" : "unknown", recommendedOperation: "inspect_page" },
    details: { kind: "responseValidation", issues: shown },
  };
}
