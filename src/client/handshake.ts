import type { GlassCapabilityAgreement, GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import { validateCapabilityAgreement, validateCapabilityManifest } from "../../generated/validators/core.js";
import { runValidator } from "../envelope/validate.js";
import { GlassError } from "../errors/glass-error.js";
import type { JsonRpcFailure, JsonRpcId, JsonRpcSuccess } from "../mcp/json-rpc.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { answerProblem, boundedIssues, responseInvalid } from "../mcp/answer-check.js";
import { boundedDetails } from "../mcp/bounded-details.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import { describeIssues } from "../validation/issue.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { isJsonObject, ownProperty } from "../validation/json-value.js";
import { listDaemonTools } from "./daemon-tools.js";
import { exchange } from "./exchange.js";
import { InFlightLimiter } from "./in-flight-limiter.js";
import { negotiationParams, requiredCapabilities } from "./negotiation.js";
import { resolveRetryPolicy } from "./retry.js";
import type { GlassClientOptions } from "./options.js";

/** The package's own version (package.json's "version"; test/package/release.test.ts checks they agree), sent as clientInfo by default. */
const SDK_VERSION = "0.1.0";

/**
 * The MCP revisions asked for when the caller names none, newest first: newest daemons accept
 * `2025-11-25`, every daemon `2024-11-05`; a daemon refuses a revision it does not speak with an
 * error (no counter-offer), and the client then asks again on the same connection.
 */
const REQUESTED_MCP_VERSIONS = ["2025-11-25", "2024-11-05"] as const;

/**
 * The MCP revisions the client accepts in an answer. A plain MCP server answers a revision it
 * does not speak with one it does (MCP's own negotiation); the client uses only what all four
 * share — initialize, tools/list, tools/call, ping and notifications/cancelled, text and image
 * content — so any published revision will do. An unknown string is refused.
 */
const ACCEPTED_MCP_VERSIONS: readonly string[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/** The MCP revision in which the client declares `capabilities.elicitation` (2024-11-05 has no elicitation). */
const ELICITATION_MCP_VERSION = "2025-11-25";

/** JSON-RPC ids of the initialize attempts (the client's other methods count up from 1). */
const INITIALIZE_IDS: readonly JsonRpcId[] = [0, "initialize-2"];

/** What the handshake learned about the daemon. */
export interface HandshakeResult {
  mcpProtocolVersion: string;
  serverInfo: { name: string; version: string } | undefined;
  manifest: GlassCapabilityManifest | undefined;
  agreement: GlassCapabilityAgreement | undefined;
  /** The names of the daemon's tools (its `tools/list`), when it listed them. */
  tools: ReadonlySet<string> | undefined;
}

function failed(message: string, details?: unknown): GlassError {
  return new GlassError({
    code: "initialize.failed",
    message,
    operation: "initialize",
    retry: { classification: "notRetryable", recommendedOperation: "fix_negotiation" },
    ...(details === undefined ? {} : { details }),
  });
}

/**
 * The MCP handshake (§3): opens the transport, sends `initialize` with the Glass negotiation the
 * caller asked for, checks the answer (MCP version, manifest and agreement against their schemas),
 * then sends `notifications/initialized`.
 *
 * Without `mcpProtocolVersion` the client asks for MCP `2025-11-25` and, when the server refuses it
 * with an error, for `2024-11-05` on the same connection; a version the caller set is asked for
 * alone. A server that agreed to nothing Glass (no `glassAgreement`) while the caller `requires`
 * capabilities fails the handshake at once rather than at the first call. Rejects with a
 * GlassError that says what went wrong (`transport.unavailable` when the daemon cannot be reached,
 * `initialize.failed` otherwise). Last, it reads the daemon's tool list (`tools/list`), so that a
 * call to a tool the daemon lacks fails before it is sent.
 */
export async function handshake(
  session: McpSession,
  options: GlassClientOptions,
  deadlineMs: number,
): Promise<HandshakeResult> {
  await session.start();
  const deadlineAt = Date.now() + deadlineMs;
  const versions = options.mcpProtocolVersion !== undefined ? [options.mcpProtocolVersion] : REQUESTED_MCP_VERSIONS;
  const refusals: { protocolVersion: string; jsonRpcCode: number; message: string; data?: unknown }[] = [];
  let answer: JsonRpcSuccess | JsonRpcFailure | undefined;
  for (const [attempt, protocolVersion] of versions.entries()) {
    const params = initializeParams(options, protocolVersion);
    const id = INITIALIZE_IDS[attempt] ?? `initialize-${attempt + 1}`;
    const outcome = await exchange(
      { session, limiter: new InFlightLimiter(1), cancelGraceMs: 0, log: options.logger },
      {
        message: { jsonrpc: "2.0", id, method: "initialize", params },
        operation: "initialize",
        requestId: String(id),
        mutating: false,
        deadlineAt,
      },
    );
    if (outcome.kind === "failed") throw outcome.error;
    answer = outcome.message;
    const problem = answerProblem(answer);
    if (problem !== undefined)
      throw errorFromEnvelope(responseInvalid("initialize", [problem], false), "initialize", String(id));
    if (!("error" in answer)) break;
    const { code, message, data } = answer.error;
    refusals.push({
      protocolVersion,
      jsonRpcCode: code,
      message: typeof message === "string" ? truncateUtf8(message, 512) : "",
      ...(data === undefined ? {} : { data: boundedDetails(data, 4096) }),
    });
    if (attempt < versions.length - 1) {
      options.logger?.({
        type: "connection",
        detail: `initialize with MCP ${protocolVersion} refused (JSON-RPC ${code}); asking for ${versions[attempt + 1]}`,
      });
    }
  }
  if (answer === undefined || "error" in answer) {
    const last = refusals.at(-1)!;
    throw failed(`the daemon refused initialize: ${last.message} (JSON-RPC ${last.jsonRpcCode})`, {
      jsonRpcCode: last.jsonRpcCode,
      ...(last.data === undefined ? {} : { data: last.data }),
      ...(refusals.length > 1 ? { refusals } : {}),
    });
  }
  const result = answer.result;
  const version = result.protocolVersion;
  if (typeof version !== "string" || !ACCEPTED_MCP_VERSIONS.includes(version)) {
    throw failed(
      `the server answered with MCP protocol version ${typeof version === "string" ? JSON.stringify(truncateUtf8(version, 64)) : typeof version}; glass-sdk speaks ${ACCEPTED_MCP_VERSIONS.join(", ")}`,
    );
  }
  let manifest: GlassCapabilityManifest | undefined;
  let agreement: GlassCapabilityAgreement | undefined;
  if (result.glass !== undefined) {
    const checked = runValidator<GlassCapabilityManifest>(validateCapabilityManifest, result.glass);
    if (!checked.ok)
      throw failed(
        `the daemon's capability manifest is invalid: ${describeIssues(checked.issues.slice(0, 3), "glass")}`,
        { issues: boundedIssues(checked.issues) },
      );
    manifest = checked.value;
  }
  if (result.glassAgreement !== undefined) {
    const checked = runValidator<GlassCapabilityAgreement>(validateCapabilityAgreement, result.glassAgreement);
    if (!checked.ok)
      throw failed(
        `the daemon's capability agreement is invalid: ${describeIssues(checked.issues.slice(0, 3), "glassAgreement")}`,
        { issues: boundedIssues(checked.issues) },
      );
    agreement = checked.value;
  }
  // A Glass daemon answers a Glass negotiation with its manifest and the agreement (§3); a server
  // that does not is not one, and what the client would report as known about it would be guesses.
  if (options.negotiation !== false && (agreement === undefined || manifest === undefined)) {
    const required = requiredCapabilities(options.negotiation);
    const missing =
      agreement === undefined
        ? `made no Glass agreement (no glassAgreement in its initialize answer)${required.length === 0 ? "" : `, so it cannot grant the required ${required.length === 1 ? "capability" : "capabilities"} ${required.join(", ")}`}`
        : "sent no Glass capability manifest (no glass in its initialize answer)";
    throw failed(
      `the server ${missing}: it is not a Glass daemon (or one too old to negotiate); connect to a Glass daemon, or pass \`negotiation: false\` to talk to a server without Glass negotiation`,
      { ...(required.length === 0 ? {} : { required }), serverInfo: boundedDetails(result.serverInfo ?? null, 1024) },
    );
  }
  await session.notify("notifications/initialized");
  const serverInfo =
    isJsonObject(result.serverInfo) && typeof result.serverInfo.name === "string"
      ? {
          name: result.serverInfo.name,
          version: typeof result.serverInfo.version === "string" ? result.serverInfo.version : "",
        }
      : undefined;
  const server =
    serverInfo === undefined
      ? "a server without serverInfo"
      : truncateUtf8(`${serverInfo.name} ${serverInfo.version}`.trim(), 128);
  options.logger?.({
    type: "connection",
    detail: `initialized: MCP ${version} with ${server}${agreement === undefined ? ", no Glass agreement" : `, Glass protocol ${agreement.protocolVersion}`}`,
  });
  const tools = await listDaemonTools(session, deadlineAt, options.logger, resolveRetryPolicy(options.retry));
  return { mcpProtocolVersion: version, serverInfo, manifest, agreement, tools };
}

/**
 * The params of `initialize`: only fields with a value (an absent one is left out, never null).
 * `capabilities.elicitation` (`{}`: form mode) is declared when the client answers
 * `elicitation/create` (`onDialog`, or a handler of its own) and asks for MCP `2025-11-25`: the
 * capability travels in the request, before the daemon's answer tells the revision, so a daemon that
 * refuses `2025-11-25` is asked again for `2024-11-05` without it.
 */
function initializeParams(options: GlassClientOptions, protocolVersion: string): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  const answersElicitation =
    typeof options.onDialog === "function" ||
    typeof ownProperty(options.serverRequestHandlers, "elicitation/create") === "function";
  if (answersElicitation && protocolVersion === ELICITATION_MCP_VERSION) capabilities.elicitation = {};
  const params: Record<string, unknown> = {
    protocolVersion,
    capabilities,
    clientInfo: clientInfoOf(options.clientInfo),
  };
  if (options.negotiation !== false) params.glass = negotiationParams(options.negotiation ?? {});
  return params;
}

/** The caller's clientInfo with a string name and version, or the SDK's own. */
function clientInfoOf(given: GlassClientOptions["clientInfo"]): { name: string; version: string } {
  if (given === undefined || given === null || typeof given.name !== "string" || given.name === "")
    return { name: "glass-sdk", version: SDK_VERSION };
  return { name: given.name, version: typeof given.version === "string" ? given.version : "" };
}
