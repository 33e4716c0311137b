/**
 * A hostile (or merely careless) daemon echoes secrets and terminal controls into what the client
 * reports. Once, a lease token the daemon echoed (`lease token <TOKEN> is not yours`) showed in
 * three error messages and three error details; a bridge token a server echoed reached the
 * client's error; `http://user:secret@host` credentials in the middle of a message were kept (the
 * rule only looked at the start of the text); and ANSI/OSC escape sequences reached
 * `error.message`. Now the client scrubs every failure it reports (message and details, thrown or
 * in a `glass.send` envelope) and every log event of the lease tokens it holds or held, the
 * transport's own secrets and URL credentials anywhere, and writes control characters in
 * `error.message` out as visible escapes.
 */
import { describe, expect, it } from "vitest";
import {
  createRequest,
  Glass,
  GlassError,
  httpTransport,
  type GlassLogEvent,
  type GlassResponse,
  type TransportHandlers,
} from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import { neutraliseControls, redactText } from "../../../src/errors/redact.js";
import { daemonErrorData, ScriptedDaemon, textResult } from "../../support/scripted-daemon.js";
import { describeHits, findSecrets, OutputCorpus } from "../support/secrets-scan.js";

const LEASE_TOKEN = "lease-7Hq2XvN9pLm4Rt8Kw3Bz6Yc1Dj5Fg0Se";
const OLD_LEASE_TOKEN = "lease-old-Qw8Er5Ty2Ui9Op3As6Df1Gh4Jk7Lz";
const BRIDGE_TOKEN = "bridge-Zx4Cv7Bn0Mq3We6Rt9Yu2Io5Pa8Sd1Fg";

/** The daemon's -32003 answer, echoing a token in its message, its wrapper and its details (as a careless daemon would). */
function notYours(token: string): { error: { code: number; message: string; data: unknown } } {
  const message = `lease token ${token} is not yours`;
  return {
    error: {
      code: -32003,
      message,
      data: daemonErrorData("policy.mutationLease", message, { code: "leaseNotOwner", retryable: false, token }),
    },
  };
}

/** A daemon that grants LEASE_TOKEN (after OLD_LEASE_TOKEN) and echoes it in every refusal. */
function echoingDaemon(): ScriptedDaemon {
  let grants = 0;
  return new ScriptedDaemon((request: JsonRpcRequest) => {
    if (request.method === "glass/lease/acquire") {
      const token = grants++ === 0 ? OLD_LEASE_TOKEN : LEASE_TOKEN;
      return { result: { sessionId: "s-1", ownerId: "o-1", token, expiresAtMs: Date.now() + 60_000 } };
    }
    if (request.method === "glass/lease/release" && (request.params as { token?: string }).token === OLD_LEASE_TOKEN)
      return { result: { sessionId: "s-1", released: true } };
    if (request.method.startsWith("glass/lease/")) return notYours(LEASE_TOKEN);
    const tool = (request.params as { name: string }).name;
    if (tool === "click") return notYours(LEASE_TOKEN);
    if (tool === "hover")
      return {
        result: {
          isError: true,
          content: [
            {
              type: "text",
              text: JSON.stringify({
                kind: "target",
                code: "target.stale",
                message: `target held under ${LEASE_TOKEN}`,
                data: { token: LEASE_TOKEN },
              }),
            },
          ],
        },
      };
    if (tool === "scroll") return notYours(OLD_LEASE_TOKEN);
    // The lease token at the very end of a message the client cuts to 512 bytes: the cut must not leave half of it.
    if (tool === "type") return { error: { code: -32603, message: `${"x".repeat(490)}${LEASE_TOKEN}`, data: null } };
    return textResult({ ok: true });
  });
}

function expectClean(corpus: OutputCorpus, ...tokens: string[]): void {
  const hits = findSecrets(
    corpus.outputs,
    tokens.map((value, i) => ({ label: `token ${i}`, value })),
  );
  expect(hits, describeHits(hits)).toEqual([]);
}

describe("lease tokens the daemon echoes never reach an error or a log event", () => {
  it("in the three -32003 errors (a mutating call, renew, release), an isError text, a token held before, a cut message, glass.send and the log", async () => {
    const corpus = new OutputCorpus();
    const events: GlassLogEvent[] = [];
    const glass = await Glass.connect(echoingDaemon(), { logger: (event) => events.push(event) });
    await glass.acquireLease({ ttlMs: 60_000 });
    await glass.releaseLease(); // OLD_LEASE_TOKEN: held before, still scrubbed
    await glass.acquireLease({ ttlMs: 60_000 });
    const calls: [string, () => Promise<unknown>][] = [
      ["click", () => glass.browser.click({ target: "ref=r1:e1" })],
      ["hover (isError)", () => glass.browser.hover({ target: "ref=r1:e1" })],
      ["scroll (old token)", () => glass.browser.scroll({})],
      ["type (cut)", () => glass.browser.type({ text: "x" })],
      ["renewLease", () => glass.renewLease({ ttlMs: 60_000 })],
    ];
    for (const [name, call] of calls) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, name).toBeInstanceOf(GlassError);
      corpus.error(name, error);
    }
    const sent: GlassResponse = await glass.send(
      createRequest(
        "browser.click",
        { target: "ref=r1:e1" },
        { mutationLease: { sessionId: "s-1", token: LEASE_TOKEN } },
      ),
    );
    expect(sent.ok).toBe(false);
    corpus.value("glass.send envelope", sent);
    const released = await glass.releaseLease().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(released).toBeInstanceOf(GlassError);
    corpus.error("releaseLease", released);
    corpus.value("log events", events);
    await glass.close();
    expectClean(corpus, LEASE_TOKEN, OLD_LEASE_TOKEN);
    // The errors still say what happened.
    expect(corpus.outputs.find((output) => output.source === "click: message")?.text).toContain(
      "lease token [redacted] is not yours",
    );
  });
});

/** A scripted daemon whose transport knows a bridge token (as an HTTP or WebSocket transport does) and redacts it. */
class BridgedDaemon extends ScriptedDaemon {
  redact(text: string): string {
    return redactText(text, [BRIDGE_TOKEN]);
  }
}

describe("the transport's own secrets, echoed by a server", () => {
  it("a bridge token in an error message and its data never reaches the client's error", async () => {
    const daemon = new BridgedDaemon(() => ({
      error: {
        code: -32603,
        message: `upstream refused Authorization: Bearer ${BRIDGE_TOKEN}`,
        data: { header: `Bearer ${BRIDGE_TOKEN}` },
      },
    }));
    const glass = await Glass.connect(daemon);
    const corpus = new OutputCorpus();
    corpus.error("observe", await glass.browser.observe({}).catch((caught: unknown) => caught));
    corpus.value("send", await glass.send(createRequest("browser.observe", {})));
    await glass.close();
    expectClean(corpus, BRIDGE_TOKEN);
  });

  it("a bridge token in the error a transport's start rejects with", async () => {
    const daemon = new BridgedDaemon(() => ({ result: {} }));
    daemon.start = async (_handlers: TransportHandlers) => {
      throw new GlassError({
        code: "transport.unavailable",
        message: `the server answered 401: {"error":"bad token ${BRIDGE_TOKEN}"}`,
      });
    };
    const corpus = new OutputCorpus();
    corpus.error("connect", await Glass.connect(daemon).catch((caught: unknown) => caught));
    expectClean(corpus, BRIDGE_TOKEN);
  });
});

describe("credentials in URLs, anywhere in a message", () => {
  it("a daemon's message quoting two URLs with user:password", async () => {
    const daemon = new ScriptedDaemon(() => ({
      error: {
        code: -32603,
        message:
          "could not fetch http://user:s3cr3t-passw0rd@example.com/x, nor https://alice:an0ther-s3cret@host:8443/y?token=qu3ry-s3cret-t0ken",
        data: null,
      },
    }));
    const glass = await Glass.connect(daemon);
    const error = (await glass.browser.observe({}).catch((caught: unknown) => caught)) as GlassError;
    await glass.close();
    expect(error.message).toContain("http://[redacted]@example.com/x");
    expect(error.message).toContain("https://[redacted]@host:8443/y?token=[redacted]");
    const corpus = new OutputCorpus();
    corpus.error("observe", error);
    expectClean(corpus, "s3cr3t-passw0rd", "an0ther-s3cret", "qu3ry-s3cret-t0ken");
  });

  it("httpTransport to a URL with credentials: the connect error does not quote them", async () => {
    const corpus = new OutputCorpus();
    const error = await Glass.connect(httpTransport({ url: "http://glass-user:s3cr3t-url-passw0rd@127.0.0.1:9/mcp" }), {
      deadlineMs: 5000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GlassError);
    corpus.error("connect", error);
    expectClean(corpus, "s3cr3t-url-passw0rd");
  });
});

describe("control characters and escape sequences from a daemon or a page", () => {
  const HOSTILE =
    "clicked\u001b[31m red\u001b[0m\u001b]0;owned\u0007 \u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\\r\nglass: all fine \u009b2J \u202egnp.exe\u0008\u0000";

  function controlsIn(text: string, allowLineBreaks: boolean): string[] {
    return [...text].filter((c) => {
      const code = c.charCodeAt(0);
      if (allowLineBreaks && (c === "\n" || c === "\t")) return false;
      return (
        code < 0x20 ||
        (code >= 0x7f && code <= 0x9f) ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069) ||
        code === 0x2028 ||
        code === 0x2029
      );
    });
  }

  it.each([
    ["a JSON-RPC error message", { error: { code: -32603, message: HOSTILE, data: null } }],
    [
      "a typed tool failure's message (page text)",
      {
        result: {
          isError: true,
          content: [
            { type: "text", text: JSON.stringify({ kind: "target", code: "target.notFound", message: HOSTILE }) },
          ],
        },
      },
    ],
    ["a tool failure in plain text", { result: { isError: true, content: [{ type: "text", text: HOSTILE }] } }],
    [
      "an error code",
      {
        result: {
          isError: true,
          content: [{ type: "text", text: JSON.stringify({ code: "odd\u001b[2J", message: "x" }) }],
        },
      },
    ],
  ] as const)("%s: error.message is one line with every control written out", async (_, answer) => {
    const daemon = new ScriptedDaemon(() => answer as never);
    const glass = await Glass.connect(daemon);
    const error = (await glass.browser.observe({}).catch((caught: unknown) => caught)) as GlassError;
    await glass.close();
    expect(error).toBeInstanceOf(GlassError);
    expect(controlsIn(error.message, false)).toEqual([]);
    expect(controlsIn(error.rawMessage, true)).toEqual([]);
    expect(controlsIn(String(error.toJSON().message), true)).toEqual([]);
    if (error.rawMessage.includes("clicked")) expect(error.message).toContain("\\u001b[31m red");
  });

  it("a daemon request whose method carries escape sequences: the log event is one line", async () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    const details: string[] = [];
    const glass = await Glass.connect(daemon, {
      logger: (event) => event.type === "wire" && details.push(event.detail),
    });
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: `\u001b]0;${LEASE_TOKEN}\u0007\r\nfake line`,
    } as JsonRpcMessage);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await glass.close();
    const line = details.find((detail) => detail.startsWith("daemon request"));
    expect(line).toBeDefined();
    expect(controlsIn(line!, false)).toEqual([]);
  });
});

describe("neutraliseControls, the one home of making controls visible", () => {
  const TEXT = "a\u001b[2J\tb\r\nglass-sdk bridge: forged\rc\u009b\u202e\n";

  it("on one line: every control, line breaks included, becomes a \\u00XX or \\n escape", () => {
    expect(neutraliseControls(TEXT)).toBe("a\\u001b[2J\\tb\\r\\nglass-sdk bridge: forged\\rc\\u009b\\u202e\\n");
  });

  it("keeping line breaks: tab and line feed stay, a carriage return is escaped", () => {
    expect(neutraliseControls(TEXT, { keepLineBreaks: true })).toBe(
      "a\\u001b[2J\tb\\r\nglass-sdk bridge: forged\\rc\\u009b\\u202e\n",
    );
  });

  it("indenting line breaks (the bridge's log): a CRLF is one break, and no quoted line starts at the margin", () => {
    expect(neutraliseControls(TEXT, { keepLineBreaks: true, indentLineBreaks: "    " })).toBe(
      "a\\u001b[2J\tb\n    glass-sdk bridge: forged\\rc\\u009b\\u202e\n    ",
    );
  });
});

describe("redactText, the one home of the scrubbing", () => {
  it("scrubs known secrets (as written, JSON-escaped, percent-encoded), URL credentials anywhere and bearer carriers", () => {
    const secret = 'to"ken/with spaces';
    expect(redactText(`a ${secret} b ${JSON.stringify(secret)} c ${encodeURIComponent(secret)}`, [secret])).toBe(
      'a [redacted] b "[redacted]" c [redacted]',
    );
    expect(redactText("see ws://u:p@h/x and ftp://me@files.example:21/ and mailto:x@y")).toBe(
      "see ws://[redacted]@h/x and ftp://[redacted]@files.example:21/ and mailto:x@y",
    );
    expect(redactText("http://a@b@host/p")).toBe("http://[redacted]@host/p");
    expect(redactText("GET /mcp?x=1&token=abc&access_token=def#frag")).toBe(
      "GET /mcp?x=1&token=[redacted]&access_token=[redacted]#frag",
    );
    expect(redactText("Sec-WebSocket-Protocol: mcp, glass-bearer.abc.def")).toBe(
      "Sec-WebSocket-Protocol: mcp, glass-bearer.[redacted]",
    );
    expect(redactText(`cut here ${LEASE_TOKEN.slice(0, 20)}…`, [LEASE_TOKEN])).toBe("cut here [redacted]…");
    expect(redactText("nothing to hide: http://example.com/a?b=c")).toBe("nothing to hide: http://example.com/a?b=c");
  });

  it("is linear on the inputs that make naive patterns quadratic", () => {
    // Correctness only (no timing): these complete, and scrub what they must.
    const letters = "a".repeat(200_000);
    expect(redactText(`${letters}://x:y@z`)).toBe(`${letters}://[redacted]@z`);
    expect(redactText("://".repeat(50_000)).length).toBe(150_000);
    expect(redactText("?token=".repeat(20_000))).toContain("[redacted]");
  });
});
