import type { GlassCapabilityAgreement, GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import { validateCapabilityAgreement, validateCapabilityManifest } from "../../generated/validators/index.js";
import { runValidator } from "../envelope/run-validator.js";
import { GlassError } from "../errors/glass-error.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { describeIssues } from "../validation/issue.js";
import { isJsonObject } from "../validation/json-value.js";
import { exchange } from "./exchange.js";
import { InFlightLimiter } from "./in-flight-limiter.js";
import { negotiationParams } from "./negotiation.js";
import type { GlassClientOptions } from "./options.js";

/** The package's own version, sent as clientInfo by default. */
const SDK_VERSION = "0.1.0";
const SUPPORTED_MCP_VERSIONS = ["2024-11-05", "2025-11-25"];

/** What the handshake learned about the daemon. */
export interface HandshakeResult {
  mcpProtocolVersion: string;
  serverInfo: { name: string; version: string } | undefined;
  manifest: GlassCapabilityManifest | undefined;
  agreement: GlassCapabilityAgreement | undefined;
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
 * then sends `notifications/initialized`. Rejects with a GlassError that says what went wrong
 * (`transport.unavailable` when the daemon cannot be reached, `initialize.failed` otherwise).
 */
export async function handshake(session: McpSession, options: GlassClientOptions, deadlineMs: number): Promise<HandshakeResult> {
  await session.start();
  const requested = options.mcpProtocolVersion ?? "2024-11-05";
  const capabilities: Record<string, unknown> = {};
  if (options.serverRequestHandlers?.["elicitation/create"] !== undefined) capabilities.elicitation = {};
  const params: Record<string, unknown> = {
    protocolVersion: requested,
    capabilities,
    clientInfo: options.clientInfo ?? { name: "glass-sdk", version: SDK_VERSION },
  };
  if (options.negotiation !== false) params.glass = negotiationParams(options.negotiation ?? {});
  const outcome = await exchange(
    { session, limiter: new InFlightLimiter(1), cancelGraceMs: 0, log: options.logger },
    { message: { jsonrpc: "2.0", id: 0, method: "initialize", params }, operation: "initialize", requestId: "0", mutating: false, deadlineAt: Date.now() + deadlineMs },
  );
  if (outcome.kind === "failed") throw outcome.error;
  const answer = outcome.message;
  if ("error" in answer) throw failed(`the daemon refused initialize: ${answer.error.message} (JSON-RPC ${answer.error.code})`, { jsonRpcCode: answer.error.code, data: answer.error.data });
  const result = answer.result;
  const version = result.protocolVersion;
  if (typeof version !== "string" || !SUPPORTED_MCP_VERSIONS.includes(version)) {
    throw failed(`the daemon answered with MCP protocol version ${JSON.stringify(version)}; glass-sdk speaks ${SUPPORTED_MCP_VERSIONS.join(" and ")}`);
  }
  let manifest: GlassCapabilityManifest | undefined;
  let agreement: GlassCapabilityAgreement | undefined;
  if (result.glass !== undefined) {
    const checked = runValidator<GlassCapabilityManifest>(validateCapabilityManifest, result.glass);
    if (!checked.ok) throw failed(`the daemon's capability manifest is invalid: ${describeIssues(checked.issues, "glass")}`, { issues: checked.issues });
    manifest = checked.value;
  }
  if (result.glassAgreement !== undefined) {
    const checked = runValidator<GlassCapabilityAgreement>(validateCapabilityAgreement, result.glassAgreement);
    if (!checked.ok) throw failed(`the daemon's capability agreement is invalid: ${describeIssues(checked.issues, "glassAgreement")}`, { issues: checked.issues });
    agreement = checked.value;
  }
  await session.notify("notifications/initialized");
  const serverInfo = isJsonObject(result.serverInfo) && typeof result.serverInfo.name === "string"
    ? { name: result.serverInfo.name, version: typeof result.serverInfo.version === "string" ? result.serverInfo.version : "" }
    : undefined;
  return { mcpProtocolVersion: version, serverInfo, manifest, agreement };
}
