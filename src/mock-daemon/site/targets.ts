import type { ResultOf } from "../../../generated/operation-map.js";
import type {
  BrowserFindTargetPayload,
  BrowserIntentCandidate,
  BrowserResolvedIntentAction,
  BrowserTargetPurpose,
} from "../../../generated/types/operations/browser-intents-workflows.js";
import { isJsonObject } from "../../validation/json-value.js";
import { elementsOf, type SiteElement, type SiteRegion } from "./pages.js";
import type { SiteContext } from "./site-context.js";

const RESOLVED_ACTIONS: ReadonlySet<string> = new Set<BrowserResolvedIntentAction>([
  "click", "type", "clear", "check", "uncheck", "select", "submit", "open", "close", "search", "filter", "sort",
  "paginate", "toggle", "expand", "collapse", "download", "upload", "inspect", "extract",
]);
/** Words an intent may wrap a name in (`the Email field`, `click Sign in button`). */
const FILLER = new Set(["the", "a", "an", "field", "button", "link", "input", "box", "click", "type", "into", "in", "on", "open", "press", "enter", "fill"]);
type Confidence = BrowserIntentCandidate["confidence"];

/** The intent as the site understands it: lower case, filler words dropped. */
function normalize(intent: string): string {
  return intent.toLowerCase().split(/[^\p{L}\p{N}@.]+/u).filter((word) => word !== "" && !FILLER.has(word)).join(" ");
}

/** How well an element's name matches a normalized intent, or undefined when it does not. */
function match(element: SiteElement, wanted: string): Confidence | undefined {
  const name = element.name.toLowerCase();
  if (wanted === "" ) return undefined;
  if (name === wanted) return "exact";
  if (name.includes(wanted) || wanted.includes(name)) return "high";
  const words = wanted.split(" ");
  return words.some((word) => word.length > 2 && name.split(" ").includes(word)) ? "medium" : undefined;
}

/** Whether an element can carry out an action (typing needs a text field; clicking anything else). */
function suits(element: SiteElement, action: string): boolean {
  if (action === "type" || action === "clear" || action === "fill") return element.role === "textbox";
  if (action === "click" || action === "submit" || action === "open" || action === "close") return element.role !== "textbox" || action === "click";
  return true;
}

function purpose(element: SiteElement): BrowserTargetPurpose {
  switch (element.onClick?.kind) {
    case "submitSignIn":
      return "submit";
    case "openOrder":
      return "open";
    case "closeDialog":
      return "close";
    case "goTo":
    case "signOut":
      return "activate";
    default:
      return "enter";
  }
}

/** Whether a region is inside the scope (its id, kind or form label, when the scope names one). */
function inScope(region: SiteRegion, payload: BrowserFindTargetPayload): boolean {
  const { scope } = payload;
  if (scope === undefined) return true;
  if (scope.regionId !== undefined && scope.regionId !== region.id) return false;
  if (scope.regionKind !== undefined && scope.regionKind !== region.kind) return false;
  if (scope.formLabel !== undefined && (region.kind !== "form" || scope.formLabel.toLowerCase() !== region.label.toLowerCase())) return false;
  return true;
}

const ORDER: readonly Confidence[] = ["exact", "high", "medium", "low", "insufficient"];

/** The page's elements that match the intent, best first, as intent candidates. */
function candidates(site: SiteContext, payload: BrowserFindTargetPayload): BrowserIntentCandidate[] {
  const wanted = normalize(payload.intent);
  const constraints = isJsonObject(payload.constraints) ? payload.constraints : {};
  const found: { element: SiteElement; region: SiteRegion; confidence: Confidence }[] = [];
  for (const { element, region } of elementsOf(site.page())) {
    if (!inScope(region, payload) || !suits(element, payload.action)) continue;
    if (typeof constraints.role === "string" && constraints.role !== element.role) continue;
    if (typeof constraints.nameContains === "string" && !element.name.toLowerCase().includes(constraints.nameContains.toLowerCase())) continue;
    const confidence = match(element, wanted);
    if (confidence !== undefined) found.push({ element, region, confidence });
  }
  found.sort((a, b) => ORDER.indexOf(a.confidence) - ORDER.indexOf(b.confidence));
  return found.map(({ element, region, confidence }, i) => {
    const candidate: BrowserIntentCandidate = {
      id: `candidate_${i + 1}`,
      reference: site.reference(element),
      role: element.role,
      name: element.name,
      regionId: region.id,
      regionKind: region.kind,
      confidence,
      evidence: [{ category: confidence === "exact" ? "exactName" : "semanticName", detail: `name "${element.name}" matches "${payload.intent}"` }],
      fingerprint: {
        revision: site.state.revision,
        route: site.route(),
        role: element.role,
        name: element.name,
        regionId: region.id,
        regionKind: region.kind,
        purpose: purpose(element),
        invalidatedBy: ["revisionChanged", "routeChanged", "nameChanged"],
      },
    };
    if (element.inputType !== undefined) {
      candidate.inputType = element.inputType;
      if (candidate.fingerprint !== undefined) candidate.fingerprint.inputType = element.inputType;
    }
    return candidate;
  });
}

/** Whether the best candidate stands alone (no other candidate as confident). */
function unique(found: readonly BrowserIntentCandidate[]): boolean {
  return found.length === 1 || (found.length > 1 && found[0]?.confidence !== found[1]?.confidence);
}

/**
 * findTarget: the page's elements whose name matches the intent (filler words such as "the" or
 * "field" ignored), narrowed by `scope` (a region id or label) and `constraints` (`role`,
 * `nameContains`, `regionKind`), best first. A stale `expectedRevision` is reported as data.
 */
export function findTarget(site: SiteContext, payload: BrowserFindTargetPayload): ResultOf<"browser.findTarget"> {
  const normalizedIntent = normalize(payload.intent);
  const stale = payload.expectedRevision !== undefined && payload.expectedRevision !== null && payload.expectedRevision !== site.state.revision;
  const found = stale ? [] : candidates(site, payload);
  const ambiguity = stale ? "stale_revision" : found.length === 0 ? "not_found" : unique(found) ? "none" : "ambiguous";
  const suggestedConstraints = ambiguity === "ambiguous" ? [{ nameContains: found[0]?.name ?? payload.intent }] : [];
  return { normalizedIntent, revision: site.state.revision, candidates: found, ambiguity, suggestedConstraints, detailAvailability: site.detailAvailability() };
}

/** resolveIntent: the same search as findTarget, as a resolution with the candidate it selects. */
export function resolveIntent(site: SiteContext, payload: BrowserFindTargetPayload): ResultOf<"browser.resolveIntent"> {
  const { action } = payload;
  const base = { schemaVersion: 1 as const, intent: payload.intent, normalizedIntent: normalize(payload.intent), policyDecision: "allowed" as const, route: site.route(), revision: site.state.revision, excludedCount: 0 };
  if (!RESOLVED_ACTIONS.has(action)) {
    return { ...base, action: "inspect", resolution: "unsupportedIntent", policyDecision: "rejected", reason: `the action ${JSON.stringify(payload.action)} is not one the site resolves` };
  }
  const resolvedAction = action as BrowserResolvedIntentAction;
  if (payload.expectedRevision !== undefined && payload.expectedRevision !== null && payload.expectedRevision !== site.state.revision) {
    return { ...base, action: resolvedAction, resolution: "staleRevision", reason: `the page is at revision ${site.state.revision}, not ${payload.expectedRevision}` };
  }
  const found = candidates(site, { ...payload, action });
  if (found.length === 0) return { ...base, action: resolvedAction, resolution: "notFound", reason: "no element on the page matches the intent" };
  if (!unique(found)) {
    return { ...base, action: resolvedAction, resolution: "ambiguous", candidates: found, suggestedConstraints: [{ nameContains: found[0]?.name ?? payload.intent }], reason: "more than one element matches equally well" };
  }
  const best = found[0];
  const resolution = best?.confidence === "exact" ? "exact" : best?.confidence === "high" ? "uniqueHighConfidence" : "uniqueLowConfidence";
  return { ...base, action: resolvedAction, resolution, candidates: found, ...(best === undefined ? {} : { selectedCandidate: best.id }) };
}
