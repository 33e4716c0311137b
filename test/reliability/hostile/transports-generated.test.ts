/**
 * Property test of the client over each of its transports against a daemon that answers calls with
 * generated hostile messages: the bridge's cases (deep, wide, long, growing numbers, errors with
 * deep data; garbage lines, stray and duplicate answers, notifications and requests of the
 * daemon's own) and the client's own (deep, wide and long tool texts, malformed answers with the
 * right id, wrong JSON-RPC shapes, answers with wrong ids, no answer at all), then one answer past
 * the 32 MiB bound per transport. The daemon is real for every transport: a child process over
 * stdio, a Unix socket server in a private directory, a node:http server and a `ws` server on
 * 127.0.0.1.
 *
 * For every case: the call (`browser.observe` or `browser.click`, through `Glass.connect`) settles
 * exactly once — with a result only where the answer is a well-formed tool result, otherwise with a
 * GlassError whose code, phase and mutationPossible are set (a click the daemon received may have
 * happened: mutationPossible is true); the process survives (an uncaught
 * exception would fail the run) and the next case is served (on a new connection when the
 * transport ended its own). Memory: what the transport holds for the daemon (`bufferedBytes`:
 * bytes sent and not yet taken, which every transport reports) never passes
 * {@link MAX_OUTBOUND_BYTES} (the client sends only small requests), and the whole process, which
 * also reads the answers (each bounded by 32 MiB), grows by less than {@link MEMORY_BOUND_BYTES}
 * over the run (docs/guarantees.md states both).
 *
 * Seeded: every run generates the same cases. `GLASS_PROPERTY_SEED=<n>` runs another seed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { Glass, GlassError, httpTransport, webSocketTransport, type GlassTransport } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { TransportLimits } from "../../../src/transport/transport.js";
import { baseSeed, recordGeneratedCases } from "../support/generated-cases.js";
import {
  answerArbitrary,
  answerLine,
  extraArbitrary,
  extraLines,
  nested,
  type Answer,
  type Extra,
} from "../support/hostile-messages.js";
import {
  initializeResult,
  startHostileSocketDaemon,
  toolsListResult,
  type HostileSocketDaemon,
} from "../support/hostile-socket-daemon.js";

const SEED = baseSeed(20261213);
/** Generated cases per transport. */
const RUNS = 30;
/** What a transport may hold for the daemon at once: the client's requests here are small (a click's payload, a cancel), so 1 MiB is generous. */
const MAX_OUTBOUND_BYTES = 1024 * 1024;
/** How much the whole process (client, servers and test together) may grow over the four runs: generous, for transient parse buffers and the 33 MiB answers. */
const MEMORY_BOUND_BYTES = 384 * 1024 * 1024;
/** Each call's deadline: a case whose answer never comes (or is dropped as malformed) settles with deadlineExceeded. */
const DEADLINE_MS = 600;

/** The client's own answers to a call, besides the bridge's. */
type ClientAnswer =
  | Answer
  | {
      kind: "text";
      shape: "deep" | "wide" | "long";
      size: number;
      isError: boolean;
    }
  | { kind: "malformed"; form: number }
  | { kind: "none" };

/** The client's own messages around an answer, besides the bridge's. */
type ClientExtra = Extra | { kind: "wrongId"; id: string };

interface TransportCase {
  call: "observe" | "click";
  before: ClientExtra[];
  answer: ClientAnswer;
  after: ClientExtra[];
}

/** Answers with the right id but a wrong JSON-RPC shape (`#` is the id). */
const MALFORMED = [
  '{"jsonrpc":"2.0","id":#,"result":5}',
  '{"jsonrpc":"2.0","id":#,"result":{"content":"not an array"}}',
  '{"jsonrpc":"2.0","id":#,"result":{"content":[{"type":"text","text":7}]}}',
  '{"jsonrpc":"2.0","id":#}',
  '{"jsonrpc":"2.0","id":#,"result":{},"error":{"code":-32603,"message":"both"}}',
  '{"jsonrpc":"2.0","id":#,"error":{"code":"x","message":5}}',
  '{"jsonrpc":"2.0","id":#,"error":null}',
  // well-formed, with keys that reach inherited members of a plain object
  '{"jsonrpc":"2.0","id":#,"result":{"content":[{"type":"text","text":"{\\"__proto__\\":{\\"polluted\\":1},\\"constructor\\":{}}"}]}}',
  '{"jsonrpc":"2.0","id":#,"result":{"isError":true,"content":[{"type":"text","text":"{\\"code\\":{},\\"message\\":[]}"}]}}',
  '{"id":#,"result":{}}',
  '{"jsonrpc":"2.0","id":#,"result":{"content":[{"type":"text","text":"{}"}]}',
];

/** The malformed form a call may take as a result: the one with prototype keys is a well-formed tool result. */
const LENIENT_FORMS: readonly number[] = [7];
/**
 * The forms that must fail with `response.invalid`: a `tools/call` result that is not an object,
 * whose `content` is not an array or holds a text item without string text, or that is missing.
 */
const INVALID_FORMS: readonly number[] = [0, 1, 2, 3];

const clientAnswerArbitrary: fc.Arbitrary<ClientAnswer> = fc.oneof(
  { arbitrary: answerArbitrary, weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      shape: fc.constantFrom("deep" as const, "wide" as const, "long" as const),
      size: fc.integer({ min: 1, max: 60_000 }),
      isError: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("malformed" as const),
      form: fc.integer({ min: 0, max: MALFORMED.length - 1 }),
    }),
    weight: 3,
  },
  // No answer at all: the call ends at its deadline (kept rare: each costs DEADLINE_MS).
  { arbitrary: fc.constant<ClientAnswer>({ kind: "none" }), weight: 1 },
);
const clientExtraArbitrary: fc.Arbitrary<ClientExtra> = fc.oneof(
  extraArbitrary,
  fc.record({
    kind: fc.constant("wrongId" as const),
    id: fc.constantFrom("null", "{}", "[]", "1e300", "true", '"glass-999999"', '"__proto__"', "-1"),
  }),
);
const caseArbitrary: fc.Arbitrary<TransportCase> = fc.record({
  call: fc.constantFrom("observe" as const, "click" as const),
  before: fc.array(clientExtraArbitrary, { maxLength: 3 }),
  answer: clientAnswerArbitrary,
  after: fc.array(clientExtraArbitrary, { maxLength: 2 }),
});

/** A tool text of the given shape and size (JSON text built by hand). */
function toolText(shape: "deep" | "wide" | "long", size: number): string {
  if (shape === "deep") return nested("array", size);
  if (shape === "wide") return `{${Array.from({ length: size }, (_, i) => `"k${i}":0`).join(",")}}`;
  return JSON.stringify({ text: "é".repeat(size * 16) });
}

function clientAnswerLine(id: unknown, answer: ClientAnswer): string | undefined {
  const idText = JSON.stringify(id);
  switch (answer.kind) {
    case "none":
      return undefined;
    case "malformed":
      return MALFORMED[answer.form]!.replace("#", idText);
    case "text":
      return `{"jsonrpc":"2.0","id":${idText},"result":{"isError":${answer.isError},"content":[{"type":"text","text":${JSON.stringify(toolText(answer.shape, answer.size))}}]}}`;
    default:
      return answerLine(id, answer);
  }
}

/** The lines the daemon writes for one call, in order. */
function linesOf(id: unknown, played: TransportCase): string[] {
  const answer = clientAnswerLine(id, played.answer);
  const around = (extra: ClientExtra): string[] =>
    extra.kind === "wrongId"
      ? [`{"jsonrpc":"2.0","id":${extra.id},"result":{"content":[]}}`]
      : extraLines(id, extra, answer ?? `{"jsonrpc":"2.0","id":"late-${String(id)}","result":{}}`);
  return [...played.before.flatMap(around), ...(answer === undefined ? [] : [answer]), ...played.after.flatMap(around)];
}

/**
 * The one fixed case past the bound: a click answered with 33 MiB of text. Its deadline is long, so
 * that a call failing by it (deadlineExceeded) is told apart from one the transport failed as soon
 * as the answer passed the bound.
 */
const OVERSIZE_DEADLINE_MS = 20_000;
/**
 * How each transport fails a click whose answer passes the bound, at once: stdio and the socket end
 * the connection (a Glass daemon answers -32001 instead of sending such a frame), HTTP fails that
 * call and goes on, WebSocket closes the connection (its message limit).
 */
const OVERSIZE_OUTCOME: Record<string, { code: string; details?: Record<string, unknown> }> = {
  stdio: {
    code: "transport.closed",
    details: { reason: "frameTooLarge", framing: "newline", maxBytes: TransportLimits.maxMessageBytes },
  },
  socket: {
    code: "transport.closed",
    details: { reason: "frameTooLarge", framing: "newline", maxBytes: TransportLimits.maxMessageBytes },
  },
  http: { code: "response.tooLarge" },
  websocket: { code: "transport.closed" },
};
function oversizeLine(id: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${"x".repeat(TransportLimits.maxMessageBytes + 1024 * 1024)}"}]}}`;
}

/** What the daemon plays for the next `tools/call`: lines, in order. */
const queue: ((id: unknown) => string[])[] = [];
const nextLines = (id: unknown): string[] =>
  (queue.shift() ?? (() => [`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{}}`]))(id);

/** The tools the daemon lists to the client's connect-time `tools/list`: those the cases call. */
const TOOLS = ["observe", "click"];

/**
 * How the daemon answers a message: `initialize` and `tools/list` like a Glass daemon (the socket
 * daemon, which the stdio rig relays to, answers those two itself, alike), a tool call with the
 * queued case, any other request with `{}`.
 */
function answerTo(message: Record<string, unknown>, write: (line: string) => void): void {
  if (message.id === undefined || !("method" in message)) return;
  if (message.method === "initialize") {
    const version = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: initializeResult(typeof version === "string" ? version : "2025-06-18"),
      }),
    );
    return;
  }
  if (message.method === "tools/list")
    return write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: toolsListResult(TOOLS) }));
  if (message.method === "tools/call") for (const line of nextLines(message.id)) write(line);
  else write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
}

/** A hostile daemon reached by one kind of transport. */
interface Rig {
  transport(): GlassTransport;
  close(): Promise<void>;
}

let socketDaemon: HostileSocketDaemon;

/** Over a Unix socket in a private directory: the daemon itself. */
function socketRig(): Rig {
  return {
    transport: () => socketTransport({ path: socketDaemon.path }),
    close: async () => undefined,
  };
}

/** Over stdio: a child process that relays its stdin and stdout to the hostile socket daemon, byte for byte. */
function stdioRig(): Rig {
  const relay =
    'const s = require("node:net").connect(process.env.HOSTILE_SOCKET); process.stdin.pipe(s); s.pipe(process.stdout); s.on("close", () => process.exit(0)); s.on("error", () => process.exit(1));';
  return {
    transport: () =>
      stdioTransport({
        command: process.execPath,
        args: ["-e", relay],
        env: { HOSTILE_SOCKET: socketDaemon.path },
        stderr: "ignore",
      }),
    close: async () => undefined,
  };
}

/** Over HTTP: a node:http server on 127.0.0.1 answering each tool call with an SSE stream of the case's lines. */
async function httpRig(): Promise<Rig> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(200).end();
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      if (message.id === undefined || !("method" in message)) return void res.writeHead(202).end();
      const lines: string[] = [];
      answerTo(message, (line) => lines.push(line));
      if (message.method === "initialize")
        return void res
          .writeHead(200, {
            "content-type": "application/json",
            "mcp-session-id": "hostile-1",
          })
          .end(lines[0]);
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const line of lines) res.write(`event: message\ndata: ${line}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    transport: () => httpTransport({ url }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Over WebSocket: a `ws` server on 127.0.0.1 sending each line of a case as one text frame. */
async function webSocketRig(): Promise<Rig> {
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    handleProtocols: (protocols) => (protocols.has("mcp") ? "mcp" : false),
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  server.on("connection", (socket) => {
    socket.on("error", () => undefined);
    socket.on("message", (data) =>
      answerTo(JSON.parse(String(data)) as Record<string, unknown>, (line) => socket.send(line)),
    );
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    transport: () => webSocketTransport({ url }),
    close: async () => {
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client over a fresh transport of the rig. */
async function connectClient(rig: Rig): Promise<{ glass: Glass; transport: GlassTransport }> {
  const transport = rig.transport();
  // A short grace after a cancel: a call that missed its deadline frees its slot soon, so the next one goes out at once.
  const glass = await Glass.connect(transport, { retry: false, cancelGraceMs: 50, negotiation: false });
  return { glass, transport };
}

/** What one call came to, and how often it settled. */
interface Settled {
  settlements: number;
  outcome: { value: unknown } | { error: unknown };
}

/**
 * Makes the call of `played`, sampling what the transport holds until it settles. A call that has
 * not settled within a generous guard fails the test (a hang), rather than hanging the run.
 */
async function callThrough(
  glass: Glass,
  transport: GlassTransport,
  call: "observe" | "click",
  held: { max: number },
  deadlineMs = DEADLINE_MS,
): Promise<Settled> {
  let settlements = 0;
  let outcome: Settled["outcome"] | undefined;
  const sample = setInterval(() => (held.max = Math.max(held.max, transport.bufferedBytes ?? 0)), 2);
  const made =
    call === "click"
      ? glass.request("browser.click", { target: "ref=r1:e1" }, { deadlineMs })
      : glass.request("browser.observe", {}, { deadlineMs });
  const settled = made.then(
    (value: unknown) => {
      settlements++;
      outcome = { value };
    },
    (error: unknown) => {
      settlements++;
      outcome = { error };
    },
  );
  let guard: NodeJS.Timeout | undefined;
  await Promise.race([settled, new Promise<void>((resolve) => (guard = setTimeout(resolve, deadlineMs + 15_000)))]);
  clearTimeout(guard);
  clearInterval(sample);
  held.max = Math.max(held.max, transport.bufferedBytes ?? 0);
  // A second settlement would come in a later turn: give it one.
  await new Promise((resolve) => setImmediate(resolve));
  return {
    settlements,
    outcome: outcome ?? { error: new Error("the call never settled") },
  };
}

/** Whether an answer cannot be a call's result: an error, a malformed or missing answer, a tool failure, text nested past the client's bound. */
function mustFail(answer: ClientAnswer): boolean {
  switch (answer.kind) {
    case "errorWithData":
    case "none":
      return true;
    case "malformed":
      return !LENIENT_FORMS.includes(answer.form);
    case "text":
      return answer.isError || (answer.shape === "deep" && answer.size > 512);
    default:
      return false;
  }
}

/**
 * What every call's outcome must be: one settlement; a result only where the answer is a
 * well-formed tool result, otherwise a GlassError with code, phase and mutationPossible (a click
 * the daemon received may have happened). Returns the error's code, or `result`.
 */
function expectSettledOnce(settled: Settled, call: "observe" | "click", failing: boolean, what: string): string {
  expect(settled.settlements, `${what}: settlements`).toBe(1);
  if ("value" in settled.outcome) {
    expect(failing, `${what}: resolved with ${JSON.stringify(settled.outcome.value)?.slice(0, 200)}`).toBe(false);
    return "result";
  }
  const error = settled.outcome.error;
  expect(error, what).toBeInstanceOf(GlassError);
  const glassError = error as GlassError;
  expect(typeof glassError.code, what).toBe("string");
  expect(["preflight", "dispatch", "postDispatch"], `${what}: phase ${glassError.phase}`).toContain(glassError.phase);
  expect(typeof glassError.mutationPossible, what).toBe("boolean");
  if (call === "click")
    expect(glassError.mutationPossible, `${what}: ${glassError.code} ${glassError.message.slice(0, 200)}`).toBe(true);
  return glassError.code;
}

/** The transports, each with its own seed (SEED + its index). */
const KINDS = ["stdio", "socket", "http", "websocket"];
const rigs: Record<string, Rig> = {};
let rssBefore = 0;
let oversizeCases = 0;

beforeAll(async () => {
  socketDaemon = await startHostileSocketDaemon(
    (message, peer) => answerTo(message, (line) => void peer.write(`${line}\n`)),
    { tools: TOOLS },
  );
  rigs.stdio = stdioRig();
  rigs.socket = socketRig();
  rigs.http = await httpRig();
  rigs.websocket = await webSocketRig();
  rssBefore = process.memoryUsage().rss;
});

afterAll(async () => {
  for (const rig of Object.values(rigs)) await rig.close();
  await socketDaemon?.close();
});

describe("hostile transports: generated daemon messages through each transport", () => {
  for (const kind of KINDS) {
    it(`${kind}: ${RUNS} generated cases and one answer past 32 MiB; each call settles once, failing with a GlassError, and what the transport holds stays bounded`, async (context) => {
      const rig = rigs[kind]!;
      let client = await connectClient(rig);
      const held = { max: 0 };
      const codes = new Map<string, number>();
      let reconnects = 0;
      const next = async (): Promise<void> => {
        if (!client.glass.stats().closed) return;
        await client.glass.close();
        client = await connectClient(rig);
        reconnects++;
      };
      const details = await fc.check(
        fc.asyncProperty(caseArbitrary, async (played) => {
          queue.push((id) => linesOf(id, played));
          const settled = await callThrough(client.glass, client.transport, played.call, held);
          const what = `${kind} ${played.call} ${played.answer.kind}`;
          const code = expectSettledOnce(settled, played.call, mustFail(played.answer), what);
          if (played.answer.kind === "malformed" && INVALID_FORMS.includes(played.answer.form))
            expect(code, `${what} form ${played.answer.form}`).toBe("response.invalid");
          codes.set(code, (codes.get(code) ?? 0) + 1);
          expect(queue).toHaveLength(0); // the daemon received the call
          await next();
        }),
        { seed: SEED + KINDS.indexOf(kind), numRuns: RUNS, includeErrorInReport: true },
      );
      recordGeneratedCases(context, details.numRuns);
      if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `property failed (seed ${SEED})`);

      // Past the bound: a click answered with 33 MiB fails at once (the call, or the connection), and the client goes on.
      queue.push((id) => [oversizeLine(id)]);
      const settled = await callThrough(client.glass, client.transport, "click", held, OVERSIZE_DEADLINE_MS);
      const oversize = expectSettledOnce(settled, "click", true, `${kind} oversize`);
      expect(oversize, `${kind} oversize`).not.toBe("deadlineExceeded");
      expect("error" in settled.outcome ? settled.outcome.error : undefined, `${kind} oversize`).toMatchObject(
        OVERSIZE_OUTCOME[kind]!,
      );
      oversizeCases++;
      await next();
      const after = await callThrough(client.glass, client.transport, "observe", held);
      expectSettledOnce(after, "observe", false, `${kind} after oversize`);

      console.info(
        `${kind}: ${details.numRuns} generated cases, ${reconnects} reconnects; oversize answer → ${oversize}; ` +
          `most held for the daemon (bufferedBytes): ${held.max} bytes; codes ${JSON.stringify(Object.fromEntries(codes))}`,
      );
      expect(client.transport.bufferedBytes, `${kind} reports bufferedBytes`).toBeTypeOf("number");
      expect(held.max).toBeLessThanOrEqual(MAX_OUTBOUND_BYTES);
      await client.glass.close();
    }, 60_000);
  }

  it("the whole process grew by less than the stated bound over the four runs", () => {
    expect(oversizeCases).toBe(4);
    const grownBy = process.memoryUsage().rss - rssBefore;
    console.info(
      `RSS grew by ${Math.round(grownBy / 1024 / 1024)} MB over the four transports (bound ${MEMORY_BOUND_BYTES / 1024 / 1024} MB)`,
    );
    expect(grownBy).toBeLessThan(MEMORY_BOUND_BYTES);
  });
});
