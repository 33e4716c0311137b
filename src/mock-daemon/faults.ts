import { isJsonObject } from "../validation/json-value.js";

/**
 * Misbehaviour a mock daemon can be told to show, so clients can be tested against it. "Call N" is
 * the Nth `tools/call` the daemon received (counting from 1, all connections together).
 */
export interface MockDaemonFaults {
  /** Calls after the Nth are never answered: they stay in flight until cancelled or the client leaves. */
  stallAfterCalls?: number;
  /** When call N+1 arrives the daemon crashes before answering: a stdio daemon exits, a socket daemon drops every client and forgets its lease. */
  crashAfterCalls?: number;
  /** After answering call N, writes one frame that is not JSON. */
  malformedFrameAfterCalls?: number;
  /** After answering call N, writes the first half of a frame and then nothing more on that connection. */
  partialFrameAfterCalls?: number;
  /**
   * After answering call N, writes one frame larger than the protocol's 32 MiB response limit (§5):
   * a response to an id the client never used, padded past the limit, in the framing of the
   * connection. A client must skip it without buffering it and read on.
   */
  oversizedFrameAfterCalls?: number;
  /** After answering call N, writes the same answer again. */
  duplicateAnswerAfterCalls?: number;
  /** After answering call N, writes a response to an id the client never used. */
  unknownIdAnswerAfterCalls?: number;
  /**
   * After answering call N, sends the client a request (id `glass-server-1`, …), by default
   * `elicitation/create`; the client's answer is recorded (a client that does not handle it must
   * answer -32601).
   */
  serverRequestAfterCalls?: number;
  /** The method and params of that server request. */
  serverRequest?: { method: string; params?: Record<string, unknown> };
  /** Calls N+1 to N+count are refused with -32000 (overloaded). */
  overloadBurst?: { afterCalls: number; count: number };
  /** Leases really expire this many ms after being acquired or renewed, whatever `ttlMs` promised. */
  leaseExpiresAfterMs?: number;
}

/** What happens to a call as it arrives: nothing special, a crash, a -32000, or no answer ever. */
export type ArrivalFault = "crash" | "overload" | "stall" | undefined;

/** Something extra the daemon writes after answering a call (see the matching {@link MockDaemonFaults} field). */
export type AfterAnswerFault =
  | { kind: "malformedFrame" }
  | { kind: "partialFrame" }
  | { kind: "oversizedFrame" }
  | { kind: "duplicateAnswer" }
  | { kind: "unknownIdAnswer" }
  | { kind: "serverRequest"; method: string; params: Record<string, unknown> };

/** The faults of one daemon, asked at each call. */
export interface FaultPlan {
  /** The fault for call number `call` as it arrives. */
  onArrival(call: number): ArrivalFault;
  /** What to write after call number `call` has been answered. */
  afterAnswer(call: number): AfterAnswerFault[];
}

/** The form elicitation a newest daemon may ask a client for (§3.5). */
const DEFAULT_SERVER_REQUEST = {
  method: "elicitation/create",
  params: {
    message: "Confirm the action on library.example",
    requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
  },
};

/** Turns fault options into the questions the daemon asks at each call. */
export function createFaultPlan(faults: MockDaemonFaults = {}): FaultPlan {
  return {
    onArrival(call) {
      if (faults.crashAfterCalls !== undefined && call === faults.crashAfterCalls + 1) return "crash";
      const burst = faults.overloadBurst;
      if (burst !== undefined && call > burst.afterCalls && call <= burst.afterCalls + burst.count) return "overload";
      if (faults.stallAfterCalls !== undefined && call > faults.stallAfterCalls) return "stall";
      return undefined;
    },
    afterAnswer(call) {
      const extra: AfterAnswerFault[] = [];
      if (call === faults.duplicateAnswerAfterCalls) extra.push({ kind: "duplicateAnswer" });
      if (call === faults.unknownIdAnswerAfterCalls) extra.push({ kind: "unknownIdAnswer" });
      if (call === faults.serverRequestAfterCalls) {
        const request = faults.serverRequest ?? DEFAULT_SERVER_REQUEST;
        extra.push({ kind: "serverRequest", method: request.method, params: request.params ?? {} });
      }
      if (call === faults.malformedFrameAfterCalls) extra.push({ kind: "malformedFrame" });
      if (call === faults.oversizedFrameAfterCalls) extra.push({ kind: "oversizedFrame" });
      if (call === faults.partialFrameAfterCalls) extra.push({ kind: "partialFrame" });
      return extra;
    },
  };
}

const COUNT_FIELDS = [
  "stallAfterCalls",
  "crashAfterCalls",
  "malformedFrameAfterCalls",
  "partialFrameAfterCalls",
  "oversizedFrameAfterCalls",
  "duplicateAnswerAfterCalls",
  "unknownIdAnswerAfterCalls",
  "serverRequestAfterCalls",
  "leaseExpiresAfterMs",
] as const;

/**
 * Checks fault options given as JSON (the CLI's `--faults`) and returns them typed; throws an
 * `Error` naming the first bad field.
 */
export function parseFaults(value: unknown): MockDaemonFaults {
  if (!isJsonObject(value)) throw new Error('faults must be a JSON object, e.g. {"stallAfterCalls": 2}');
  const known = new Set<string>([...COUNT_FIELDS, "serverRequest", "overloadBurst"]);
  for (const key of Object.keys(value)) {
    if (!known.has(key))
      throw new Error(`unknown fault ${JSON.stringify(key)}; known faults: ${[...known].join(", ")}`);
  }
  for (const key of COUNT_FIELDS) {
    if (value[key] !== undefined && !isCount(value[key])) throw new Error(`fault ${key} must be a whole number ≥ 0`);
  }
  const burst = value.overloadBurst;
  if (burst !== undefined && !(isJsonObject(burst) && isCount(burst.afterCalls) && isCount(burst.count))) {
    throw new Error('fault overloadBurst must be {"afterCalls": N, "count": K}');
  }
  const request = value.serverRequest;
  if (
    request !== undefined &&
    !(
      isJsonObject(request) &&
      typeof request.method === "string" &&
      (request.params === undefined || isJsonObject(request.params))
    )
  ) {
    throw new Error('fault serverRequest must be {"method": "...", "params": {...}}');
  }
  return value as MockDaemonFaults;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
