/**
 * Terminal escapes aimed at whoever reads the bridge's log. A daemon's stderr is quoted in the log
 * when it dies, and a client's `Origin` and `Host` are quoted when it is refused: a hostile daemon
 * or local process can put ANSI/OSC sequences there (clear the screen, retitle the terminal, hide
 * text) or forge whole log lines. Against the real `glass-sdk bridge` process: every control
 * character reaches its stderr as visible text, a daemon's line breaks cannot start a line that
 * looks like the bridge's own, and the token never appears.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE_PARAMS } from "../../support/bridge-harness.js";
import { runCli, startupLine, type CliRun } from "../support/secrets-cli.js";

const TOKEN = "EsCaPeS-bridge-token.Nw3Lq8Xv1Zm6Rb4Tk9_Hc2~Pd7";
/** What the hostile daemon writes to stderr before dying: OSC title, screen clear, colours, a forged log line, C1 and bidi controls, the token. */
const HOSTILE_STDERR =
  "\u001b]0;pwned-title\u0007\u001b[2J\u001b[31mred\u001b[0m\r\n" +
  "glass-sdk bridge: session 00000000 started (websocket, client 6.6.6.6)\n" +
  `\u009b31mc1-csi \u009d0;c1-osc\u009c \u202eevil\u2028after-separator \u0008\u007f ${TOKEN}\n`;
/** Characters a terminal acts on: C0 but tab and line feed, DEL, C1, line/paragraph separators, bidi overrides. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The daemon: writes what it is given to stderr, and dies on the first message. */
const daemonScript = `process.stderr.write(process.env.HOSTILE_STDERR); process.stdin.once("data", () => process.exit(1));`;

let cli: CliRun;
let url: string;
let port: number;

beforeAll(async () => {
  cli = runCli(["bridge", "--port", "0", "--token", TOKEN, "--", process.execPath, "-e", daemonScript], {
    HOSTILE_STDERR,
  });
  await cli.waitFor(/browser pages: /);
  url = startupLine(cli.stderr()).url;
  port = Number(new URL(url).port);
}, 30_000);

afterAll(async () => {
  await cli?.stop();
});

/** Sends raw request bytes (latin1, so any byte goes) and waits for the bridge to close the connection. */
function rawRequest(bytes: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(Buffer.from(bytes, "latin1")));
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
    socket.on("close", () => resolve());
  });
}

describe("hostile bridge: escape sequences in the log", () => {
  it("a dying daemon's stderr is quoted with every control character neutralised, and cannot forge a log line", async () => {
    const answer = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS }),
    });
    expect(await answer.json()).toMatchObject({ id: 1, error: { code: -32603 } });
    const ended = await cli.waitFor(/ended \(http\): the daemon connection closed: [\s\S]*?after-separator[^\n]*\n/);
    expect(ended[0]).not.toMatch(ACTIVE);
    // The sequences are there to read, as text (one escape form, \u00XX, from the transport's error and the log alike).
    expect(ended[0]).toContain("\\u001b]0;pwned-title\\u0007\\u001b[2J\\u001b[31mred\\u001b[0m");
    expect(ended[0]).toContain(
      "\\u009b31mc1-csi \\u009d0;c1-osc\\u009c \\u202eevil\\u2028after-separator \\u0008\\u007f",
    );
    // The daemon's forged line is indented under the bridge's, never a line of its own.
    expect(cli.stderr()).not.toMatch(/^glass-sdk bridge: session 00000000 started/m);
    expect(cli.stderr()).toMatch(/^ +glass-sdk bridge: session 00000000 started/m);
  });

  it("an Origin or Host with C1 controls is quoted in the refusal's log line as visible text", async () => {
    await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://evil.example\x9b2J\x9d0;title\x9c\r\nContent-Length: 0\r\n\r\n`,
    );
    await rawRequest(`POST /mcp HTTP/1.1\r\nHost: evil\x9b31m.example\r\nContent-Length: 0\r\n\r\n`);
    const origin = await cli.waitFor(/refused POST \/mcp from 127\.0\.0\.1: Origin [^\n]*\n/);
    const host = await cli.waitFor(/refused POST \/mcp from 127\.0\.0\.1: Host [^\n]*\n/);
    expect(origin[0]).toContain("http://evil.example\\u009b2J\\u009d0;title\\u009c");
    expect(host[0]).toContain("evil\\u009b31m.example");
  });

  it("nothing the bridge wrote holds an active control character or the token", async () => {
    expect(await cli.stop()).toBe(0);
    expect(cli.stderr()).not.toMatch(ACTIVE);
    expect(cli.stderr()).not.toContain(TOKEN);
  });
});
