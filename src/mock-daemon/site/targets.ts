/**
 * findTarget, resolveIntent and resolveIntentWithKnowledge as glass-browser 0.3.14 resolves an
 * intent (`resolve_intent`): every target of a fresh interactive observation, in page order, is a
 * candidate unless the scope or a constraint excludes it, and its evidence decides its confidence —
 * any candidate on the route is `low`, intent terms in its name make it `medium`, and so on.
 */
import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type {
  BrowserFindTargetPayload,
  BrowserIntentCandidate,
  BrowserIntentEvidence,
  BrowserSuggestedConstraint,
  BrowserTargetPurpose,
} from "../../../generated/types/operations/browser-intents-workflows.js";
import type { BrowserSemanticObservation } from "../../../generated/types/operations/browser-results.js";
import { sortedKeys } from "./daemon-text.js";
import { toolFailed } from "./locators.js";
import { observePage } from "./semantic.js";
import type { SiteContext } from "./site-context.js";

type Resolution = ResultOf<"browser.resolveIntent">["resolution"];
type PolicyDecision = ResultOf<"browser.resolveIntent">["policyDecision"];
type Confidence = BrowserIntentCandidate["confidence"];

const PURPOSES: Readonly<Record<string, BrowserTargetPurpose>> = {
  click: "activate",
  type: "enter",
  clear: "clear",
  check: "check",
  uncheck: "uncheck",
  select: "select",
  submit: "submit",
  open: "open",
  close: "close",
  search: "search",
  filter: "filter",
  sort: "sort",
  paginate: "paginationNext",
  toggle: "toggle",
  expand: "expand",
  collapse: "collapse",
  download: "download",
  upload: "upload",
  inspect: "inspect",
  extract: "extract",
};
const VAGUE = new Set(["do it", "do that", "handle this", "click it", "use it"]);
const STOP_WORDS = new Set(["the", "a", "an", "to", "for", "by"]);
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  settings: ["preferences", "configuration", "options"],
  continue: ["proceed", "next"],
  close: ["dismiss", "exit"],
  open: ["view", "show"],
  search: ["find", "lookup"],
};

/** The intent's terms: its words, without a few stop words, at most eight. */
const termsOf = (value: string): string[] =>
  value
    .split(/\s+/)
    .filter((term) => term !== "" && !STOP_WORDS.has(term))
    .slice(0, 8);

/** The intent as the daemon normalizes it (`canonical`, `purpose`, `terms`), or why it refuses it. */
function normalize(
  payload: BrowserFindTargetPayload,
): { canonical: string; purpose: BrowserTargetPurpose; terms: string[] } | { refused: string } {
  const text = payload.intent
    .split(/\s+/)
    .filter((word) => word !== "")
    .join(" ")
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  if (text === "" || VAGUE.has(text))
    return { refused: "unsupportedIntent: provide a concrete purpose or target constraint" };
  const { action } = payload;
  const compatible = (purpose: BrowserTargetPurpose, actions: readonly string[], canonical: string, terms: string[]) =>
    actions.includes(action)
      ? { canonical, purpose, terms }
      : { refused: "action is incompatible with the normalized intent purpose" };
  if (["next", "next page", "go to the next page"].includes(text))
    return { canonical: "paginate next", purpose: "paginationNext", terms: [] };
  if (["previous", "previous page", "go to the previous page"].includes(text))
    return { canonical: "paginate previous", purpose: "paginationPrevious", terms: [] };
  for (const [prefix, purpose, verb] of [
    ["search for ", "search", "search"],
    ["filter by ", "filter", "filter"],
    ["sort by ", "sort", "sort"],
  ] as const) {
    if (!text.startsWith(prefix)) continue;
    const value = text.slice(prefix.length).trim();
    if (value === "") return { refused: "unsupportedIntent: the phrase needs a bounded value" };
    return compatible(purpose, [purpose, "click"], `${verb} ${value}`, termsOf(value));
  }
  if (text.startsWith("continue ")) return compatible("continue", ["click", "open"], text, termsOf(text));
  if (text.startsWith("open ")) return compatible("open", ["click", "open"], text, termsOf(text));
  if (text === "submit" || text.startsWith("submit "))
    return compatible("submit", ["click", "submit"], text, termsOf(text));
  if (text === "cancel" || text.startsWith("cancel "))
    return compatible("cancel", ["click", "close"], text, termsOf(text));
  if (text === "close" || text.startsWith("close "))
    return compatible("close", ["click", "close"], text, termsOf(text));
  return { canonical: text, purpose: PURPOSES[action] ?? "activate", terms: termsOf(text) };
}

const lower = (value: string): string => value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** A target's evidence, or the reason it is excluded. */
function score(
  payload: BrowserFindTargetPayload,
  terms: readonly string[],
  observation: BrowserSemanticObservation,
  regionKind: string,
  regionId: string,
  role: string,
  name: string,
): { evidence: BrowserIntentEvidence[] } | { excluded: BrowserIntentEvidence } {
  const { scope = {}, constraints = {} } = payload;
  const conflict = (detail: string) => ({ excluded: { category: "negativeConflict" as const, detail } });
  if (constraints.mustBeVisible === true || constraints.mustBeEnabled === true) {
    return {
      excluded: {
        category: "policyExclusion",
        detail: "visibility or enabled state requires actionability validation",
      },
    };
  }
  if (scope.pageKind !== undefined && scope.pageKind !== observation.page.kind)
    return conflict("page kind is outside the requested scope");
  if (
    (scope.regionKind !== undefined && scope.regionKind !== regionKind) ||
    (scope.regionId !== undefined && scope.regionId !== regionId)
  )
    return conflict("region is outside the requested scope");
  const nameLower = lower(name);
  if ((constraints.excludeText ?? []).some((value) => nameLower.includes(lower(value))))
    return conflict("accessible name contains excluded text");
  if (constraints.role !== undefined && constraints.role !== role)
    return conflict("role does not match the declared constraint");
  if (constraints.name !== undefined && constraints.name !== name)
    return conflict("accessible name does not match the declared constraint");
  if (constraints.nameContains !== undefined && !nameLower.includes(lower(constraints.nameContains)))
    return conflict("accessible name does not contain the declared constraint");
  const evidence: BrowserIntentEvidence[] = [
    { category: "routeMatch", detail: "candidate belongs to the observed target and frame route" },
  ];
  if (constraints.role !== undefined)
    evidence.push({ category: "exactRole", detail: "role matches the declared constraint" });
  if (constraints.name !== undefined)
    evidence.push({ category: "exactName", detail: "accessible name matches the declared constraint" });
  const synonym = terms.some((term) => (SYNONYMS[term] ?? []).some((alternative) => nameLower.includes(alternative)));
  if (constraints.nameContains !== undefined || terms.some((term) => nameLower.includes(term)) || synonym) {
    evidence.push({
      category: constraints.nameContains !== undefined ? "exactName" : "semanticName",
      detail: "bounded intent terms match the accessible name",
    });
  }
  if (scope.regionKind !== undefined || scope.regionId !== undefined)
    evidence.push({ category: "regionMatch", detail: "candidate belongs to the requested semantic region" });
  return { evidence };
}

function confidenceOf(evidence: readonly BrowserIntentEvidence[]): Confidence {
  const has = (category: string): boolean => evidence.some((item) => item.category === category);
  if (has("exactName") && has("exactRole")) return "exact";
  if (has("exactName") || (has("semanticName") && has("regionMatch"))) return "high";
  if (has("semanticName") || has("regionMatch")) return "medium";
  return "low";
}

/** One constraint per region kind, then per role, when the candidates differ in them (at most eight). */
function suggestionsFor(candidates: readonly BrowserIntentCandidate[]): BrowserSuggestedConstraint[] {
  if (candidates.length < 2) return [];
  const kinds = [
    ...new Set(candidates.flatMap((candidate) => (candidate.regionKind === undefined ? [] : [candidate.regionKind]))),
  ];
  const roles = [...new Set(candidates.map((candidate) => candidate.role))];
  return [
    ...(kinds.length > 1 ? kinds.map((regionKind) => ({ regionKind })) : []),
    ...(roles.length > 1 ? roles.map((role) => ({ role })) : []),
  ].slice(0, 8);
}

/** The resolution of an intent on the current page, as the daemon's `SemanticIntentResult` has it. */
function resolve(site: SiteContext, payload: BrowserFindTargetPayload): ResultOf<"browser.resolveIntent"> {
  // The daemon refuses such a request before resolving it, without saying why.
  if (payload.scope?.regionId !== undefined && payload.scope.regionKind === undefined)
    throw toolFailed("scope.regionId: regionId requires regionKind or a later concrete region handle");
  const { observation } = observePage(site, "interactive");
  const head = { schemaVersion: 1 as const, intent: payload.intent, action: payload.action };
  const tail = { route: observation.route, revision: observation.revision };
  const normalized = normalize(payload);
  if ("refused" in normalized) {
    const said = payload.intent
      .split(/\s+/)
      .filter((word) => word !== "")
      .join(" ");
    return {
      ...head,
      normalizedIntent: said === "" ? "unsupported" : lower(said),
      resolution: "unsupportedIntent",
      policyDecision: "rejected",
      ...tail,
      excludedCount: 0,
      reason: normalized.refused,
    };
  }
  if (payload.expectedRevision !== undefined && payload.expectedRevision !== observation.revision) {
    return {
      ...head,
      normalizedIntent: normalized.canonical,
      resolution: "staleRevision",
      policyDecision: "rejected",
      ...tail,
      excludedCount: 0,
      reason: "expected revision is no longer current",
    };
  }
  const maxCandidates = payload.constraints?.maxCandidates ?? 32;
  const candidates: BrowserIntentCandidate[] = [];
  const excluded: { id: string; reason: BrowserIntentEvidence }[] = [];
  let index = 0;
  for (const region of observation.regions) {
    for (const target of region.targets ?? []) {
      index += 1;
      const id = `candidate_${index}`;
      const name = target.name ?? "";
      const scored = score(payload, normalized.terms, observation, region.kind, region.id, target.role, name);
      if ("excluded" in scored) {
        if (excluded.length < maxCandidates) excluded.push({ id, reason: scored.excluded });
        continue;
      }
      if (candidates.length >= maxCandidates) continue;
      const fingerprint = {
        revision: observation.revision,
        route: observation.route,
        role: target.role,
        name,
        regionId: region.id,
        regionKind: region.kind,
        purpose: normalized.purpose,
        invalidatedBy: ["revisionChanged", "routeChanged", "roleChanged", "nameChanged", "regionChanged"] as const,
      };
      candidates.push({
        id,
        reference: target.reference,
        role: target.role,
        name,
        regionId: region.id,
        regionKind: region.kind,
        confidence: confidenceOf(scored.evidence),
        evidence: scored.evidence,
        fingerprint: { ...fingerprint, invalidatedBy: [...fingerprint.invalidatedBy] },
      });
    }
  }
  const [first] = candidates;
  const classified: Resolution =
    first === undefined
      ? "notFound"
      : candidates.length > 1
        ? "ambiguous"
        : first.confidence === "exact"
          ? "exact"
          : first.confidence === "high"
            ? "uniqueHighConfidence"
            : "uniqueLowConfidence";
  const { resolution, policyDecision, selected, reason } = applyPolicy(
    payload.resolutionPolicy,
    classified,
    first?.confidence,
  );
  const suggestions = suggestionsFor(candidates);
  return {
    ...head,
    normalizedIntent: normalized.canonical,
    resolution,
    policyDecision,
    ...tail,
    ...(candidates.length === 0 ? {} : { candidates }),
    ...(excluded.length === 0 ? {} : { excludedCandidates: excluded }),
    excludedCount: excluded.length,
    ...(selected && first !== undefined ? { selectedCandidate: first.id } : {}),
    ...(suggestions.length === 0 ? {} : { suggestedConstraints: suggestions }),
    ...(reason === undefined ? {} : { reason }),
  };
}

/** What the resolution policy makes of a classification (`reportOnly` never selects). */
function applyPolicy(
  policy: string,
  resolution: Resolution,
  best: Confidence | undefined,
): { resolution: Resolution; policyDecision: PolicyDecision; selected: boolean; reason?: string } {
  if (policy === "reportOnly")
    return {
      resolution,
      policyDecision: "reportOnly",
      selected: false,
      reason: "reportOnly never dispatches an action",
    };
  if (policy === "interactiveConfirmation")
    return {
      resolution,
      policyDecision: "confirmationRequired",
      selected: false,
      reason: "caller confirmation is required before dispatch",
    };
  const allowed =
    policy === "requireExact"
      ? resolution === "exact"
      : policy === "requireUniqueHighConfidence"
        ? resolution === "exact" || resolution === "uniqueHighConfidence"
        : policy === "allowUniqueMediumConfidence" &&
          ["exact", "uniqueHighConfidence", "uniqueLowConfidence"].includes(resolution) &&
          best !== "low" &&
          best !== "insufficient";
  if (allowed) return { resolution, policyDecision: "allowed", selected: true };
  if (resolution === "uniqueLowConfidence")
    return {
      resolution: "policyRejected",
      policyDecision: "rejected",
      selected: false,
      reason: "candidate did not meet the declared confidence policy",
    };
  return {
    resolution,
    policyDecision: "rejected",
    selected: false,
    reason: "resolution did not produce one policy-eligible candidate",
  };
}

const AMBIGUITY: Readonly<Record<Resolution, string>> = {
  exact: "none",
  uniqueHighConfidence: "none",
  uniqueLowConfidence: "none",
  ambiguous: "ambiguous",
  notFound: "not_found",
  staleRevision: "stale_revision",
  policyRejected: "policy_rejected",
  unsupportedIntent: "unsupported_intent",
};

/** findTarget: the candidates of the resolution, with its ambiguity and suggested constraints (keys in the daemon's sorted order). */
export function findTarget(site: SiteContext, payload: BrowserFindTargetPayload): ResultOf<"browser.findTarget"> {
  const result = resolve(site, payload);
  return sortedKeys({
    normalizedIntent: result.normalizedIntent,
    revision: result.revision ?? null,
    candidates: result.candidates ?? [],
    ambiguity: AMBIGUITY[result.resolution],
    suggestedConstraints: result.suggestedConstraints ?? [],
    detailAvailability: site.detailAvailability(),
  });
}

/** resolveIntent: the resolution itself. */
export function resolveIntent(site: SiteContext, payload: BrowserFindTargetPayload): ResultOf<"browser.resolveIntent"> {
  return resolve(site, payload);
}

/**
 * resolveIntentWithKnowledge: the resolution resolveIntent gives. Stored knowledge could only add
 * `historicalMatch` evidence to a candidate it fits, and the site has none, so the lookup options
 * (profile scope and key, locale, tenant, browser) change nothing.
 */
export function resolveIntentWithKnowledge(
  site: SiteContext,
  payload: PayloadOf<"browser.resolveIntentWithKnowledge">,
): ResultOf<"browser.resolveIntentWithKnowledge"> {
  return resolve(site, payload);
}
