/**
 * The typed catalog against the real daemon: preflightNavigation, resolveIntentWithKnowledge and
 * extractWebIr. The first two are called through their typed methods on glass-browser 0.3.14 (one
 * daemon over stdio, on the lab page), their results checked by the SDK's result schemas; the URL
 * policy's decisions are compared URL by URL with the mock daemon's. extractWebIr is newer than
 * 0.3.14: the daemon does not list it, and answers a raw call to it as it answers any unknown tool.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";
import type {
  BrowserIntentCandidate,
  BrowserTargetFingerprint,
} from "../../generated/types/operations/browser-intents-workflows.js";
import { createSimulatedSite } from "../../src/mock-daemon/site/index.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";
import { CATALOG_FILES, failure, type RecordedClient, recordCalls } from "./support/catalog-coverage.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import {
  type DaemonState,
  daemonState,
  freePort,
  globalFlags,
  killDaemon,
  requireInstalledDaemon,
  spawnDaemon,
  type StdioDaemon,
  stdioDaemon,
} from "./support/real-daemon.js";

requireInstalledDaemon();

/** The operations this file calls through the typed client. */
/** The operations this file calls through the typed client (extractWebIr too: refused before sending on a daemon without it). */
const COVERED = CATALOG_FILES["catalog-page-additions"];

/** The daemon's opaque tool failure, as the tool result it sends. */
const BROWSER_TOOL_FAILED = { content: [{ type: "text", text: "browser tool failed" }], isError: true };

/**
 * URLs whose navigation decision the mock must give exactly as the daemon does: schemes the daemon
 * knows and others, no scheme, credentials, loopback and private addresses, IDN, trailing dots,
 * and each way a URL fails to parse.
 */
const URLS = [
  "https://example.com/a?b=c#d",
  "http://example.com",
  "example.com/path",
  "  example.com/path\u00a0",
  "https://user:secret@example.com:8443/p?x#y",
  "user:secret@example.com/",
  "//example.com",
  "localhost:3000",
  "http://localhost/",
  "127.0.0.1",
  "http://127.0.0.1:8080/x",
  "http://10.0.0.1/",
  "http://192.168.1.20/admin",
  "http://169.254.169.254/latest/meta-data",
  "http://0x7f.1/",
  "http://4294967295/",
  "http://[::1]:8080/p",
  "http://[::ffff:1.2.3.4]/",
  "https://bücher.example/",
  "http://例え.テスト/",
  "http://☃.net/",
  "https://xn--bcher-kva.example/",
  "http://example.com./",
  "HTTPS://EXAMPLE.COM/",
  "file:///etc/passwd",
  "file://localhost/etc",
  "file://host/share",
  "file:////srv/x",
  "data:text/html,<script>alert(1)</script>",
  "data:text/plain;base64,SGk=#frag",
  "about:blank",
  "about:blank?x#y",
  "mailto:a@b.c",
  "ftp://example.com/",
  "ws://example.com/",
  "chrome://settings",
  "javascript:alert(1)",
  "ABOUT:blank",
  "http:example.com",
  "http://a:99999",
  "http://a:-1",
  "http://[",
  "http://[1::2::3]/",
  "http://256.1.1.1/",
  "http://1.2.3.4.5/",
  "http://example.123/",
  "http://@/",
  "https://:443",
  "http://\u200b/",
  "garbage with spaces",
  "http://a^b",
  "http://%zz.com/",
  "http://xn--a.com/",
  "about://\\",
  "data://[::",
];

/** The lab's "Double me" button as resolveIntent sees it: what a stored target fingerprint names. */
const DOUBLE_ME = { schemaVersion: 1, intent: "Double me", action: "click", resolutionPolicy: "reportOnly" } as const;

/**
 * The digest the daemon stores for a target fingerprint: `sha256:` and the hex SHA-256 of the
 * compact JSON of its role, name, input type, region kind and purpose, keys sorted.
 */
function fingerprintDigest(fingerprint: BrowserTargetFingerprint): string {
  const canonical = {
    inputType: fingerprint.inputType ?? null,
    name: fingerprint.name,
    purpose: fingerprint.purpose,
    regionKind: fingerprint.regionKind ?? null,
    role: fingerprint.role,
  };
  return `sha256:${createHash("sha256").update(JSON.stringify(canonical)).digest("hex")}`;
}

/**
 * Writes a knowledge store holding one target fingerprint of the lab page (anonymous scope),
 * learnt now and validated against the page at `revision`: an eligible record for the candidate it
 * names while the page stays at that revision, which resolveIntentWithKnowledge reads at each call.
 */
function storeFingerprint(
  state: DaemonState,
  origin: string,
  fingerprint: BrowserTargetFingerprint,
  revision: number,
): void {
  const configHome = state.env.GLASS_CONFIG_HOME;
  if (configHome === undefined) throw new Error("the daemon state has no GLASS_CONFIG_HOME");
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const record = {
    schemaVersion: 1,
    recordId: "kr-lab-double-me",
    kind: "targetFingerprint",
    scope: {
      origin,
      pathPattern: "/lab",
      profileScope: "anonymous",
      browserFamily: "chromium",
      glassSchemaVersion: 1,
      policyPreset: "development",
    },
    source: {
      firstSeenAt: now,
      lastVerifiedAt: now,
      glassVersion: "0.3.14",
      verificationCount: 1,
      surface: { kind: "document", understanding: "strong", coverage: "semantic" },
      backend: { backend: "cdp", profile: "default", capabilities: ["semanticExtraction", "verification"] },
    },
    confidence: "verified",
    invalidation: {
      maxAgeSeconds: 604_800,
      requiredLandmarks: fingerprint.regionKind === undefined ? [] : [fingerprint.regionKind],
    },
    data: {
      fingerprint: fingerprintDigest(fingerprint),
      role: fingerprint.role,
      regionKind: fingerprint.regionKind,
      purpose: fingerprint.purpose,
    },
    portability: "semanticPortable",
    retrieval: {
      currentValidation: {
        status: "validated",
        evidenceQuality: "strong",
        currentRevision: revision,
        validatedAt: now,
      },
    },
  };
  const directory = join(configHome, "glass", "knowledge");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "default.json"), JSON.stringify({ schemaVersion: 1, records: [record] }));
}

describe("preflightNavigation and resolveIntentWithKnowledge on the real daemon", () => {
  let lab: LabServer;
  let daemon: StdioDaemon;
  let client: RecordedClient;
  let glass: Glass;
  let mock: Glass;
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
    client = recordCalls(await Glass.connect(daemon.transport));
    glass = client.glass;
    mock = await Glass.connect(createMockGlass().transport());
  });
  afterAll(async () => {
    await mock?.close();
    await glass?.close();
    daemon?.state.remove();
    await lab?.close();
  });

  it("preflightNavigation decides every URL of the table exactly as the mock daemon does", async () => {
    const differences: string[] = [];
    for (const url of URLS) {
      const [real, mocked] = [
        await glass.browser.preflightNavigation({ url }),
        await mock.browser.preflightNavigation({ url }),
      ];
      if (JSON.stringify(real) !== JSON.stringify(mocked))
        differences.push(`${JSON.stringify(url)}: daemon ${JSON.stringify(real)}, mock ${JSON.stringify(mocked)}`);
    }
    expect(differences).toEqual([]);
  });

  it("preflightNavigation allows what the default policy lets load, without credentials, query or fragment, and denies what does not parse", async () => {
    expect(await glass.browser.preflightNavigation({ url: " user:secret@Example.com/a?token=1#top " })).toEqual({
      schemaVersion: 1,
      normalizedUrl: "https://example.com/a",
      host: "example.com",
      decision: "allow",
      reason: "URL passes the active navigation policy",
      confirmationRequired: false,
    });
    expect(await glass.browser.preflightNavigation({ url: "javascript:alert(1)" })).toEqual({
      schemaVersion: 1,
      normalizedUrl: null,
      host: null,
      decision: "deny",
      reason: "URL is invalid: invalid port number",
      confirmationRequired: false,
    });
  });

  it("preflightNavigation takes the URL alone: sent anyway, another argument fails the call on the daemon and on the mock alike", async () => {
    for (const extra of [{ responseMode: "minimal" }, { includeTrace: true }, { leaseToken: "token" }]) {
      const request = {
        protocolVersion: 1 as const,
        requestId: `extra-${Object.keys(extra)[0]}`,
        operation: "browser.preflightNavigation",
        payload: { url: "example.com", ...extra },
      };
      for (const target of [glass, mock]) {
        expect(await target.send(request, { validate: false })).toMatchObject({
          ok: false,
          error: { code: "tool.failed", details: { tool: "preflightNavigation" } },
        });
      }
    }
  });

  it("preflightNavigation takes a URL of 8192 UTF-8 bytes; the SDK refuses a longer one before sending, as the daemon would fail it", async () => {
    const longest = `https://a.com/${"é".repeat(4089)}`;
    expect((await glass.browser.preflightNavigation({ url: longest })).decision).toBe("allow");
    expect((await failure(glass.browser.preflightNavigation({ url: `${longest}a` }))).code).toBe("payload.invalid");
  });

  it("resolveIntentWithKnowledge answers resolveIntent's resolution on the lab page when the store holds nothing, whatever the lookup options", async () => {
    await glass.browser.navigate({ url: lab.url("/lab") });
    const plain = await glass.browser.resolveIntent(DOUBLE_ME);
    expect(plain.candidates?.map((candidate) => candidate.name)).toContain("Double me");
    expect(await glass.browser.resolveIntentWithKnowledge(DOUBLE_ME)).toEqual(plain);
    const scoped = {
      ...DOUBLE_ME,
      profileScope: "anonymous",
      profileKey: "lab",
      locale: "en",
      tenantKey: "lab",
      browserFamily: "chromium",
      browserVersion: "140",
    } as const;
    expect(await glass.browser.resolveIntentWithKnowledge(scoped)).toEqual(plain);
  });

  it("resolveIntentWithKnowledge adds historicalMatch evidence to the candidate an eligible stored fingerprint names, and nothing else", async () => {
    await glass.browser.navigate({ url: lab.url("/lab") });
    const plain = await glass.browser.resolveIntent(DOUBLE_ME);
    const doubler = plain.candidates?.find((candidate) => candidate.name === "Double me");
    if (doubler?.fingerprint === undefined)
      throw new Error("resolveIntent found no Double me button with a fingerprint");
    storeFingerprint(daemon.state, lab.origin, doubler.fingerprint, plain.revision ?? 0);
    const withKnowledge = await glass.browser.resolveIntentWithKnowledge({ ...DOUBLE_ME, profileScope: "anonymous" });
    const historical = {
      category: "historicalMatch",
      detail: "eligible scoped knowledge matches this current candidate fingerprint",
    };
    const matched = withKnowledge.candidates?.find((candidate) => candidate.id === doubler.id);
    expect(matched?.evidence).toEqual([...(doubler.evidence ?? []), historical]);
    const others = (candidates: readonly BrowserIntentCandidate[] | undefined) =>
      (candidates ?? []).filter((candidate) => candidate.id !== doubler.id);
    expect(others(withKnowledge.candidates)).toEqual(others(plain.candidates));
    // The record is scoped to anonymous pages: the default lookup (the daemon's own profile) does not see it.
    expect(JSON.stringify(await glass.browser.resolveIntentWithKnowledge(DOUBLE_ME))).not.toContain("historicalMatch");
  });

  it("resolveIntentWithKnowledge is strict like resolveIntent: sent anyway, an argument outside the request and the lookup options fails the call on the daemon and on the mock alike", async () => {
    for (const extra of [{ responseMode: "minimal" }, { includeTrace: true }, { workspaceId: "w" }]) {
      const request = {
        protocolVersion: 1 as const,
        requestId: `extra-${Object.keys(extra)[0]}`,
        operation: "browser.resolveIntentWithKnowledge",
        payload: { ...DOUBLE_ME, ...extra },
      };
      for (const target of [glass, mock]) {
        expect(await target.send(request, { validate: false })).toMatchObject({
          ok: false,
          error: { code: "tool.failed", details: { tool: "resolveIntentWithKnowledge" } },
        });
      }
    }
  });

  it("this file called each of its operations through the typed client", async () => {
    // extractWebIr is refused before it is sent to this daemon, which does not list it (see below).
    expect((await failure(client.glass.browser.extractWebIr())).code).toBe("capability.unavailable");
    expect([...client.called]).toEqual(expect.arrayContaining([...COVERED]));
  });
});

describe("resolveIntentWithKnowledge on a daemon whose policy withholds persistent_profile (--policy ci)", () => {
  it("the daemon reports persistentKnowledge switched off, so the SDK refuses the call before sending it; sent raw, the daemon answers its policy denial", async () => {
    const daemon = await stdioDaemon(["--policy", "ci"]);
    const glass = await Glass.connect(daemon.transport);
    try {
      expect(glass.supports("browser.resolveIntentWithKnowledge")).toBe(false);
      expect(await failure(glass.browser.resolveIntentWithKnowledge(DOUBLE_ME))).toMatchObject({
        code: "capability.unavailable",
        mutationPossible: false,
      });
      expect((await glass.browser.preflightNavigation({ url: "example.com" })).decision).toBe("allow");
    } finally {
      await glass.close();
      daemon.state.remove();
    }
    const state = daemonState();
    const child = spawnDaemon([...globalFlags(await freePort(), ["--policy", "ci"]), "--mcp"], state.env);
    const raw = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    try {
      await handshake(raw);
      const response = await raw.request(1, "tools/call", toolCall("resolveIntentWithKnowledge", DOUBLE_ME));
      const denial = {
        schemaVersion: 1,
        policyVersion: 1,
        kind: "denied",
        operation: "persistent_profile",
        ruleId: "policy.persistent_profile.denied",
        phase: "preflight",
        reason: "PersistentProfile is disabled in CI mode",
        remediation: "change the policy or use an explicitly allowed capability",
        overridePossible: true,
      };
      expect(response.result).toEqual({ content: [{ type: "text", text: JSON.stringify(denial) }], isError: true });
    } finally {
      raw.close();
      killDaemon(child);
      state.remove();
    }
  });
});

describe("extractWebIr on glass-browser 0.3.14, which is older than the tool", () => {
  it("the daemon does not list extractWebIr and answers a call to it as an unknown tool: the bare isError text browser tool failed", async () => {
    const state = daemonState();
    const child = spawnDaemon([...globalFlags(await freePort()), "--mcp"], state.env);
    const raw = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    try {
      await handshake(raw);
      const listed = await raw.request(1, "tools/list", {});
      const names = ((listed.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(["preflightNavigation", "resolveIntentWithKnowledge", "inspectWebIr"]),
      );
      expect(names).not.toContain("extractWebIr");
      expect((await raw.request(2, "tools/call", toolCall("extractWebIr", {}))).result).toEqual(BROWSER_TOOL_FAILED);
      expect((await raw.request(3, "tools/call", toolCall("noSuchTool", {}))).result).toEqual(BROWSER_TOOL_FAILED);
    } finally {
      raw.close();
      killDaemon(child);
      state.remove();
    }
  });

  it("the SDK does not send it: glass.supports says no and the typed call fails with capability.unavailable", async () => {
    const daemon = await stdioDaemon();
    const glass = await Glass.connect(daemon.transport);
    try {
      expect(glass.supports("browser.extractWebIr")).toBe(false);
      expect((await failure(glass.browser.extractWebIr())).code).toBe("capability.unavailable");
    } finally {
      await glass.close();
      daemon.state.remove();
    }
  });

  it("the daemon's webIr tools take the projected document extractWebIr answers (the SDK's closed check is its own): webIrDocument is for the SDK", async () => {
    const daemon = await stdioDaemon();
    const glass = await Glass.connect(daemon.transport);
    try {
      const ir = createSimulatedSite().webIr();
      const projected = {
        ...ir,
        detailAvailability: { resultId: "mcp_1700000000000_1", detailsAvailable: true, detailsTruncated: false },
      };
      const sent = await glass.send(
        { protocolVersion: 1, requestId: "projected-ir", operation: "webIr.validate", payload: { ir: projected } },
        { validate: false },
      );
      expect(sent).toMatchObject({ ok: true, result: { valid: true, schemaVersion: 1, revision: ir.revision } });
    } finally {
      await glass.close();
      daemon.state.remove();
    }
  });
});
