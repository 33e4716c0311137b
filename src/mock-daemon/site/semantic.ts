/**
 * The daemon's semantic observation (glass-browser 0.3.14, `SemanticObservation::from_page_context`)
 * computed from the page's accessibility tree the way the daemon computes it: regions from landmark
 * roles, each control grouped into the innermost region its accessibility ancestors name (the page
 * itself, which has none, into the last region), table records from the rows, the page classified
 * from its title, URL and regions.
 */
import type {
  BrowserAccessibilityNode,
  BrowserObservationLevel,
  BrowserPageKind,
  BrowserRegionKind,
  BrowserSemanticConfidence,
  BrowserSemanticObservation,
  BrowserSemanticRegion,
  BrowserSemanticTarget,
} from "../../../generated/types/operations/browser-results.js";
import { utf8Length } from "../../validation/byte-length.js";
import { compareCodePoints } from "./daemon-text.js";
import type { AxNode, SiteElement, SitePage } from "./pages.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

/** The browser viewport the daemon's headless Chromium reports for the shop. */
export const VIEWPORT = { scrollX: 0, scrollY: 0, width: 1280, height: 577, documentWidth: 1280, documentHeight: 577 };
const MAX_TARGETS = 32;
const LEVELS: readonly BrowserObservationLevel[] = ["summary", "interactive", "structured", "detailed", "raw"];
const includes = (level: BrowserObservationLevel, floor: BrowserObservationLevel): boolean =>
  LEVELS.indexOf(level) >= LEVELS.indexOf(floor);

/** A control as the daemon's compact projection lists it, with the accessibility labels above it (the last four). */
export interface Control {
  readonly element: SiteElement;
  readonly ancestors: readonly string[];
}

/** The accessibility tree as the daemon sends it (a control's name left out), and its controls in document order. */
export function project(page: SitePage): { roots: BrowserAccessibilityNode[]; controls: Control[] } {
  const controls: Control[] = [];
  const walk = (node: AxNode, ancestors: readonly string[]): BrowserAccessibilityNode => {
    if (node.element !== undefined) controls.push({ element: node.element, ancestors });
    const name = node.element === undefined ? (node.name ?? "") : "";
    const label = `${node.role}:${name}`;
    const below = label.replace(/:+$/, "") === "" ? ancestors : [...ancestors, label].slice(-4);
    const children = (node.children ?? []).map((child) => walk(child, below));
    return {
      role: node.role,
      ...(name === "" ? {} : { name }),
      ...(children.length === 0 ? {} : { children }),
      ...(node.element === undefined ? {} : { interactive: true }),
    };
  };
  return { roots: [walk(page.tree, [])], controls };
}

const REGION_ROLES: Readonly<Record<string, BrowserRegionKind>> = {
  navigation: "navigation",
  main: "main",
  search: "search",
  form: "form",
  dialog: "dialog",
  alert: "alert",
  status: "status",
  toolbar: "toolbar",
  complementary: "sidebar",
  article: "article",
  contentinfo: "footer",
  table: "table",
  list: "collection",
};
const KIND_NAMES: Partial<Record<BrowserRegionKind, string>> = {
  filterPanel: "filter_panel",
  checkoutSummary: "checkout_summary",
};
const KIND_LABELS: Partial<Record<BrowserRegionKind, string>> = {
  navigation: "Navigation",
  main: "Main content",
  search: "Search",
  form: "Form",
  dialog: "Dialog",
  alert: "Alert",
  status: "Status",
  toolbar: "Toolbar",
  sidebar: "Sidebar",
  article: "Article",
  footer: "Footer",
  table: "Table",
  collection: "Collection",
};
const kindName = (kind: BrowserRegionKind): string => KIND_NAMES[kind] ?? kind;

const countInteractive = (node: BrowserAccessibilityNode): number =>
  (node.interactive === true ? 1 : 0) + (node.children ?? []).reduce((sum, child) => sum + countInteractive(child), 0);
const rolesUnder = (node: BrowserAccessibilityNode, role: string): BrowserAccessibilityNode[] => [
  ...(node.role === role ? [node] : []),
  ...(node.children ?? []).flatMap((child) => rolesUnder(child, role)),
];
const hasRole = (node: BrowserAccessibilityNode, role: string): boolean =>
  node.role === role || (node.children ?? []).some((child) => hasRole(child, role));

/** A region with the tree node it came from. */
interface Found {
  readonly region: BrowserSemanticRegion;
  readonly node: BrowserAccessibilityNode;
  readonly anchor: string | undefined;
}

/** The regions of the page, in document order, each its landmark's id (`region_form_1`), kind, label and counts. */
function regionsOf(site: SiteContext, roots: readonly BrowserAccessibilityNode[]): Found[] {
  const found: Found[] = [];
  const expansion = (regionId: string): BrowserSemanticRegion["expansion"] => ({
    regionId,
    revision: site.state.revision,
    route: site.route(),
  });
  const walk = (node: BrowserAccessibilityNode): void => {
    const kind = REGION_ROLES[node.role];
    if (kind !== undefined) {
      const id = `region_${kindName(kind)}_${found.filter((other) => other.region.kind === kind).length + 1}`;
      const region: BrowserSemanticRegion = {
        id,
        kind,
        label: node.name ?? KIND_LABELS[kind] ?? "Page region",
        interactiveCount: countInteractive(node),
        confidence: "exact",
        evidence: [`aria-role=${node.role}`],
        expansion: expansion(id),
      };
      if (kind === "results" || kind === "collection" || kind === "table") {
        region.itemCount = (node.children ?? []).filter((child) =>
          ["listitem", "row", "option"].includes(child.role),
        ).length;
      }
      found.push({ region, node, anchor: `${node.role}:${node.name ?? ""}` });
    }
    for (const child of node.children ?? []) walk(child);
  };
  for (const root of roots) walk(root);
  return found;
}

/** A table's rows as records, keyed by the column headers (`column_<n>` without one), keys in code-point order. */
function tableRecords(node: BrowserAccessibilityNode): { fields: Record<string, string> }[] {
  const headers = rolesUnder(node, "columnheader").map((header) => header.name ?? "");
  return rolesUnder(node, "row")
    .filter((row) => !hasRole(row, "columnheader"))
    .flatMap((row) => {
      const cells = (row.children ?? [])
        .filter((child) => ["cell", "gridcell", "columnheader"].includes(child.role))
        .map((cell) => cell.name ?? "");
      if (cells.length === 0) return [];
      const fields: Record<string, string> = {};
      cells.slice(0, 32).forEach((cell, index) => {
        const header = headers[index] !== undefined && headers[index] !== "" ? headers[index] : `column_${index + 1}`;
        let key = header;
        for (let suffix = 2; Object.hasOwn(fields, key); suffix += 1) key = `${header}_${suffix}`;
        fields[key] = cell;
      });
      return [
        {
          fields: Object.fromEntries(
            Object.keys(fields)
              .sort(compareCodePoints)
              .map((key) => [key, fields[key] ?? ""]),
          ),
        },
      ];
    });
}

/** A control as a region's target lists it. */
export function targetOf(site: SiteContext, element: SiteElement): BrowserSemanticTarget {
  return {
    reference: site.reference(element),
    role: element.role,
    ...(element.name === "" ? {} : { name: element.name }),
    readOnly: false,
    required: false,
    empty: false,
  };
}

/**
 * Puts each control in the innermost region whose landmark is among its ancestors (the last region
 * when none is), then gives every region its first control and spends what is left of the 32
 * targets on regions with more, main content first.
 */
function populate(site: SiteContext, found: readonly Found[], controls: readonly Control[]): void {
  const groups = found.map(() => [] as Control[]);
  for (const control of controls) {
    let index = found.length - 1;
    found.forEach((candidate, at) => {
      if (candidate.anchor !== undefined && control.ancestors.includes(candidate.anchor)) index = at;
    });
    groups[index]?.push(control);
  }
  const targets = found.map(() => [] as SiteElement[]);
  let spent = 0;
  const active = groups.filter((group) => group.length > 0).length;
  groups.forEach((group, index) => {
    if (spent >= Math.min(active, MAX_TARGETS) || group[0] === undefined) return;
    targets[index]?.push(group[0].element);
    spent += 1;
  });
  const priority = (kind: BrowserRegionKind): number =>
    ["main", "collection", "results", "article"].includes(kind)
      ? 0
      : ["navigation", "search", "toolbar"].includes(kind)
        ? 1
        : 2;
  const order = groups.map((_, index) => index).filter((index) => (groups[index]?.length ?? 0) > 1);
  order.sort((a, b) => priority(found[a]!.region.kind) - priority(found[b]!.region.kind) || a - b);
  for (const index of order) {
    for (const control of groups[index]?.slice(1) ?? []) {
      if (spent >= MAX_TARGETS) break;
      targets[index]?.push(control.element);
      spent += 1;
    }
  }
  found.forEach(({ region }, index) => {
    const list = targets[index] ?? [];
    if (list.length > 0) region.targets = list.map((element) => targetOf(site, element));
  });
}

/** The page's kind, how sure, and why (the daemon's `classify_page`). */
export function classify(
  page: SitePage,
  url: string,
  regions: readonly BrowserSemanticRegion[],
): { kind: BrowserPageKind; confidence: BrowserSemanticConfidence; evidence: string[] } {
  if (page.foreign)
    return { kind: "error", confidence: "high", evidence: ["the simulated site does not serve this origin"] };
  const title = page.title.toLowerCase();
  const lowerUrl = url.toLowerCase();
  const has = (kind: BrowserRegionKind): boolean => regions.some((region) => region.kind === kind);
  if (
    ["sign in", "log in"].some((words) => title.includes(words)) ||
    ["/login", "/signin", "/auth"].some((part) => lowerUrl.includes(part))
  ) {
    return { kind: "authentication", confidence: "high", evidence: ["title-or-url-signature=authentication"] };
  }
  if (has("search"))
    return {
      kind: lowerUrl.includes("search") || title.includes("search") ? "searchResults" : "search",
      confidence: "high",
      evidence: ["aria-role=search"],
    };
  const segments = (lowerUrl.split(/[?#]/)[0] ?? "").split("/").filter((segment) => segment !== "");
  const collection = segments.findIndex((segment) =>
    ["issues", "pulls", "discussions", "search", "results", "items"].includes(segment),
  );
  const numericDetail = collection >= 0 && /^\d*$/.test(segments[collection + 1] ?? "x");
  const repeated = regions.some(
    (region) => ["results", "collection", "table"].includes(region.kind) && (region.itemCount ?? 0) >= 2,
  );
  const text = page.text.toLowerCase();
  const metadata = ["status", "opened", "assignee", "labels", "comments"].filter((term) => text.includes(term)).length;
  if (numericDetail || (page.title.trim().length >= 8 && (has("article") || metadata >= 2)))
    return { kind: "detail", confidence: "medium", evidence: ["route-or-detail-metadata-signature"] };
  if (repeated || collection >= 0)
    return { kind: "listing", confidence: "medium", evidence: ["repeated-items-or-collection-route"] };
  if (has("form")) return { kind: "form", confidence: "high", evidence: ["aria-role=form"] };
  if (has("article")) return { kind: "article", confidence: "high", evidence: ["aria-role=article"] };
  if (
    lowerUrl.includes("/doc/html/rfc") ||
    title.startsWith("rfc ") ||
    title.includes("request for comments") ||
    page.text.includes("Status of this Memo") ||
    page.text.includes("Table of Contents")
  ) {
    return { kind: "documentation", confidence: "high", evidence: ["document-signature=rfc-or-formatted-document"] };
  }
  return { kind: "generic", confidence: "unknown", evidence: ["no-high-confidence-page-signature"] };
}

/** A region with its keys in the order the daemon writes them. */
function inDaemonOrder(region: BrowserSemanticRegion): BrowserSemanticRegion {
  const { id, kind, label, interactiveCount, itemCount, confidence, structuredRecords, evidence, targets, expansion } =
    region;
  return {
    id,
    kind,
    label,
    interactiveCount,
    ...(itemCount === undefined ? {} : { itemCount }),
    confidence,
    ...(structuredRecords === undefined ? {} : { structuredRecords }),
    ...(evidence === undefined ? {} : { evidence }),
    ...(targets === undefined ? {} : { targets }),
    ...(expansion === undefined ? {} : { expansion }),
  };
}

/** The UTF-8 size of records as the daemon serialises them. */
const recordBytes = (records: readonly unknown[]): number =>
  records.reduce<number>((sum, record) => sum + utf8Length(JSON.stringify(record)), 0);

/** The page as a semantic observation at `level`, with the tree nodes of its regions (for a scoped one). */
export function observePage(
  site: SiteContext,
  level: BrowserObservationLevel,
): { observation: BrowserSemanticObservation; nodes: Map<string, BrowserAccessibilityNode> } {
  const page = site.page();
  const { roots, controls } = project(page);
  const found = regionsOf(site, roots);
  let structuredBytes = 0;
  if (includes(level, "structured")) {
    for (const { region, node } of found) {
      if (region.kind !== "table") continue;
      const records = tableRecords(node);
      if (records.length > 0) region.structuredRecords = records;
      structuredBytes += recordBytes(records);
    }
  }
  const nodes = new Map(found.map(({ region, node }) => [region.id, node]));
  if (found.length === 0) {
    const region: BrowserSemanticRegion = {
      id: "region_main",
      kind: "unknown",
      label: "Unclassified page content",
      interactiveCount: controls.length,
      confidence: "unknown",
      evidence: ["no recognized landmark role"],
    };
    region.expansion = { regionId: "region_main", revision: site.state.revision, route: site.route() };
    found.push({ region, node: roots[0]!, anchor: undefined });
    nodes.set("region_main", roots[0]!);
  }
  if (includes(level, "interactive")) populate(site, found, controls);
  const regions = found.map(({ region }) => inDaemonOrder(region));
  const { kind, confidence, evidence } = classify(page, site.state.url, regions);
  const observation: BrowserSemanticObservation = {
    schemaVersion: 1,
    revision: site.state.revision,
    level,
    route: site.route(),
    page: {
      kind,
      title: page.title,
      url: site.state.url,
      targetId: TARGET_ID,
      frameId: FRAME_ID,
      confidence,
      evidence,
    },
    regions,
    ...(includes(level, "structured") ? { text: page.text } : {}),
    ...(includes(level, "detailed") ? { accessibility: roots } : {}),
    ...(level === "raw" ? { rawAccessibility: roots } : {}),
    limits: {
      truncated: false,
      omittedRegions: 0,
      omittedTargets: 0,
      omittedStructuredRecords: 0,
      ...(includes(level, "structured") ? { structuredBytes, textBytes: utf8Length(page.text) } : {}),
      viewport: { ...VIEWPORT },
    },
  };
  return { observation, nodes };
}

/** The names in a region's part of the tree, one a line: the text a scoped observation carries. */
function regionText(node: BrowserAccessibilityNode): string {
  const lines: string[] = [];
  const walk = (current: BrowserAccessibilityNode): void => {
    if (current.name !== undefined && current.name !== "") lines.push(current.name);
    for (const child of current.children ?? []) walk(child);
  };
  walk(node);
  return lines.join("\n");
}

/**
 * One region of the page (`region_form_1`), the rest counted as omitted, with the region's own
 * text and accessibility nodes; undefined when the page has no such region (the daemon then fails
 * without saying why).
 */
export function observeRegion(
  site: SiteContext,
  level: BrowserObservationLevel,
  regionId: string,
): BrowserSemanticObservation | undefined {
  const { observation, nodes } = observePage(site, level);
  const region = observation.regions.find((candidate) => candidate.id === regionId);
  const node = nodes.get(regionId);
  if (region === undefined || node === undefined) return undefined;
  const omittedRegions = observation.regions.length - 1;
  const text = includes(level, "structured") ? regionText(node) : "";
  const { text: _pageText, accessibility: _tree, rawAccessibility: _raw, limits, ...rest } = observation;
  const scoped: BrowserSemanticObservation = {
    ...rest,
    regions: [region],
    ...(text === "" ? {} : { text }),
    ...(includes(level, "detailed") ? { accessibility: [node] } : {}),
    ...(level === "raw" ? { rawAccessibility: [node] } : {}),
    limits: {
      truncated: limits.truncated || omittedRegions > 0,
      omittedRegions,
      omittedTargets: Math.max(0, region.interactiveCount - (region.targets?.length ?? 0)),
      omittedStructuredRecords: 0,
      ...(includes(level, "structured") ? { structuredBytes: recordBytes(region.structuredRecords ?? []) } : {}),
      omittedBytes: Math.max(0, utf8Length(site.page().text) - utf8Length(regionText(node))),
      ...(text === "" ? {} : { textBytes: utf8Length(text) }),
      viewport: limits.viewport,
    },
  };
  return scoped;
}
