/**
 * The daemon's own stores and browser-free checks, as a fresh glass-browser 0.3.14 has them: its
 * workspace store and its semantic memory (the knowledge store), both empty, and the answers it
 * computes from what it is given — replay bundles checked against their scenario and hashed,
 * surface sets validated and summarized, backend profiles validated and gated. The workspace,
 * replay, surface and backend tools answer in the experience envelope; the memory tools answer as
 * the knowledge tools do. What the daemon refuses fails as `browser tool failed`.
 */
import type {
  BrowserBackendCapability,
  BrowserBackendCapabilityDescriptor,
  BrowserBackendProfile,
  BrowserBackendSupportLevel,
  BrowserExperienceEnvelope,
  BrowserReliabilityPlatform,
  BrowserReliabilityScenario,
  BrowserReliabilityScenarioStep,
  BrowserReplayBundle,
  BrowserReplayObservation,
  BrowserSurface,
  BrowserSurfaceProvenance,
  BrowserSurfaceSet,
  BrowserWorkspace,
} from "../../../generated/types/operations/browser-experience.js";
import type {
  BrowserKnowledgeRecord,
  BrowserKnowledgeStoreSnapshot,
  BrowserKnowledgeStoreStats,
} from "../../../generated/types/operations/browser-knowledge.js";
import { utf8Length } from "../../validation/byte-length.js";
import { type MockHandler, mockError } from "../handlers.js";
import { compareCodePoints, sortedKeyJson, sortedKeys } from "./daemon-text.js";

/** What the daemon's stores hold when they are made; a fresh daemon's are empty. */
export interface DaemonStoresOptions {
  /** The workspaces of the workspace store, as it keeps them. */
  readonly workspaces?: readonly BrowserWorkspace[];
  /** The records of semantic memory, each as the daemon writes it (its fields in the daemon's order). */
  readonly records?: readonly BrowserKnowledgeRecord[];
  /** The clock the experience envelope's `provenance.observedAt` reads (default: the system clock). */
  readonly now?: () => Date;
}

/** The operations the daemon's stores answer. */
export type DaemonStoreOperation =
  | "browser.workspaceStatus"
  | "browser.workspaceInspect"
  | "browser.replayInspect"
  | "browser.replayDiff"
  | "browser.replayAttach"
  | "browser.surfaceInspect"
  | "browser.backendStatus"
  | "browser.backendTest"
  | "browser.memoryStatus"
  | "browser.memoryInspect"
  | "browser.memoryExplain"
  | "browser.memoryExport"
  | "browser.memoryReindex"
  | "browser.memoryForget"
  | "browser.memoryPrune";

/** One handler for each operation the daemon's stores answer. */
export type DaemonStoreHandlers = { readonly [Op in DaemonStoreOperation]: MockHandler<Op> };

/** The largest experience envelope the daemon sends, in bytes of compact JSON. */
const MAX_ENVELOPE_BYTES = 512 * 1024;

/** Fails the call as the daemon fails these tools: `browser tool failed` (the reason is dropped on the wire). */
function refuse(reason: string): never {
  throw mockError("tool.failed", reason);
}

/**
 * The handlers of the daemon's stores: the workspace tools, the replay, surface and backend tools,
 * and the memory tools, over stores holding what `options` gives (nothing by default).
 */
export function daemonStoreHandlers(options: DaemonStoresOptions = {}): DaemonStoreHandlers {
  const workspaces = new Map(
    (options.workspaces ?? []).map((workspace) => [workspace.identity.id, structuredClone(workspace)]),
  );
  const memory = new SemanticMemory(options.records ?? []);
  const now = options.now ?? (() => new Date());
  const workspaceList = () => ({ workspaces: [...workspaces.keys()].sort(compareCodePoints) });
  const envelope = <Result>(result: Result): BrowserExperienceEnvelope & { result: Result } => {
    const answer = {
      schemaVersion: 1 as const,
      status: "ok",
      operation: "experience",
      provenance: {
        source: "mcp" as const,
        authoritative: false,
        observedAt: now().toISOString().replace(/Z$/, "+00:00"),
      },
      resourceRefs: [],
      result: sortedKeys(result),
    };
    if (utf8Length(JSON.stringify(answer)) > MAX_ENVELOPE_BYTES) refuse("the experience result exceeds 512 KiB");
    return answer;
  };
  return {
    "browser.workspaceStatus": () => envelope(workspaceList()),
    "browser.workspaceInspect": ({ id }) => {
      if (id === undefined) return envelope(workspaceList());
      const workspace = workspaces.get(normalizedWorkspaceName(id));
      return envelope(workspace ?? refuse(`workspace ${id} was not found`));
    },
    "browser.replayInspect": ({ scenario, replay }) => replaySummary(scenario, replay, false).then(envelope),
    "browser.replayAttach": ({ scenario, replay }) => replaySummary(scenario, replay, true).then(envelope),
    "browser.replayDiff": async ({ scenario, before, after }) => {
      await checkReplay(before, scenario);
      await checkReplay(after, scenario);
      const parts = (bundle: BrowserReplayBundle): Record<string, string> => ({
        fixtureId: JSON.stringify(bundle.fixtureId),
        fixtureHash: JSON.stringify(bundle.fixtureHash),
        events: eventsJson(bundle),
        observation: observationJson(bundle.observation),
      });
      const [left, right] = [parts(before), parts(after)];
      const changedFields = (["fixtureId", "fixtureHash", "events", "observation"] as const).filter(
        (field) => left[field] !== right[field],
      );
      return envelope({ scenarioId: before.scenarioId, equivalent: changedFields.length === 0, changedFields });
    },
    "browser.surfaceInspect": ({ surfaces, coverageOnly }) => {
      checkSurfaceSet(surfaces);
      if (coverageOnly !== true)
        return envelope({ schemaVersion: surfaces.schemaVersion, surfaces: surfaces.surfaces.map(surfaceAsSent) });
      return envelope({
        surfaceCount: surfaces.surfaces.length,
        surfaces: surfaces.surfaces.map((surface) => ({
          surfaceId: surface.surfaceId,
          kind: surface.kind,
          understanding: surface.understanding,
          coverage: surface.coverage,
          capabilities: surface.capabilities,
          evidenceCount: surface.evidence.length,
          provenance: surface.evidence.map((evidence) => provenanceAsSent(evidence.provenance)),
        })),
      });
    },
    "browser.backendStatus": ({ profile }) => {
      checkBackendProfile(profile);
      return envelope({
        identity: identityAsSent(profile),
        declaredCapabilities: Object.keys(profile.capabilities ?? {}).length,
      });
    },
    "browser.backendTest": ({ profile }) => {
      checkBackendProfile(profile);
      const gates = BACKEND_CAPABILITIES.map((capability) => {
        const declared = declaredCapability(profile, capability);
        return {
          capability,
          declared: declared !== undefined,
          level: declared?.level ?? "unavailable",
          portability: declared?.portability ?? "nonPortable",
        };
      });
      return envelope({ valid: true as const, gates });
    },
    "browser.memoryStatus": () => memory.stats(),
    "browser.memoryReindex": () => memory.stats(),
    "browser.memoryExport": () => memory.snapshot(),
    "browser.memoryInspect": ({ recordId }) => memory.record(recordId),
    "browser.memoryExplain": ({ recordId }) => memory.record(recordId),
    "browser.memoryForget": ({ recordId }) => ({
      recordId,
      retained: false as const,
      removed: memory.remove(recordId),
      prunedRecordIds: [],
    }),
    "browser.memoryPrune": () => ({ removedRecordIds: memory.prune() }),
  };
}

// ---- documents -------------------------------------------------------------------------------

/**
 * The members the daemon decodes in the objects of a document, level by level: `true` takes any
 * value, a nested `Members` the members of that object (or of each item of that array), and `*`
 * stands for every key of a map. The daemon refuses a document with any other member.
 */
interface Members {
  readonly [member: string]: Members | true;
}

/** `Members` from the names of the members that take any value and the nested ones. */
function members(names: string, nested: Readonly<Record<string, Members>> = {}): Members {
  return { ...Object.fromEntries(names.split(" ").map((name) => [name, true] as const)), ...nested };
}

/** Refuses a document with a member the daemon does not decode, at any level. */
function onlyKnownMembers(value: unknown, known: Members, where: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => onlyKnownMembers(item, known, `${where}[${index}]`));
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [name, item] of Object.entries(value)) {
    const shape = Object.hasOwn(known, name) ? known[name] : known["*"];
    if (shape === undefined) refuse(`${where}.${name} is not a field the daemon knows`);
    if (shape !== true) onlyKnownMembers(item, shape, `${where}.${name}`);
  }
}

// ---- workspaces ------------------------------------------------------------------------------

/** The longest workspace id, in bytes, before and after normalization. */
const MAX_WORKSPACE_ID_BYTES = 64;

/**
 * A workspace id as the daemon normalizes it: trimmed, ASCII letters lower-cased, each run of
 * ASCII whitespace, `_`, `-` and `.` one `-`, no `-` at either end; anything else refused.
 */
function normalizedWorkspaceName(id: string): string {
  const trimmed = id.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
  if (trimmed === "" || utf8Length(trimmed) > MAX_WORKSPACE_ID_BYTES) refuse("workspace id must be 1 to 64 bytes");
  let normalized = "";
  for (const char of trimmed) {
    if (/^[\t\n\f\r _.-]$/.test(char)) {
      if (normalized !== "" && !normalized.endsWith("-")) normalized += "-";
    } else if (/^[A-Za-z0-9]$/.test(char)) {
      normalized += char.toLowerCase();
    } else {
      refuse("workspace id contains an unsupported character");
    }
  }
  normalized = normalized.replace(/-+$/, "");
  return normalized === "" ? refuse("workspace id must contain an alphanumeric character") : normalized;
}

// ---- semantic memory -------------------------------------------------------------------------

/** Knowledge records in the order the store keeps them, and what the memory tools read of them. */
class SemanticMemory {
  #records: BrowserKnowledgeRecord[];

  constructor(records: readonly BrowserKnowledgeRecord[]) {
    this.#records = structuredClone([...records]);
  }

  /** The store as the daemon writes it (and exports it). */
  snapshot(): BrowserKnowledgeStoreSnapshot {
    return { schemaVersion: 1, records: structuredClone(this.#records) };
  }

  /** Counts by confidence, and the size of the store's compact JSON. */
  stats(): BrowserKnowledgeStoreStats {
    const count = (confidence: BrowserKnowledgeRecord["confidence"]) =>
      this.#records.filter((record) => record.confidence === confidence).length;
    return {
      recordCount: this.#records.length,
      serializedBytes: utf8Length(JSON.stringify(this.snapshot())),
      candidateCount: count("candidate"),
      observedCount: count("observed"),
      verifiedCount: count("verified"),
      staleCount: count("stale"),
      contradictedCount: count("contradicted"),
      quarantinedCount: count("quarantined"),
    };
  }

  /** The record with this exact id; an unknown one fails the call. */
  record(recordId: string): BrowserKnowledgeRecord {
    const found = this.#records.find((record) => record.recordId === recordId);
    return found === undefined ? refuse(`knowledge record not found: ${recordId}`) : structuredClone(found);
  }

  /** Removes the record; whether it was there. */
  remove(recordId: string): boolean {
    const before = this.#records.length;
    this.#records = this.#records.filter((record) => record.recordId !== recordId);
    return this.#records.length !== before;
  }

  /** Removes the stale, contradicted and quarantined records; their ids, in store order. */
  prune(): string[] {
    const prunable = new Set(["stale", "contradicted", "quarantined"]);
    const removed = this.#records.filter((record) => prunable.has(record.confidence)).map((record) => record.recordId);
    this.#records = this.#records.filter((record) => !prunable.has(record.confidence));
    return removed;
  }
}

// ---- replays ---------------------------------------------------------------------------------

/** The platforms a scenario runs on when it names none. */
const ALL_PLATFORMS: readonly BrowserReliabilityPlatform[] = [
  "linux-x86-64",
  "linux-arm64",
  "macos-x86-64",
  "macos-arm64",
];

/** Words a replay event must not contain (lower-cased), as the daemon checks redaction. */
const SENSITIVE_MARKERS = ["password", "secret", "cookie", "authorization", "bearer ", "token="];

/** The members of a reliability scenario the daemon decodes. */
const SCENARIO_MEMBERS = members("schemaVersion id category fixture platforms capabilities forbid", {
  setup: members("browser policy"),
  steps: members("runWorkflow applyControl resumeFromCheckpoint", { inject: members("afterDispatch fault") }),
  expect: members("terminalState sideEffectCount"),
  budgets: members("maxDurationMs maxBrowserActions"),
});

/** The members of a replay bundle the daemon decodes. */
const REPLAY_MEMBERS = members("schemaVersion scenarioId scenarioHash fixtureId fixtureHash", {
  events: members("sequence operation result"),
  observation: members(
    "scenarioId scenarioHash classification terminalState sideEffectCount forbiddenOutcomes oracleEvidence artifactsComplete",
    {
      metadata: members("platform browser browserVersion durationMs browserActions"),
    },
  ),
});

/** An object's compact JSON from its members' JSON texts, in the order given (the daemon's field order); absent members left out. */
function jsonObject(members: ReadonlyArray<readonly [string, string | undefined]>): string {
  return `{${members.flatMap(([name, text]) => (text === undefined ? [] : [`${JSON.stringify(name)}:${text}`])).join(",")}}`;
}

/** Compact JSON of a value whose objects have no member names that look like array indexes. */
const json = (value: unknown): string => JSON.stringify(value);

/** `json` of a value that may be absent. */
const optionalJson = (value: unknown): string | undefined => (value === undefined ? undefined : json(value));

/** The scenario's compact JSON as the daemon writes it: its field order, defaults filled in, counters sorted. */
function scenarioJson(scenario: BrowserReliabilityScenario): string {
  const step = (s: BrowserReliabilityScenarioStep): string =>
    jsonObject([
      ["runWorkflow", optionalJson(s.runWorkflow)],
      ["applyControl", optionalJson(s.applyControl)],
      [
        "inject",
        s.inject === undefined
          ? undefined
          : jsonObject([
              ["afterDispatch", json(s.inject.afterDispatch)],
              ["fault", json(s.inject.fault)],
            ]),
      ],
      ["resumeFromCheckpoint", optionalJson(s.resumeFromCheckpoint)],
    ]);
  return jsonObject([
    ["schemaVersion", json(scenario.schemaVersion)],
    ["id", json(scenario.id)],
    ["category", json(scenario.category)],
    ["fixture", json(scenario.fixture)],
    ["platforms", json(scenario.platforms ?? ALL_PLATFORMS)],
    ["capabilities", json(scenario.capabilities ?? [])],
    [
      "setup",
      jsonObject([
        ["browser", json(scenario.setup.browser)],
        ["policy", json(scenario.setup.policy)],
      ]),
    ],
    ["steps", `[${scenario.steps.map(step).join(",")}]`],
    [
      "expect",
      jsonObject([
        ["terminalState", json(scenario.expect.terminalState)],
        ["sideEffectCount", sortedKeyJson(scenario.expect.sideEffectCount ?? {})],
      ]),
    ],
    ["forbid", json(scenario.forbid)],
    [
      "budgets",
      jsonObject([
        ["maxDurationMs", json(scenario.budgets.maxDurationMs)],
        ["maxBrowserActions", json(scenario.budgets.maxBrowserActions)],
      ]),
    ],
  ]);
}

/** The bundle's events as the daemon writes them. */
function eventsJson(bundle: BrowserReplayBundle): string {
  return `[${bundle.events
    .map((event) =>
      jsonObject([
        ["sequence", json(event.sequence)],
        ["operation", json(event.operation)],
        ["result", json(event.result)],
      ]),
    )
    .join(",")}]`;
}

/** The bundle's observation as the daemon writes it: defaults filled in, counters sorted. */
function observationJson(observation: BrowserReplayObservation): string {
  const { metadata } = observation;
  return jsonObject([
    ["scenarioId", json(observation.scenarioId)],
    ["scenarioHash", json(observation.scenarioHash)],
    [
      "metadata",
      jsonObject([
        ["platform", json(metadata.platform)],
        ["browser", json(metadata.browser)],
        ["browserVersion", json(metadata.browserVersion)],
        ["durationMs", json(metadata.durationMs)],
        ["browserActions", json(metadata.browserActions)],
      ]),
    ],
    ["classification", json(observation.classification)],
    ["terminalState", optionalJson(observation.terminalState)],
    ["sideEffectCount", sortedKeyJson(observation.sideEffectCount ?? {})],
    ["forbiddenOutcomes", json(observation.forbiddenOutcomes ?? [])],
    ["oracleEvidence", json(observation.oracleEvidence)],
    ["artifactsComplete", json(observation.artifactsComplete)],
  ]);
}

/** The bundle's compact JSON as the daemon writes it (what its content hash is taken of). */
function replayJson(bundle: BrowserReplayBundle): string {
  return jsonObject([
    ["schemaVersion", json(bundle.schemaVersion)],
    ["scenarioId", json(bundle.scenarioId)],
    ["scenarioHash", json(bundle.scenarioHash)],
    ["fixtureId", json(bundle.fixtureId)],
    ["fixtureHash", json(bundle.fixtureHash)],
    ["events", eventsJson(bundle)],
    ["observation", observationJson(bundle.observation)],
  ]);
}

/** `sha256:` and the lowercase hex SHA-256 of `text`'s UTF-8 bytes, by Web Crypto. */
async function contentHash(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined)
    throw new Error(
      "the replay tools need Web Crypto (crypto.subtle) to hash a replay bundle, and this environment has none",
    );
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Checks a replay bundle against its scenario as the daemon does: only known members, bound to
 * the scenario's id and exact content, within its budgets, events numbered from 0 and redacted,
 * and an observation of the same scenario. The payload schema has checked each value on its own.
 */
async function checkReplay(bundle: BrowserReplayBundle, scenario: BrowserReliabilityScenario): Promise<void> {
  onlyKnownMembers(scenario, SCENARIO_MEMBERS, "scenario");
  onlyKnownMembers(bundle, REPLAY_MEMBERS, "replay");
  if (bundle.scenarioId !== scenario.id) refuse("replay bundle is bound to a different scenario");
  if (bundle.scenarioHash !== (await contentHash(scenarioJson(scenario))))
    refuse("replay bundle is not bound to the exact scenario content");
  const { metadata } = bundle.observation;
  if (metadata.durationMs > scenario.budgets.maxDurationMs) refuse("the run took longer than the scenario's budget");
  if (metadata.browserActions > scenario.budgets.maxBrowserActions)
    refuse("the run took more browser actions than the scenario's budget");
  bundle.events.forEach((event, index) => {
    if (event.sequence !== index) refuse(`events[${index}].sequence must be contiguous and start at zero`);
    for (const text of [event.operation, event.result]) {
      if (SENSITIVE_MARKERS.some((marker) => text.toLowerCase().includes(marker)))
        refuse(`events[${index}] contains a sensitive-value marker`);
    }
  });
  if (bundle.observation.scenarioId !== bundle.scenarioId || bundle.observation.scenarioHash !== bundle.scenarioHash) {
    refuse("observation identity does not match the replay bundle");
  }
}

/** What replayInspect (`attached: false`) and replayAttach (`attached: true`, no side effects) say about a bundle. */
async function replaySummary(scenario: BrowserReliabilityScenario, bundle: BrowserReplayBundle, attached: boolean) {
  await checkReplay(bundle, scenario);
  const summary = {
    scenarioId: bundle.scenarioId,
    fixtureId: bundle.fixtureId,
    eventCount: bundle.events.length,
    contentHash: await contentHash(replayJson(bundle)),
    attached,
  };
  return attached ? { ...summary, sideEffects: false as const } : summary;
}

// ---- surfaces --------------------------------------------------------------------------------

/** The members of a surface set the daemon decodes (an extension-defined kind's identifier aside). */
const SURFACE_SET_MEMBERS = members("schemaVersion", {
  surfaces: members("schemaVersion surfaceId parentSurfaceId nestingDepth kind capabilities understanding revision", {
    coverage: members("structural semantic interaction"),
    evidence: members("source quality detail", {
      provenance: members(
        "schemaVersion sourceClass sourceId backend backendVersion adapterVersion bridgeVersion bridgeOrigin bridgeTrust grantToken bridgeCapabilities sourceRevision observedAt validatedAt",
      ),
    }),
    diagnostics: members("severity code message"),
  }),
});

/**
 * Checks a surface set's structure as the daemon does: only known members, unique ids, root
 * surfaces at depth 0 and nested ones right under an existing parent (never themselves), `unknown`
 * and `opaque` surfaces only opaquely understood, and evidence bound to its surface's revision and
 * validated no earlier than observed. The daemon's further rules, on which evidence each
 * understanding level, coverage and capability needs, are not reproduced: a set breaking only
 * those is accepted here.
 */
function checkSurfaceSet(set: BrowserSurfaceSet): void {
  onlyKnownMembers(set, SURFACE_SET_MEMBERS, "surfaces");
  const byId = new Map<string, BrowserSurface>();
  for (const surface of set.surfaces) {
    if (byId.has(surface.surfaceId)) refuse(`surface ID ${surface.surfaceId} is not unique`);
    byId.set(surface.surfaceId, surface);
    if (surface.parentSurfaceId === surface.surfaceId) refuse("a surface cannot be its own parent");
    if ((surface.kind === "unknown" || surface.kind === "opaque") && surface.understanding !== "opaque")
      refuse(`${surface.kind} surfaces must remain opaque`);
    for (const { provenance } of surface.evidence) {
      if (provenance.sourceRevision !== surface.revision)
        refuse("evidence provenance revision must match the surface revision");
      if (provenance.validatedAt < provenance.observedAt) refuse("validatedAt must not precede observedAt");
    }
  }
  for (const surface of set.surfaces) {
    if (surface.parentSurfaceId === undefined) {
      if (surface.nestingDepth !== 0) refuse("root surfaces must have nesting depth zero");
      continue;
    }
    const parent = byId.get(surface.parentSurfaceId) ?? refuse("parent surface does not exist in the surface set");
    if (surface.nestingDepth !== parent.nestingDepth + 1)
      refuse("nested surface depth must be exactly one greater than its parent");
  }
}

/** Evidence provenance as the daemon writes it back: without an empty `bridgeCapabilities`. */
function provenanceAsSent(provenance: BrowserSurfaceProvenance): BrowserSurfaceProvenance {
  const { bridgeCapabilities, ...rest } = provenance;
  return bridgeCapabilities === undefined || bridgeCapabilities.length === 0 ? rest : provenance;
}

/** A surface as the daemon writes it back: without empty `diagnostics`, its provenance as sent. */
function surfaceAsSent(surface: BrowserSurface): BrowserSurface {
  const { diagnostics, evidence, ...rest } = surface;
  const sent: BrowserSurface = {
    ...rest,
    evidence: evidence.map((item) => ({ ...item, provenance: provenanceAsSent(item.provenance) })),
  };
  return diagnostics === undefined || diagnostics.length === 0 ? sent : { ...sent, diagnostics };
}

// ---- backends --------------------------------------------------------------------------------

/** The capabilities backendTest gates, in the daemon's order. */
const BACKEND_CAPABILITIES: readonly BrowserBackendCapability[] = [
  "lifecycle",
  "navigation",
  "contexts",
  "evidence",
  "action",
  "effects",
  "script",
  "capture",
  "storage",
  "prompts",
  "downloads",
];

/** Support levels from the most to the least supported: a level satisfies every one after it. */
const SUPPORT_ORDER: readonly BrowserBackendSupportLevel[] = ["available", "partial", "restricted", "unavailable"];

const satisfies = (level: BrowserBackendSupportLevel, minimum: BrowserBackendSupportLevel): boolean =>
  SUPPORT_ORDER.indexOf(level) <= SUPPORT_ORDER.indexOf(minimum);

/** The profile's declaration of a capability, if it makes one. */
function declaredCapability(
  profile: BrowserBackendProfile,
  capability: BrowserBackendCapability,
): BrowserBackendCapabilityDescriptor | undefined {
  const declared = profile.capabilities ?? {};
  return Object.hasOwn(declared, capability) ? declared[capability] : undefined;
}

/** Orders two versions as the daemon does: part by part (split at `.` `-` `+`), numerically where both parts are numbers, then by length. */
function compareVersions(left: string, right: string): number {
  const [a, b] = [left.split(/[.+-]/), right.split(/[.+-]/)];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? "", b[i] ?? ""];
    const order =
      /^\d+$/.test(x) && /^\d+$/.test(y) ? Math.sign(Number(BigInt(x) - BigInt(y))) : compareCodePoints(x, y);
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

/** The members of a backend profile the daemon decodes. */
const PROFILE_MEMBERS = members("schemaVersion", {
  identity: members("backendId version", {
    browser: members("family minimum maximum"),
    certification: members("level glassVersion testedCapabilities limitations"),
  }),
  capabilities: {
    "*": members("level portability limitations", { dependencies: members("capability minimum reason") }),
  },
});

/**
 * Checks a backend profile's rules as the daemon does: only known members, a version range in
 * order, certification consistent with the capabilities (production needs tested ones, each tested
 * one declared and supported, an unsupported backend declares nothing usable), and dependencies
 * declared, at their level and without cycles (none on an unavailable capability).
 */
function checkBackendProfile(profile: BrowserBackendProfile): void {
  onlyKnownMembers(profile, PROFILE_MEMBERS, "profile");
  const { browser, certification } = profile.identity;
  if (
    typeof browser.minimum === "string" &&
    typeof browser.maximum === "string" &&
    compareVersions(browser.minimum, browser.maximum) > 0
  )
    refuse("minimum exceeds maximum");
  const tested = certification.testedCapabilities ?? [];
  if (certification.level === "productionCertified" && tested.length === 0)
    refuse("production certification requires conformance coverage");
  if (certification.level === "unsupported" && tested.some((capability) => capability !== "contexts"))
    refuse("unsupported backends cannot claim tested semantic capabilities");
  for (const capability of tested) {
    const declared = declaredCapability(profile, capability) ?? refuse("every tested capability must be declared");
    if (declared.level === "unavailable") refuse("tested capabilities must be supported");
  }
  const declared = Object.entries(profile.capabilities ?? {}) as [
    BrowserBackendCapability,
    BrowserBackendCapabilityDescriptor,
  ][];
  if (certification.level === "unsupported" && declared.some(([, descriptor]) => descriptor.level !== "unavailable"))
    refuse("unsupported certification cannot advertise available capabilities");
  const visit = (capability: BrowserBackendCapability, visiting: Set<BrowserBackendCapability>): void => {
    if (visiting.has(capability)) refuse("dependency cycle detected");
    visiting.add(capability);
    const descriptor = declaredCapability(profile, capability) ?? refuse("dependency is undeclared");
    if (descriptor.level === "unavailable" && (descriptor.dependencies ?? []).length > 0)
      refuse("unavailable capabilities cannot declare executable dependencies");
    for (const dependency of descriptor.dependencies ?? []) {
      const needed = declaredCapability(profile, dependency.capability) ?? refuse("dependency is undeclared");
      if (!satisfies(needed.level, dependency.minimum)) refuse("dependency is below its required support level");
      visit(dependency.capability, visiting);
    }
    visiting.delete(capability);
  };
  for (const [capability] of declared) visit(capability, new Set());
}

/** The backend's identity as the daemon writes it back: absent version bounds as null, absent lists as empty. */
function identityAsSent(profile: BrowserBackendProfile): BrowserBackendProfile["identity"] {
  const { browser, certification } = profile.identity;
  return {
    backendId: profile.identity.backendId,
    version: profile.identity.version,
    browser: { family: browser.family, minimum: browser.minimum ?? null, maximum: browser.maximum ?? null },
    certification: {
      level: certification.level,
      glassVersion: certification.glassVersion,
      testedCapabilities: certification.testedCapabilities ?? [],
      limitations: certification.limitations ?? [],
    },
  };
}
