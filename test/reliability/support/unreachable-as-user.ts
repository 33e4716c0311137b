// Run as another user (faults/unreachable.test.ts runs it as `nobody` when it runs as root, which
// no file permission stops): tries to use the daemon socket at argv[2], which that user may not
// reach (mode 0600, owned by root), directly and through a bridge started here, and prints one JSON
// line saying what each attempt met. `--probe` prints {"probe": true} (the script can be loaded).
import { Glass, GlassError, httpTransport, webSocketTransport } from "glass-sdk";
import { startBridge } from "../../../src/node/bridge/start-bridge.js";
import { socketTransport } from "../../../src/node/socket-transport.js";

/** What a failure looked like, or that there was none. */
function outcome(error: unknown): Record<string, unknown> {
  if (error === undefined) return { ok: true };
  if (!(error instanceof GlassError)) return { thrown: String(error) };
  return { name: error.name, code: error.code, mutationPossible: error.mutationPossible, message: error.message };
}

const path = process.argv[2] ?? "";
if (path === "--probe") {
  process.stdout.write(`${JSON.stringify({ probe: true })}\n`);
} else {
  const report: Record<string, unknown> = {};
  const connected = await Glass.connect(socketTransport({ path })).then(
    async (glass) => {
      await glass.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  report.socketConnect = outcome(connected);
  const lazy = Glass.create(socketTransport({ path }));
  report.socketRead = outcome(
    await lazy.browser.observe({ level: "summary" }).then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
  report.socketMutation = outcome(
    await lazy.browser.click({ target: "ref=r11:e4", expectedRevision: 11 }).then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
  report.socketStats = lazy.stats();
  const logs: string[] = [];
  const bridge = await startBridge({ port: 0, upstream: { socket: path }, log: (line) => logs.push(line) });
  for (const [name, transport] of [
    ["http", httpTransport({ url: bridge.url, token: bridge.token })],
    ["websocket", webSocketTransport({ url: bridge.wsUrl, token: bridge.token })],
  ] as const) {
    report[name] = outcome(
      await Glass.connect(transport).then(
        (glass) => glass.close(),
        (error: unknown) => error,
      ),
    );
  }
  report.bridgeLog = logs.find((line) => /could not open a daemon connection/.test(line)) ?? null;
  await bridge.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
