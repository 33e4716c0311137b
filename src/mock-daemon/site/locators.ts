import { mockError, type MockError } from "../handlers.js";
import type { SiteElement, SitePage } from "./pages.js";
import type { SiteContext } from "./site-context.js";

/** A target as the daemon's locator parser reads it (glass-browser 0.3.14 `Locator::parse`). */
export type Locator =
  | { readonly kind: "reference"; readonly value: string }
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "roleAndName"; readonly role: string; readonly name: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "css"; readonly selector: string }
  | { readonly kind: "ordinal"; readonly index: number };

/** An element reference as the daemon parses it: `r<revision>:[c<document>:]b<backend node>`. */
export interface ParsedReference {
  readonly revision: number;
  readonly documentId: string | undefined;
  readonly node: number;
}

/**
 * The daemon's answer to a locator it cannot parse, or to another failure it has no typed form
 * for: the opaque `browser tool failed`.
 */
export function toolFailed(reason: string): MockError {
  return mockError("tool.failed", reason);
}

/**
 * A reference, as the daemon reads any target that starts with `r` and has a `:` (so `ref=…` is an
 * error, not a reference): undefined when it is not one, a `tool.failed` when it is a broken one.
 */
export function parseReference(value: string): ParsedReference | undefined {
  if (!value.startsWith("r")) return undefined;
  const colon = value.indexOf(":");
  if (colon < 0) return undefined;
  const [revision, rest] = [value.slice(1, colon), value.slice(colon + 1)];
  if (revision === "" || rest === "") throw toolFailed(`invalid revisioned element reference: ${value}`);
  if (!/^\d+$/.test(revision)) throw toolFailed(`invalid element reference revision: ${value}`);
  let documentId: string | undefined;
  let node = rest;
  if (rest.startsWith("c")) {
    const at = rest.indexOf(":b");
    if (at < 0) throw toolFailed(`invalid contextual element reference: ${value}`);
    documentId = rest.slice(1, at);
    node = rest.slice(at + 2);
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(documentId)) throw toolFailed(`invalid element reference context: ${value}`);
  } else if (rest.startsWith("b")) {
    node = rest.slice(1);
  } else {
    throw toolFailed(`invalid revisioned element reference: ${value}`);
  }
  if (!/^\d+$/.test(node) || Number(node) <= 0)
    throw toolFailed(`invalid backend node ID in element reference: ${value}`);
  return { revision: Number(revision), documentId, node: Number(node) };
}

const nonEmpty = (value: string, what: string): string => {
  if (value === "") throw toolFailed(`${what} locator cannot be empty`);
  return value;
};

/** Parses a target as the daemon does: a reference, `ref=`, `name=`, `text=`, `css=`, `ordinal=`, `role=<role>;name=<name>`, or a bare accessible name. */
export function parseLocator(target: string): Locator {
  const value = target.trim().replace(/^"+|"+$/g, "");
  if (parseReference(value) !== undefined) return { kind: "reference", value };
  if (value.startsWith("ref=")) return { kind: "reference", value: nonEmpty(value.slice(4), "reference") };
  if (value.startsWith("name=")) return { kind: "name", name: nonEmpty(value.slice(5), "accessible name") };
  if (value.startsWith("text=")) return { kind: "text", text: nonEmpty(value.slice(5), "text") };
  if (value.startsWith("css=")) return { kind: "css", selector: nonEmpty(value.slice(4), "CSS selector") };
  if (value.startsWith("ordinal=")) {
    const index = /^\d+$/.test(value.slice(8)) ? Number(value.slice(8)) : 0;
    if (index < 1) throw toolFailed("ordinal locator must be a positive one-based integer");
    return { kind: "ordinal", index };
  }
  if (value.startsWith("role=")) {
    const rest = value.slice(5);
    const at = rest.indexOf(";name=");
    if (at < 0) throw toolFailed("role locator must use role=<role>;name=<accessible name>");
    return {
      kind: "roleAndName",
      role: nonEmpty(rest.slice(0, at), "role"),
      name: nonEmpty(rest.slice(at + 6), "accessible name"),
    };
  }
  return { kind: "name", name: nonEmpty(value, "accessible name") };
}

/**
 * What a target resolved to: the element (none for an element that is not interactive, which a
 * click reaches but nothing answers), the label an action reports, and the reference when the
 * target names one (a CSS or text match has none).
 */
export interface Resolved {
  readonly element: SiteElement | undefined;
  readonly label: string;
  readonly reference?: string;
}

/** The targeting failures, as the client lifts the daemon's `TargetError`s. */
export const targetErrors = {
  notFound: (): MockError =>
    mockError("target.notFound", "no element on the page matches the target", {
      details: { kind: "not_found", failureKind: "target_not_found" },
    }),
  ambiguous: (candidates: readonly { label: string; reference?: string }[]): MockError =>
    mockError("target.ambiguous", "the target matches more than one element", {
      details: { kind: "ambiguous", failureKind: "ambiguous_target", candidates: candidates.map((c) => ({ ...c })) },
    }),
  stale: (suggestion: "reobserve" | "reconcileReferences", fromRevision: number, staleRef: string): MockError =>
    mockError(
      "target.staleReference",
      `the reference belongs to an older observation of the page; the daemon suggests ${suggestion}`,
      {
        details: {
          kind: "stale_reference",
          failureKind: "stale_revision",
          recovery: { suggestion, fromRevision, staleRef },
        },
      },
    ),
  nodeUnavailable: (): MockError =>
    mockError("target.notActionable", "the target cannot be acted on (hidden, disabled or covered)", {
      details: { kind: "not_actionable", failureKind: "verification_failed", reason: "node_unavailable" },
    }),
};

/**
 * Checks a reference against the page as the daemon does before acting: another document's (or one
 * without a document) is stale, suggesting to observe again; another revision's is stale,
 * suggesting reconcileReferences; a node the page does not have cannot be acted on.
 */
export function referencedElement(site: SiteContext, page: SitePage, reference: string): SiteElement {
  const parsed = parseReference(reference);
  if (parsed === undefined) throw toolFailed(`invalid revisioned element reference: ${reference}`);
  if (parsed.documentId !== site.documentId()) throw targetErrors.stale("reobserve", parsed.revision, reference);
  if (parsed.revision !== site.state.revision)
    throw targetErrors.stale("reconcileReferences", parsed.revision, reference);
  const element = page.elements.find((candidate) => candidate.node === parsed.node);
  if (element === undefined) throw targetErrors.nodeUnavailable();
  return element;
}

const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
const squeezed = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The element a target names on the current page, or the daemon's targeting error. */
export function resolveTarget(site: SiteContext, target: string): Resolved {
  const page = site.page();
  const locator = parseLocator(target);
  const byAccessibleName = (matches: readonly SiteElement[]): Resolved => {
    const [only] = matches;
    if (matches.length === 1 && only !== undefined)
      return { element: only, label: `${only.role} ${only.name}`, reference: site.reference(only) };
    if (matches.length > 1)
      throw targetErrors.ambiguous(
        matches
          .slice(0, 8)
          .map((element) => ({ label: `${element.role} ${element.name}`, reference: site.reference(element) })),
      );
    throw targetErrors.notFound();
  };
  switch (locator.kind) {
    case "reference":
      return { element: referencedElement(site, page, locator.value), label: locator.value, reference: locator.value };
    case "name":
      return byAccessibleName(page.elements.filter((element) => sameText(element.name, locator.name)));
    case "roleAndName":
      return byAccessibleName(
        page.elements.filter((element) => sameText(element.role, locator.role) && sameText(element.name, locator.name)),
      );
    case "ordinal": {
      const element = page.elements[locator.index - 1];
      if (element === undefined) throw targetErrors.notFound();
      return { element, label: `${element.role} ${element.name}`, reference: site.reference(element) };
    }
    case "css": {
      const matches = page.elements.filter((element) => matchesSelector(element, locator.selector));
      if (matches.length > 1)
        throw targetErrors.ambiguous(matches.slice(0, 8).map((_, index) => ({ label: `css match ${index + 1}` })));
      if (matches.length === 0) throw targetErrors.notFound();
      return { element: matches[0], label: `css=${locator.selector}` };
    }
    case "text": {
      const wanted = squeezed(locator.text);
      const matches = page.texts.filter((candidate) => squeezed(candidate.text) === wanted);
      if (matches.length > 1)
        throw targetErrors.ambiguous(matches.slice(0, 8).map((_, index) => ({ label: `text match ${index + 1}` })));
      if (matches.length === 0) throw targetErrors.notFound();
      return { element: matches[0]?.target, label: `text=${locator.text}` };
    }
  }
}

/**
 * Whether `element` matches a CSS selector of the forms `tag`, `#id`, `[attribute=value]` and their
 * combinations (`button[type=submit]`, `input#email`, `a[href="/orders"]`). The page itself is no
 * element, and a selector of another form matches nothing.
 */
export function matchesSelector(element: SiteElement, selector: string): boolean {
  const parts = /^([a-z][a-z0-9]*)?(?:#([\w-]+))?((?:\[[\w-]+(?:=(?:"[^"]*"|'[^']*'|[^\]'"]*))?\])*)$/i.exec(
    selector.trim(),
  );
  if (parts === null || selector.trim() === "" || element.key === "root") return false;
  const [, tag, id, attributes] = parts;
  if (tag !== undefined && tag.toLowerCase() !== element.tag) return false;
  if (id !== undefined && element.attributes.id !== id) return false;
  for (const [, name, value] of (attributes ?? "").matchAll(/\[([\w-]+)(?:=("[^"]*"|'[^']*'|[^\]'"]*))?\]/g)) {
    const actual = element.attributes[name ?? ""];
    if (actual === undefined) return false;
    if (value !== undefined && actual !== value.replace(/^["']|["']$/g, "")) return false;
  }
  return true;
}
