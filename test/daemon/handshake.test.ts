/**
 * The handshake with the real daemon: MCP version negotiation, the capability manifest and the
 * agreement, what the client concludes from them, and `tools/list` against the typed catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, type GlassLogEvent, operations } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";
import { buildManifest } from "../../src/mock-daemon/manifest.js";
import {
  DAEMON_VERSION,
  requireInstalledDaemon,
  type SocketDaemon,
  startSocketDaemon,
  stdioDaemon,
} from "./support/real-daemon.js";
import { TYPED_TOOLS_NEWER_THAN_DAEMON, UNTYPED_DAEMON_TOOLS } from "./support/untyped-tools.js";

requireInstalledDaemon();

/** Connects to a fresh stdio daemon with these client options, runs `body`, and closes both. */
async function withStdioClient<T>(
  options: Parameters<typeof Glass.connect>[1],
  body: (glass: Glass) => Promise<T>,
): Promise<T> {
  const daemon = await stdioDaemon();
  try {
    const glass = await Glass.connect(daemon.transport, options);
    try {
      return await body(glass);
    } finally {
      await glass.close();
    }
  } finally {
    daemon.state.remove();
  }
}

describe("the handshake with the real daemon over stdio", () => {
  it("asks for MCP 2025-11-25, is refused with -32602, and is answered in 2024-11-05 on the same connection", async () => {
    const events: GlassLogEvent[] = [];
    await withStdioClient({ logger: (event) => events.push(event) }, async (glass) => {
      expect(glass.serverInfo).toEqual({ name: "glass", version: DAEMON_VERSION });
      expect(await glass.ping()).toBeGreaterThanOrEqual(0);
    });
    const details = events
      .filter((event) => event.type === "connection")
      .map((event) => (event as { detail: string }).detail);
    expect(details).toContainEqual(
      expect.stringMatching(/initialize with MCP 2025-11-25 refused \(JSON-RPC -32602\); asking for 2024-11-05/),
    );
  });

  it("reports the daemon's manifest: its version, envelope version 1, its schemas and a Chromium on Linux under the development policy", async () => {
    await withStdioClient({}, async (glass) => {
      const manifest = glass.manifest!;
      expect(manifest.glassVersion).toBe(DAEMON_VERSION);
      expect(manifest.protocolVersion).toBe(1);
      // The mock daemon's manifest offers the same schemas.
      expect(Object.keys(manifest.schemas).sort()).toEqual(
        Object.keys(buildManifest("stdio", "linux-x64").schemas).sort(),
      );
      expect(Object.values(manifest.schemas).every((versions) => versions.join() === "1")).toBe(true);
      expect(manifest.constraints).toEqual({
        platform: expect.stringMatching(/^linux-/),
        browserFamily: "chromium",
        policy: "development",
        maxSessions: 4,
      });
      // Every capability it has is listed with a boolean and a status; the two agree as the daemon's rule says.
      for (const [name, enabled] of Object.entries(manifest.capabilities)) {
        const status = manifest.capabilityStatuses?.[name];
        expect(status === "available" || status === "experimental", `${name}: ${status}`).toBe(enabled);
      }
    });
  });

  it("agrees to exactly the schemas and capabilities the client names", async () => {
    const negotiation = { schemas: { webIr: [1], task: [1] }, optional: ["webIr", "localDaemon", "notACapability"] };
    await withStdioClient({ negotiation }, async (glass) => {
      expect(glass.agreement).toEqual({
        protocolVersion: 1,
        agreedSchemas: { webIr: 1, task: 1 },
        capabilities: { webIr: { status: "available" }, localDaemon: { status: "availableUncertified" } },
        constraints: glass.manifest!.constraints,
      });
    });
  });

  it("lists localDaemon as not enabled over stdio (availableUncertified), so the client does not offer leases there", async () => {
    await withStdioClient({}, async (glass) => {
      expect(glass.manifest!.capabilities.localDaemon).toBe(false);
      expect(glass.manifest!.capabilityStatuses?.localDaemon).toBe("availableUncertified");
      expect(glass.supports("localDaemon")).toBe(false);
      expect(glass.supports("webIr")).toBe(true);
      expect(glass.supports("extensions")).toBe(false); // disabledByPolicy
    });
  });

  it("fails connect with initialize.failed quoting the daemon when a required capability is not enabled", async () => {
    const daemon = await stdioDaemon();
    try {
      const error = await Glass.connect(daemon.transport, { negotiation: { requires: ["localDaemon"] } }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: "initialize.failed" });
      expect((error as Error).message).toContain(
        "glass.requires.localDaemon: capability is not enabled (AvailableUncertified)",
      );
    } finally {
      daemon.state.remove();
    }
  });

  it("lists only tools the typed catalog types or the list of untyped tools names, and every catalog tool", async () => {
    await withStdioClient({}, async (glass) => {
      const listed = (await glass.listTools()).map((tool) => tool.name);
      const typed = new Set(Object.values(operations).map((operation) => operation.tool));
      expect(listed.filter((tool) => !typed.has(tool) && !Object.hasOwn(UNTYPED_DAEMON_TOOLS, tool))).toEqual([]);
      expect([...typed].filter((tool) => !listed.includes(tool))).toEqual(Object.keys(TYPED_TOOLS_NEWER_THAN_DAEMON));
      expect(Object.keys(UNTYPED_DAEMON_TOOLS).filter((tool) => !listed.includes(tool) || typed.has(tool))).toEqual([]);
      expect(listed).toHaveLength(
        typed.size - Object.keys(TYPED_TOOLS_NEWER_THAN_DAEMON).length + Object.keys(UNTYPED_DAEMON_TOOLS).length,
      );
    });
  });
});

describe("version skew with the real daemon", () => {
  it("refuses a typed call to a tool the daemon does not list before sending it, naming the daemon's version", async () => {
    const events: GlassLogEvent[] = [];
    await withStdioClient({ logger: (event) => events.push(event) }, async (glass) => {
      expect(glass.supports("browser.extractWebIr")).toBe(false);
      expect(glass.supports("browser.preflightNavigation")).toBe(true);
      const failure = await glass.browser.extractWebIr().catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: "capability.unavailable",
        mutationPossible: false,
        details: { kind: "toolNotListed", tool: "extractWebIr", daemon: `glass ${DAEMON_VERSION}` },
      });
      expect((failure as Error).message).toContain(`glass ${DAEMON_VERSION} does not list the extractWebIr tool`);
      expect(events.filter((event) => event.type === "request" && event.operation === "browser.extractWebIr")).toEqual(
        [],
      );
      await expect(glass.requestUntyped("browser.noSuchTool", {})).rejects.toMatchObject({
        code: "capability.unavailable",
        details: { tool: "noSuchTool" },
      });
    });
  });
});

describe("the handshake with the real daemon on its socket", () => {
  let daemon: SocketDaemon;
  beforeAll(async () => {
    daemon = await startSocketDaemon();
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it("enables localDaemon there, so the client offers leases", async () => {
    const glass = await Glass.connect(socketTransport({ path: daemon.path }));
    try {
      expect(glass.serverInfo).toEqual({ name: "glass", version: DAEMON_VERSION });
      expect(glass.manifest!.capabilities.localDaemon).toBe(true);
      expect(glass.manifest!.capabilities.mcpStdio).toBe(true);
      expect(glass.supports("localDaemon")).toBe(true);
    } finally {
      await glass.close();
    }
  });
});
