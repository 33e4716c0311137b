/**
 * Realistic results of the read operations, written from what the daemon emits (keys as it
 * serializes them, snake_case ones included), each typed as the generated result type of its
 * operation: a sample that type-checks and validates shows the types and the validators agree.
 * The pages are those of a library site (the loans page of the golden fixture).
 */
import type { BrowserSemanticObservation } from "../../generated/types/operations/browser-results.js";
import type { OperationName, ResultOf } from "glass-sdk";

/** A JSON path: property names and array indexes. */
export type SamplePath = readonly (string | number)[];

/** One sample result of an operation, and how to break it. */
export interface ResultSample<Op extends OperationName = OperationName> {
  operation: Op;
  /** What the sample shows (`semantic observation, interactive level`). */
  label: string;
  result: ResultOf<Op>;
  /** A nested object of the result (where an unknown extra field must still be accepted). */
  nested: SamplePath;
  /** A change that makes the result invalid: the value at `path` replaced by `value`, or removed when `value` is absent. */
  broken: { path: SamplePath; value?: unknown; issuePath: string };
  /** A payload that gets this form of the result, for operations whose result depends on the payload. */
  payload?: Record<string, unknown>;
}

function sample<Op extends OperationName>(
  operation: Op,
  label: string,
  result: ResultOf<Op>,
  nested: SamplePath,
  broken: ResultSample["broken"],
  payload?: Record<string, unknown>,
): ResultSample<Op> {
  return { operation, label, result, nested, broken, ...(payload === undefined ? {} : { payload }) };
}

const LOANS_URL = "https://library.example/account/loans";
const route = { targetId: "tab-1", frameId: "frame-main", url: LOANS_URL };
const detailAvailability = { resultId: "mcp_1764754000123_7", detailsAvailable: true, detailsTruncated: false };
const pageInfo = {
  url: LOANS_URL,
  title: "My loans · City Library",
  ready_state: "complete",
  target_id: "tab-1",
  frame_id: "frame-main",
};
const consistency = {
  consistent: true,
  attempts: 1,
  start_revision: 12,
  end_revision: 12,
  start_mutation_revision: 40,
  end_mutation_revision: 40,
};
const boundaries = {
  scanned_elements: 412,
  scan_limit: 5000,
  shadow_roots: 0,
  child_frames: 1,
  canvases: 0,
  canvas_2d: 0,
  webgl_canvases: 0,
  webgpu_canvases: 0,
  svg_elements: 6,
  media_elements: 0,
  embedded_documents: 0,
  pdf_documents: 0,
  native_surfaces: 0,
  truncated: false,
  text_truncated: false,
  viewport: { scroll_x: 0, scroll_y: 0, width: 1280, height: 720, document_width: 1280, document_height: 1460 },
};

/** A DOM node as getDOM reports it (snake_case keys), with no attributes unless given. */
export function domNode(
  name: string,
  value: string,
  children: ResultOf<"browser.getDOM">[] = [],
  attributes: string[] = [],
): ResultOf<"browser.getDOM"> {
  return {
    node_id: name.length + children.length,
    node_name: name,
    node_value: value,
    children,
    attributes,
    bounding_box: null,
  };
}

/**
 * A semantic observation of the loans page at `level` and `revision`: the observation `observe`
 * answers when it is given a `level` (targets from `interactive` up, records and text from
 * `structured` up).
 */
export function semanticObservation(
  revision = 12,
  level: "summary" | "interactive" | "structured" = "interactive",
): BrowserSemanticObservation {
  const interactive = level !== "summary";
  const structured = level === "structured";
  const expansion = (regionId: string) => ({ regionId, revision, route });
  return {
    schemaVersion: 1,
    revision,
    level,
    route,
    page: {
      kind: "listing",
      title: "My loans · City Library",
      url: LOANS_URL,
      targetId: "tab-1",
      frameId: "frame-main",
      confidence: "high",
      evidence: ["a table lists the borrowed items"],
    },
    regions: [
      {
        id: "region_navigation",
        label: "Library navigation",
        kind: "navigation",
        interactiveCount: 5,
        confidence: "high",
      },
      {
        id: "region_renew",
        label: "Renew loans",
        kind: "form",
        interactiveCount: 2,
        confidence: "high",
        ...(interactive
          ? {
              targets: [
                { reference: `r${revision}:b41`, role: "textbox", name: "Library card number", inputType: "text" },
                { reference: `r${revision}:b42`, role: "button", name: "Renew selected" },
              ],
            }
          : {}),
        expansion: expansion("region_renew"),
      },
      {
        id: "region_loans",
        label: "Borrowed items",
        kind: "table",
        interactiveCount: 0,
        itemCount: 2,
        confidence: "high",
        ...(structured
          ? {
              structuredRecords: [
                { fields: { Title: "The Left Hand of Darkness", "Due back": "2026-12-17" } },
                { fields: { Title: "A Wizard of Earthsea", "Due back": "2026-12-20" } },
              ],
            }
          : {}),
        expansion: expansion("region_loans"),
      },
    ],
    ...(structured
      ? {
          text: "My loans\nRenew loans\nBorrowed items\nThe Left Hand of Darkness 2026-12-17\nA Wizard of Earthsea 2026-12-20",
        }
      : {}),
    limits: {
      truncated: false,
      omittedRegions: 0,
      omittedTargets: 0,
      omittedStructuredRecords: 0,
      ...(structured ? { structuredBytes: 118, textBytes: 96 } : {}),
    },
  };
}

const pageContext: ResultOf<"browser.observe"> = {
  page: pageInfo,
  text: "My loans\nRenew loans\nLibrary card number\nRenew selected\nBorrowed items",
  dom: domNode("#document", "", [domNode("HTML", "", [domNode("BODY", "", [], ["class", "account"])], ["lang", "en"])]),
  accessibility: {
    page: pageInfo,
    revision: 12,
    roots: [
      {
        role: "main",
        name: "My loans",
        children: [
          { role: "textbox", name: "Library card number", interactive: true },
          { role: "button", name: "Renew selected", interactive: true },
        ],
      },
    ],
    interactive: [
      {
        reference: "r12:b41",
        role: "textbox",
        backend_dom_node_id: 41,
        name: "Library card number",
        input_type: "text",
        autocomplete: "off",
        empty: true,
        required: true,
      },
      { reference: "r12:b42", role: "button", backend_dom_node_id: 42, name: "Renew selected" },
    ],
    ranking_applied: true,
    completeness: {
      score: 0.92,
      confidence: "high",
      suggest_escalation: "none",
      signals: {
        interactive_discovered: 2,
        interactive_returned: 2,
        shadow_hosts: 0,
        shadow_hosts_pierced: 0,
        canvases: 0,
        child_frames: 1,
        mutation_race: false,
      },
    },
  },
  consistency,
  boundaries,
  incomplete: ["frame_boundary"],
  image: { data: "iVBORw0KGgo=", mimeType: "image/png" },
};

/** A stored snapshot: its observation is taken at the structured level and loses its text. */
const { text: _droppedText, ...snapshotObservation } = semanticObservation(12, "structured");
const sessionSnapshot = {
  schemaVersion: 1 as const,
  snapshotId: "snap-12-3f9a0c1d2e4b",
  createdAt: 1_764_754_000,
  profile: "default",
  observation: snapshotObservation,
};

const candidate = {
  id: "candidate_1",
  reference: "r12:b42",
  role: "button",
  name: "Renew selected",
  regionId: "region_renew",
  regionKind: "form" as const,
  confidence: "high" as const,
  evidence: [
    { category: "exactRole" as const, detail: "a button, as the click action needs" },
    { category: "semanticName" as const, detail: "its name says renew" },
  ],
  fingerprint: {
    revision: 12,
    route,
    role: "button",
    name: "Renew selected",
    regionId: "region_renew",
    regionKind: "form" as const,
    purpose: "submit" as const,
    invalidatedBy: ["revisionChanged" as const, "nameChanged" as const],
  },
};

const knowledgeRecord: ResultOf<"browser.knowledgeShow"> = {
  schemaVersion: 1,
  recordId: "kr-loans-page-family",
  kind: "pageFamily",
  scope: {
    origin: "https://library.example",
    pathPattern: "/account/loans",
    profileScope: "authenticated",
    browserFamily: "chromium",
    glassSchemaVersion: 1,
    policyPreset: "default",
    locale: "en-GB",
  },
  source: {
    firstSeenAt: "2026-11-02T09:14:00Z",
    lastVerifiedAt: "2026-12-01T16:40:00Z",
    glassVersion: "0.3.1",
    verificationCount: 4,
    surface: { kind: "document", understanding: "strong", coverage: "semantic" },
    backend: { backend: "cdp", profile: "default", capabilities: ["navigation", "semanticExtraction"] },
  },
  confidence: "verified",
  invalidation: { maxAgeSeconds: 2_592_000, requiredLandmarks: ["Borrowed items"] },
  data: { pageKind: "listing", regions: ["Renew loans", "Borrowed items"] },
  portability: "semanticPortable",
  retrieval: {
    signals: [{ kind: "originMatch", detail: "same origin", scoreMillis: 1000 }],
    currentValidation: {
      status: "validated",
      evidenceQuality: "strong",
      currentRevision: 12,
      validatedAt: "2026-12-03T08:00:00Z",
    },
  },
  history: [{ from: "observed", to: "verified", reason: "landmarks seen again", observedAt: "2026-12-01T16:40:00Z" }],
};

const extraction = {
  sourceRevision: 12,
  sourceRoute: route,
  records: [
    { title: "The Left Hand of Darkness", due: "2026-12-17" },
    { title: "A Wizard of Earthsea", due: "2026-12-20" },
  ],
  recordItems: [
    { field: "title", index: 0, value: "The Left Hand of Darkness", entityIds: ["row-1"] },
    { field: "due", index: 0, value: "2026-12-17", entityIds: ["row-1"] },
  ],
  truncated: true,
  provenance: ["$.title", "$.due"],
  fieldProvenance: [{ field: "title", path: "$.title", regionId: "region_loans", entityIds: ["row-1", "row-2"] }],
  continuation: {
    nextIndex: 2,
    sourceRevision: 12,
    regionId: "region_loans",
    contractHash: `sha256:${"5e".repeat(32)}`,
    sourceRoute: route,
  },
  limits: { maxItems: 2, maxBytes: 4096, observedItems: 3, serializedBytes: 230, truncated: true },
};

/** Samples of every operation whose result the catalog now describes (several for the ones with several forms). */
export const RESULT_SAMPLES: readonly ResultSample[] = [
  sample(
    "browser.screenshot",
    "viewport capture with its image",
    {
      format: "png",
      width: 1280,
      height: 720,
      encoded_bytes: 48_213,
      device_scale_factor: 1,
      scale: 1,
      full_page: false,
      clip: { x: 0, y: 0, width: 1280, height: 720 },
      target_id: "tab-1",
      frame_id: "frame-main",
      image: { data: "iVBORw0KGgo=", mimeType: "image/png" },
    },
    ["image"],
    { path: ["image", "mimeType"], issuePath: "image.mimeType" },
  ),
  sample(
    "browser.observe",
    "semantic observation, summary level",
    semanticObservation(12, "summary"),
    ["page"],
    { path: ["regions", 1, "kind"], value: "sidebar-left", issuePath: "regions[1].kind" },
    { level: "summary" },
  ),
  sample(
    "browser.observe",
    "semantic observation, interactive level",
    semanticObservation(12, "interactive"),
    ["regions", 1, "targets", 0],
    { path: ["regions", 1, "targets", 0, "reference"], issuePath: "regions[1].targets[0].reference" },
    { level: "interactive" },
  ),
  sample(
    "browser.observe",
    "semantic observation, structured level",
    semanticObservation(12, "structured"),
    ["regions", 2, "structuredRecords", 0],
    { path: ["limits", "omittedStructuredRecords"], value: "0", issuePath: "limits.omittedStructuredRecords" },
    { level: "structured", region: "region_loans" },
  ),
  sample(
    "browser.observe",
    "page context with a screenshot (no level)",
    pageContext,
    ["accessibility", "interactive", 0],
    {
      path: ["accessibility", "interactive", 1, "backend_dom_node_id"],
      value: "42",
      issuePath: "accessibility.interactive[1].backend_dom_node_id",
    },
    { includeDom: true, includeScreenshot: true },
  ),
  sample(
    "browser.observeBootstrap",
    "baseline observation",
    {
      page: pageInfo,
      text: "My loans\nRenew loans\nBorrowed items",
      classification: {
        state: "normal",
        confidence: "high",
        evidence: [{ signal: "readyState", detail: "complete" }],
        next_step: "inspect",
      },
      revision: 12,
      context_id: 3,
      page_context_id: "ctx-12-tab-1",
      ready: true,
      complete: true,
      consistency,
      boundaries,
      detailAvailability,
    },
    ["classification"],
    { path: ["classification", "next_step"], value: "observe", issuePath: "classification.next_step" },
  ),
  sample(
    "browser.observeDelta",
    "one element added",
    {
      fromRevision: 12,
      toRevision: 13,
      mutation_summary: { urlChanged: false, titleChanged: false, revisionDelta: 1, softNavigationSuspected: false },
      added: [{ reference: "r13:b57", role: "alert", name: "Renewed until 2027-01-07" }],
      removed: [],
      changed: [],
      prior_incomplete: [],
      current_incomplete: [],
    },
    ["mutation_summary"],
    { path: ["prior_incomplete"], issuePath: "prior_incomplete" },
  ),
  sample(
    "browser.observeKnowledge",
    "observation with assessed knowledge",
    {
      observation: semanticObservation(12, "summary"),
      mode: "assessed",
      assessments: [
        {
          recordId: "kr-loans-page-family",
          status: "eligible",
          signals: [{ kind: "originMatch", detail: "same origin" }],
          ageSeconds: 86_400,
        },
      ],
      eligibleRecordIds: ["kr-loans-page-family"],
    },
    ["assessments", 0],
    { path: ["assessments", 0, "status"], value: "fresh", issuePath: "assessments[0].status" },
  ),
  sample(
    "browser.getDOM",
    "document tree",
    domNode("#document", "", [domNode("HTML", "", [], ["lang", "en"])]),
    ["children", 0],
    { path: ["children", 0, "attributes"], value: "lang=en", issuePath: "children[0].attributes" },
  ),
  sample("browser.getText", "page text", { text: "My loans\nRenew loans\nBorrowed items\n[truncated]" }, [], {
    path: ["text"],
    issuePath: "text",
  }),
  sample(
    "browser.inspectPage",
    "page overview",
    {
      page: semanticObservation().page,
      revision: 12,
      regions: semanticObservation(12, "structured").regions,
      limits: { truncated: false, omittedRegions: 0, omittedTargets: 0, omittedStructuredRecords: 0 },
      focusedTarget: null,
      alerts: [],
      detailAvailability,
    },
    ["limits"],
    { path: ["focusedTarget"], issuePath: "focusedTarget" },
  ),
  sample(
    "browser.extractStructured",
    "two records, truncated",
    { ...extraction, detailAvailability },
    ["continuation"],
    { path: ["continuation", "contractHash"], value: "sha256:abc", issuePath: "continuation.contractHash" },
  ),
  sample(
    "browser.verify",
    "title predicate satisfied",
    {
      status: "satisfied",
      predicate: { titleContains: "My loans" },
      elapsedMs: 37,
      state: 'title is "My loans · City Library"',
    },
    ["predicate"],
    { path: ["elapsedMs"], value: 37.5, issuePath: "elapsedMs" },
  ),
  sample(
    "browser.preflight",
    "actionable button",
    {
      action: "click",
      unique: true,
      element: {
        node_id: 118,
        backend_dom_node_id: 42,
        label: 'button "Renew selected"',
        reference: "r12:b42",
        role: "button",
        input_type: null,
      },
      actionable: true,
      revision: 12,
      geometry: { x: 412, y: 388, width: 140, height: 36 },
      hints: { likely_navigation: false, likely_popup: false, likely_form_submit: true },
      diagnostics: {
        matchedCount: 1,
        tag: "button",
        role: "button",
        name: "Renew selected",
        outsideViewport: false,
        hidden: false,
        recommendation: "reobserve",
      },
      target_id: "tab-1",
      frame_id: "frame-main",
    },
    ["hints"],
    { path: ["hints", "likely_popup"], issuePath: "hints.likely_popup" },
  ),
  sample(
    "browser.preflight",
    "ambiguous target, reported as data",
    {
      action: "click",
      unique: false,
      actionable: false,
      candidates: [{ label: 'button "Renew"', reference: "r12:b42" }, { label: 'link "Renew all"' }],
      error_kind: "ambiguous",
      revision: 12,
      hints: { likely_navigation: false, likely_popup: false, likely_form_submit: false },
      target_id: null,
      frame_id: null,
    },
    ["candidates", 1],
    { path: ["error_kind"], value: "ambiguity", issuePath: "error_kind" },
  ),
  sample(
    "browser.diagnostics",
    "one second of console and network",
    {
      target_id: "tab-1",
      frame_id: "frame-main",
      duration_ms: 1000,
      console: [{ level: "warning", text: 'Cookie "session" will soon be rejected' }],
      network: [
        {
          request_id: "1000.41",
          method: "GET",
          url: "https://library.example/api/loans?card=[redacted]",
          status: 200,
          safe_header_names: ["content-type"],
          redirect_count: 0,
        },
        {
          request_id: "1000.42",
          method: "GET",
          url: "https://ads.example/slot.js",
          failure: "net::ERR_BLOCKED_BY_CLIENT",
          redirect_count: 0,
        },
      ],
      dropped_events: 0,
      startupDiagnostics: {
        launch_endpoint_ms: 412,
        page_target_wait_ms: 35,
        cdp_connect_ms: 12,
        target_attach_ms: 8,
        event_setup_ms: 4,
        policy_arm_ms: 2,
        total_startup_ms: 473,
      },
      lifecycle: { browserReady: true, navigationStarted: true, evidenceReady: true, actionVerified: false },
    },
    ["network", 0],
    { path: ["network", 1, "redirect_count"], issuePath: "network[1].redirect_count" },
  ),
  sample(
    "browser.resolveIntent",
    "unique high-confidence candidate",
    {
      schemaVersion: 1,
      intent: "renew my loans",
      action: "click",
      normalizedIntent: "renew loans",
      resolution: "uniqueHighConfidence",
      policyDecision: "allowed",
      route,
      revision: 12,
      candidates: [candidate],
      excludedCandidates: [
        {
          id: "candidate_2",
          reason: { category: "negativeConflict", detail: "renews every loan, not the selected ones" },
        },
      ],
      excludedCount: 1,
      selectedCandidate: "candidate_1",
    },
    ["candidates", 0, "fingerprint"],
    {
      path: ["candidates", 0, "fingerprint", "purpose"],
      value: "renew",
      issuePath: "candidates[0].fingerprint.purpose",
    },
  ),
  sample(
    "browser.findTarget",
    "ambiguous intent",
    {
      normalizedIntent: "renew",
      revision: 12,
      candidates: [
        candidate,
        { ...candidate, id: "candidate_2", reference: "r12:b44", name: "Renew all", confidence: "medium" },
      ],
      ambiguity: "ambiguous",
      suggestedConstraints: [{ regionKind: "form", nameContains: "selected" }],
      detailAvailability,
    },
    ["suggestedConstraints", 0],
    { path: ["revision"], issuePath: "revision" },
  ),
  sample(
    "browser.recoverRun",
    "unknown run",
    {
      executionId: "exec-renew-0412",
      known: false,
      phase: "reconciliation",
      dispatchHappened: false,
      mutationPossible: true,
      reconciliation: "the daemon keeps no run history; observe the page and reconcile before retrying",
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
    },
    ["retry"],
    { path: ["retry", "classification"], value: "safeToRetry", issuePath: "retry.classification" },
  ),
  sample(
    "browser.sessionSnapshot",
    "list (the default operation)",
    { result: [sessionSnapshot], detailAvailability },
    ["result", 0, "observation"],
    { path: ["result", 0, "createdAt"], value: "2026-12-03", issuePath: "result[0].createdAt" },
    {},
  ),
  sample(
    "browser.sessionSnapshot",
    "create or inspect: one snapshot",
    { ...sessionSnapshot, detailAvailability },
    ["observation", "page"],
    { path: ["detailAvailability"], issuePath: "detailAvailability" },
    { operation: "inspect", from: "snap-12-3f9a0c1d2e4b" },
  ),
  sample(
    "browser.sessionSnapshot",
    "diff of two snapshots",
    {
      fromSnapshot: "snap-12-3f9a0c1d2e4b",
      toSnapshot: "snap-14-77b2e9a0c4d1",
      sameRoute: true,
      revisionDelta: 2,
      changedRegions: 1,
      changedTargets: 3,
      detailAvailability,
    },
    ["detailAvailability"],
    { path: ["sameRoute"], value: "yes", issuePath: "sameRoute" },
    { operation: "diff", from: "snap-12-3f9a0c1d2e4b", to: "snap-14-77b2e9a0c4d1" },
  ),
  sample(
    "browser.sessionSnapshot",
    "purge",
    { removed: 4, detailAvailability },
    ["detailAvailability"],
    { path: ["detailAvailability", "resultId"], issuePath: "detailAvailability.resultId" },
    { operation: "purge" },
  ),
  sample(
    "browser.knowledgeList",
    "one record",
    { schemaVersion: 1, records: [knowledgeRecord] },
    ["records", 0, "scope"],
    { path: ["records", 0, "scope", "profileScope"], value: "signedIn", issuePath: "records[0].scope.profileScope" },
  ),
  sample("browser.knowledgeShow", "a verified page family", knowledgeRecord, ["source", "surface"], {
    path: ["invalidation"],
    issuePath: "invalidation",
  }),
  sample(
    "browser.knowledgeStats",
    "store statistics",
    {
      recordCount: 5,
      serializedBytes: 6120,
      candidateCount: 1,
      observedCount: 1,
      verifiedCount: 3,
      staleCount: 0,
      contradictedCount: 0,
      quarantinedCount: 0,
    },
    [],
    { path: ["staleCount"], value: -1, issuePath: "staleCount" },
  ),
  sample(
    "browser.listTargets",
    "two tabs",
    {
      result: [
        { id: "tab-1", url: LOANS_URL, title: "My loans · City Library", active: true },
        {
          id: "tab-2",
          url: "https://library.example/search?q=[redacted]",
          title: "Search · City Library",
          opener_id: "tab-1",
          active: false,
        },
      ],
    },
    ["result", 1],
    { path: ["result", 1, "active"], issuePath: "result[1].active" },
  ),
  sample(
    "browser.listFrames",
    "main frame and a child",
    {
      result: [
        { id: "frame-main", url: LOANS_URL, active: true, out_of_process: false },
        {
          id: "frame-ad",
          parent_id: "frame-main",
          url: "https://ads.example/slot",
          active: false,
          out_of_process: true,
        },
      ],
    },
    ["result", 0],
    { path: ["result", 1, "out_of_process"], value: "yes", issuePath: "result[1].out_of_process" },
  ),
  sample(
    "browser.cookies",
    "a session cookie",
    {
      result: [
        {
          name: "session",
          value: "c2Vzc2lvbg",
          domain: "library.example",
          path: "/",
          expires: 0,
          httpOnly: true,
          secure: true,
          sameSite: "Lax",
          session: true,
          size: 17,
          priority: "Medium",
        },
        {
          name: "lang",
          value: "en",
          domain: ".library.example",
          path: "/",
          expires: 1_796_290_000.5,
          httpOnly: false,
          secure: false,
          sameSite: null,
          session: false,
          size: null,
          priority: null,
        },
      ],
    },
    ["result", 0],
    { path: ["result", 1, "sameSite"], issuePath: "result[1].sameSite" },
  ),
  sample(
    "browser.localStorage",
    "two entries",
    {
      items: [
        { key: "theme", value: "dark" },
        { key: "lastSearch", value: "earthsea" },
      ],
      truncated: false,
      count: 2,
    },
    ["items", 0],
    { path: ["count"], value: "2", issuePath: "count" },
  ),
  sample(
    "browser.sessionStorage",
    "one entry, cut",
    { items: [{ key: "draft", value: `${"x".repeat(1024)}…` }], truncated: true, count: 70 },
    ["items", 0],
    { path: ["items", 0, "value"], issuePath: "items[0].value" },
  ),
  sample(
    "task.execute",
    "form fill with its receipt",
    {
      task: "form.fill",
      status: "succeeded",
      phase: "mutation-verification",
      mutationPossible: true,
      sourceRevision: 12,
      currentRevision: 13,
      steps: [
        { ordinal: 0, operation: "observeScope", status: "succeeded" },
        { ordinal: 1, operation: "fillInputs", status: "succeeded", detail: "1 of 1 fields filled" },
      ],
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      receipt: {
        sourceRevision: 12,
        selectedEntityIds: ["form-renew", "field-card"],
        bindingCandidateEntityIds: ["field-card"],
        requiredRuntimeCapabilities: ["observe", "mutate"],
        evidenceRequirements: [{ entityId: "field-card", minimumQuality: "strong", requiredSources: ["dom", "forms"] }],
        confirmationRequired: false,
        postconditions: [{ kind: "validationClear", held: true }],
      },
      form: {
        status: "succeeded",
        executionId: "exec-fill-0413",
        filled: 1,
        total: 1,
        fields: [{ target: "r12:b41", action: "type", label: "Library card number", success: true }],
        previousRevision: 12,
        currentRevision: 13,
        verification: {
          revisionDelta: 1,
          urlChanged: false,
          titleChanged: false,
          targetChanged: false,
          frameChanged: false,
        },
      },
      detailAvailability,
    },
    ["form", "verification"],
    { path: ["steps", 1, "operation"], value: "typeInputs", issuePath: "steps[1].operation" },
  ),
  sample(
    "task.execute",
    "collection extraction (an older daemon: no receipt)",
    {
      task: "collection.extract",
      status: "succeeded",
      phase: "extraction",
      mutationPossible: false,
      sourceRevision: 12,
      currentRevision: 12,
      steps: [{ ordinal: 0, operation: "extractCollection", status: "succeeded" }],
      retry: { classification: "safeImmediate", recommendedOperation: "inspect_page" },
      extraction,
      detailAvailability,
    },
    ["extraction", "limits"],
    { path: ["extraction", "sourceRevision"], issuePath: "extraction.sourceRevision" },
  ),
];

/** The 25 operations the samples cover. */
export const SAMPLED_OPERATIONS: readonly OperationName[] = [...new Set(RESULT_SAMPLES.map((s) => s.operation))];
