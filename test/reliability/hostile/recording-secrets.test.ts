/**
 * Secrets a recording must never keep, wherever a daemon or a page puts them: `token=` query
 * values (of the bridge or of a site), URL credentials (`user:secret@host`) anywhere in a string,
 * lease tokens echoed inside error texts and JSON-escaped strings, and bridge tokens in the ways
 * they travel (`glass-bearer.`, `Bearer `). The README promises that recorded fixtures hold none.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage, JsonRpcRequest } from "../../../src/mcp/json-rpc.js";
import type { GoldenFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { loadFixture } from "../../../src/testing/load-fixture.js";
import { recordingTransport } from "../../../src/testing/recording-transport.js";
import { redactSecrets } from "../../../src/testing/redact-secrets.js";
import { saveFixture } from "../../../src/testing/save-fixture.js";
import type { GlassTransport, TransportHandlers } from "../../../src/transport/transport.js";

const LEASE = "LeAsE-tok3n-Qz8Wv1Xk5Rn2Tb7";
const BRIDGE = "BrIdGe-tok3n-Mx4Pc9Lw2Hd6Jf1Gs3";
const SITE = "SiTe-sess10n-Vt5Ny8Kq2Zr7";
const PASSWORD = "hunter2-Pw9Xc4Rq";

/** Every secret the hostile daemon below plants, none of which the recorder is told about except the lease token it sees granted. */
const PLANTED = [LEASE, BRIDGE, SITE, PASSWORD];

/**
 * A hostile daemon double: it grants a lease token, then echoes secrets back in every way a page
 * or a daemon could — page URLs with `?token=` and `#access_token=`, credentials in the middle of
 * a sentence, the lease token in error messages and details (also JSON-escaped), the bridge token
 * as it travels in headers and subprotocols.
 */
class HostileDaemon implements GlassTransport {
  readonly kind = "double";
  readonly maxInFlight = 4;
  #handlers: TransportHandlers | undefined;

  async start(handlers: TransportHandlers): Promise<void> {
    this.#handlers = handlers;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (!("method" in message) || !("id" in message)) return;
    const request = message as JsonRpcRequest;
    const reply = (answer: Record<string, unknown>): void => {
      queueMicrotask(() => this.#handlers?.onMessage({ jsonrpc: "2.0", id: request.id, ...answer } as JsonRpcMessage));
    };
    const text = (value: unknown): Record<string, unknown> => ({
      result: { content: [{ type: "text", text: JSON.stringify(value) }] },
    });
    if (request.method === "glass/lease/acquire")
      return reply({ result: { sessionId: "sess-1", ownerId: "c1", token: LEASE, expiresAtMs: 1 } });
    if (request.method !== "tools/call") return;
    const tool = (request.params as { name?: string } | undefined)?.name;
    switch (tool) {
      case "navigate":
        return reply(
          text({
            url: `https://app.example/account?user=7&token=${SITE}#frag`,
            finalUrl: `https://app.example/cb#access_token=${SITE}&state=x`,
            note: `redirected via http://admin:${PASSWORD}@intranet.example/login and back`,
            headers: `Authorization: Bearer ${BRIDGE}`,
            protocols: `mcp, glass-bearer.${BRIDGE}`,
            ws: `ws://127.0.0.1:8787/mcp?token=${BRIDGE}`,
          }),
        );
      case "observe":
        return reply(
          text({ revision: 3, text: `link "sign in" -> https://user:${PASSWORD}@mail.example/inbox?sid=1` }),
        );
      case "click":
        return reply({
          error: {
            code: -32003,
            message: `lease token ${LEASE} is not yours (see http://127.0.0.1:8787/mcp?token=${BRIDGE})`,
            data: {
              glass: {
                details: { token: LEASE, echoed: JSON.stringify({ request: JSON.stringify({ leaseToken: LEASE }) }) },
              },
            },
          },
        });
      default:
        return reply(text({ ok: true }));
    }
  }

  async close(): Promise<void> {
    this.#handlers?.onClose();
  }
}

async function recordHostileSession(): Promise<GoldenFixture> {
  const recorder = recordingTransport(new HostileDaemon());
  const arrived: JsonRpcMessage[] = [];
  await recorder.start({ onMessage: (message) => arrived.push(message), onClose: () => {} });
  const calls: JsonRpcRequest[] = [
    { jsonrpc: "2.0", id: "l1", method: "glass/lease/acquire", params: { ttlMs: 5000 } },
    {
      jsonrpc: "2.0",
      id: "n1",
      method: "tools/call",
      params: { name: "navigate", arguments: { url: `https://app.example/login?next=%2F&token=${SITE}` } },
    },
    {
      jsonrpc: "2.0",
      id: "n2",
      method: "tools/call",
      params: { name: "navigate", arguments: { url: `https://admin:${PASSWORD}@intranet.example/` } },
    },
    { jsonrpc: "2.0", id: "o1", method: "tools/call", params: { name: "observe", arguments: { level: "summary" } } },
    {
      jsonrpc: "2.0",
      id: "c1",
      method: "tools/call",
      params: { name: "click", arguments: { target: "ref=r1:b2", leaseToken: LEASE } },
    },
  ];
  for (const call of calls) await recorder.send(call);
  while (arrived.length < calls.length) await new Promise((resolve) => setTimeout(resolve, 1));
  await recorder.close();
  return recorder.fixture();
}

describe("a recording keeps no secret a hostile daemon or page plants, wherever it is", () => {
  /*
   * Repro: the recorder redacted only the lease tokens it saw and the strings of `redact`; the
   * fixture kept the site's `?token=` and `#access_token=` values, `admin:<password>@` credentials
   * in the middle of a sentence and in a navigate payload, and the bridge token in `?token=`,
   * `Bearer` and `glass-bearer.` form — 3 of the 4 planted secrets.
   */
  it("no planted secret survives in any request, answer or error text; each is replaced by [redacted]", async () => {
    const fixture = await recordHostileSession();
    const text = JSON.stringify(fixture);
    for (const secret of PLANTED) expect(text, `secret ${secret}`).not.toContain(secret);

    const [navigate, navigateWithCredentials, , click] = fixture.requests;
    expect(navigate!.payload).toEqual({ url: "https://app.example/login?next=%2F&token=[redacted]" });
    expect(navigateWithCredentials!.payload).toEqual({ url: "https://[redacted]@intranet.example/" });
    expect(click!.payload).toEqual({ target: "ref=r1:b2" });

    const [navigated, , observed, clicked] = fixture.responses;
    expect(navigated).toMatchObject({
      ok: true,
      result: {
        url: "https://app.example/account?user=7&token=[redacted]#frag",
        finalUrl: "https://app.example/cb#access_token=[redacted]&state=x",
        note: "redirected via http://[redacted]@intranet.example/login and back",
        headers: "Authorization: Bearer [redacted]",
        protocols: "mcp, glass-bearer.[redacted]",
        ws: "ws://127.0.0.1:8787/mcp?token=[redacted]",
      },
    });
    expect(observed).toMatchObject({
      ok: true,
      result: { text: 'link "sign in" -> https://[redacted]@mail.example/inbox?sid=1' },
    });
    expect(clicked).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining("lease token [redacted] is not yours") },
    });
  });

  it("the fixture stays valid: saveFixture writes it, with no secret in the file, and loadFixture reads it back", async () => {
    const fixture = await recordHostileSession();
    const dir = await mkdtemp(join(tmpdir(), "glass-hostile-recording-"));
    try {
      const path = join(dir, "recorded.json");
      await saveFixture(path, fixture);
      const file = await readFile(path, "utf8");
      for (const secret of PLANTED) expect(file, `secret ${secret}`).not.toContain(secret);
      expect(await loadFixture(path)).toEqual(fixture);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("plain text that only looks like a carrier is left alone: URLs without credentials, e-mail addresses, 'bearer' in prose", async () => {
    const recorder = recordingTransport(new HostileDaemon());
    const arrived: JsonRpcMessage[] = [];
    await recorder.start({ onMessage: (message) => arrived.push(message), onClose: () => {} });
    const args = {
      target: "ref=r1:b2",
      text: "mail bob@example.com about https://example.com/a//b?page=2&sort=asc; the bearer of this card",
    };
    await recorder.send({ jsonrpc: "2.0", id: "t1", method: "tools/call", params: { name: "type", arguments: args } });
    while (arrived.length < 1) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(recorder.fixture().requests[0]!.payload).toEqual(args);
  });

  it("strings built to make a scrubber backtrack (1 MiB each: runs after //, &, ?, bearer) are scrubbed in one pass each", () => {
    const size = 1024 * 1024;
    const hostile = [
      `//${"a".repeat(size)}`,
      `&${"a".repeat(size)}`,
      "&a".repeat(size / 2),
      `bearer${" ".repeat(size)}`,
      "//a".repeat(size / 3),
      `?${"k.".repeat(size / 2)}`,
      `${"a".repeat(size)}://`,
    ];
    const scrubbed = redactSecrets({ strings: hostile }, [LEASE]);
    expect(scrubbed.strings).toEqual(hostile);
  });
});
