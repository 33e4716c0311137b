import type { ResultOf } from "../../../generated/operation-map.js";
import type { BrowserDomNode, BrowserInteractiveElement, BrowserObservePayload, BrowserPageContext, BrowserPageInfo } from "../../../generated/types/operations/browser-observation.js";
import type {
  BrowserAccessibilityNode,
  BrowserObservationLevel,
  BrowserSemanticLimits,
  BrowserSemanticObservation,
  BrowserSemanticRegion,
  BrowserSemanticTarget,
} from "../../../generated/types/operations/browser-results.js";
import { utf8Length } from "../../validation/byte-length.js";
import { mockError } from "../handlers.js";
import { elementsOf, pageText, type SiteElement, type SitePage, type SiteRegion } from "./pages.js";
import { solidPng } from "./png.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

const LEVELS: readonly BrowserObservationLevel[] = ["summary", "interactive", "structured", "detailed", "raw"];
const VIEWPORT = { scrollX: 0, scrollY: 0, width: 1280, height: 720, documentWidth: 1280, documentHeight: 900 };
/** Each page's screenshot colour (RGB), so that images of different pages differ. */
const PAGE_COLOURS: Record<string, readonly [number, number, number]> = { "/login": [52, 101, 164], "/orders": [78, 154, 6] };

/** Whether `level` reports at least as much as `floor`. */
function atLeast(level: BrowserObservationLevel, floor: BrowserObservationLevel): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(floor);
}

function semanticTarget(site: SiteContext, element: SiteElement): BrowserSemanticTarget {
  const target: BrowserSemanticTarget = { reference: site.reference(element), role: element.role, name: element.name };
  if (element.inputType !== undefined) target.inputType = element.inputType;
  return target;
}

/** A region as a semantic observation at `level` reports it. */
export function semanticRegion(site: SiteContext, region: SiteRegion, level: BrowserObservationLevel): BrowserSemanticRegion {
  const out: BrowserSemanticRegion = { id: region.id, label: region.label, kind: region.kind, interactiveCount: region.elements.length, confidence: "high" };
  if (region.records !== undefined) out.itemCount = region.records.length;
  if (region.records !== undefined && region.records.length > 0 && atLeast(level, "structured")) {
    out.structuredRecords = region.records.map((fields) => ({ fields: { ...fields } }));
  }
  if (region.evidence.length > 0) out.evidence = [...region.evidence];
  if (region.elements.length > 0 && atLeast(level, "interactive")) out.targets = region.elements.map((element) => semanticTarget(site, element));
  out.expansion = { regionId: region.id, revision: site.state.revision, route: site.route() };
  return out;
}

/** The accessibility tree of the page: one node per region, its elements as interactive children. */
function accessibilityTree(page: SitePage): BrowserAccessibilityNode[] {
  return page.regions.map((region) => {
    const node: BrowserAccessibilityNode = { role: region.kind === "navigation" ? "navigation" : region.kind, name: region.label };
    const children = region.elements.map((element): BrowserAccessibilityNode => ({ role: element.role, name: element.name, interactive: true }));
    if (children.length > 0) node.children = children;
    return node;
  });
}

/** The page as a semantic observation at `level`, or only the region `regionId` of it. */
export function semanticObservation(site: SiteContext, level: BrowserObservationLevel, regionId?: string): BrowserSemanticObservation {
  const page = site.page();
  let regions = page.regions;
  if (regionId !== undefined) {
    regions = regions.filter((region) => region.id === regionId || region.label === regionId);
    if (regions.length === 0) throw mockError("target.notFound", `no region ${JSON.stringify(regionId)} on ${page.path} at revision ${site.state.revision}`, { details: { kind: "target", code: "target.notFound", target: regionId } });
  }
  const text = pageText(page);
  const limits: BrowserSemanticLimits = { truncated: false, omittedRegions: 0, omittedTargets: 0, omittedStructuredRecords: 0, viewport: { ...VIEWPORT } };
  const observation: BrowserSemanticObservation = {
    schemaVersion: 1,
    revision: site.state.revision,
    level,
    route: site.route(),
    page: { kind: page.kind, title: page.title, url: site.state.url, targetId: TARGET_ID, frameId: FRAME_ID, confidence: "high", evidence: [...page.evidence] },
    regions: regions.map((region) => semanticRegion(site, region, level)),
    limits,
  };
  if (atLeast(level, "structured")) {
    observation.text = text;
    limits.textBytes = utf8Length(text);
  }
  if (atLeast(level, "detailed")) observation.accessibility = accessibilityTree(page);
  if (level === "raw") observation.rawAccessibility = [{ role: "RootWebArea", name: page.title, children: accessibilityTree(page) }];
  return observation;
}

/** The page as the daemon's snake_case `PageInfo`. */
function pageInfo(site: SiteContext, page: SitePage): BrowserPageInfo {
  return { url: site.state.url, title: page.title, ready_state: "complete", target_id: TARGET_ID, frame_id: FRAME_ID };
}

/** An element as a page context lists it; with `includeFormValues` its value (a password redacted). */
function interactiveElement(site: SiteContext, element: SiteElement, includeFormValues: boolean): BrowserInteractiveElement {
  const out: BrowserInteractiveElement = { reference: site.reference(element), role: element.role, backend_dom_node_id: element.node, name: element.name };
  if (element.inputType !== undefined) out.input_type = element.inputType;
  if (includeFormValues && element.irKind === "field") {
    const value = site.state.values[element.key] ?? "";
    if (value === "") out.empty = true;
    else out.value = element.inputType === "password" ? "[REDACTED]" : value;
    out.required = true;
  }
  return out;
}

/** What observe returns without `level`: the page context, with the DOM and a screenshot when asked. */
function pageContext(site: SiteContext, payload: BrowserObservePayload): BrowserPageContext {
  const page = site.page();
  const elements = elementsOf(page);
  const context: BrowserPageContext = {
    page: pageInfo(site, page),
    text: pageText(page),
    accessibility: {
      page: pageInfo(site, page),
      revision: site.state.revision,
      roots: accessibilityTree(page),
      interactive: elements.map(({ element }) => interactiveElement(site, element, payload.includeFormValues === true)),
    },
    consistency: { consistent: true, attempts: 1, start_revision: site.state.revision, end_revision: site.state.revision, start_mutation_revision: site.state.revision, end_mutation_revision: site.state.revision },
    boundaries: {
      scanned_elements: 12 + elements.length * 2,
      scan_limit: 5000,
      shadow_roots: 0,
      child_frames: 0,
      canvases: 0,
      canvas_2d: 0,
      webgl_canvases: 0,
      webgpu_canvases: 0,
      svg_elements: 0,
      media_elements: 0,
      embedded_documents: 0,
      pdf_documents: 0,
      native_surfaces: 0,
      truncated: false,
      text_truncated: false,
    },
  };
  if (payload.includeDom === true) context.dom = domTree(site);
  if (payload.includeScreenshot === true) context.image = screenshotImage(page).image;
  return context;
}

/** observe: a semantic observation at the asked level, or the page context without one. */
export function observe(site: SiteContext, payload: BrowserObservePayload): ResultOf<"browser.observe"> {
  return payload.level === undefined ? pageContext(site, payload) : semanticObservation(site, payload.level, payload.region);
}

/** inspectPage: an overview built from a structured observation, with the focused element and alerts. */
export function inspectPage(site: SiteContext): ResultOf<"browser.inspectPage"> {
  const observation = semanticObservation(site, "structured");
  const focused = elementsOf(site.page()).find(({ element }) => element.key === site.state.focused);
  return {
    page: observation.page,
    revision: observation.revision,
    regions: observation.regions,
    limits: observation.limits,
    focusedTarget: focused === undefined ? null : semanticTarget(site, focused.element),
    alerts: site.state.alert === null ? [] : [site.state.alert],
    detailAvailability: site.detailAvailability(),
  };
}

/** getText: the page's visible text. */
export function getText(site: SiteContext): ResultOf<"browser.getText"> {
  return { text: pageText(site.page()) };
}

/** The page's DOM: html > body > one section per region, holding a heading and its elements. */
export function domTree(site: SiteContext): BrowserDomNode {
  const page = site.page();
  let nextId = 1000;
  const node = (name: string, attributes: string[], children: BrowserDomNode[] = [], value = ""): BrowserDomNode => {
    nextId += 1;
    return { node_id: nextId, node_name: name, node_value: value, children, attributes, bounding_box: null };
  };
  const textNode = (text: string): BrowserDomNode => node("#text", [], [], text);
  const elementNode = (element: SiteElement): BrowserDomNode => {
    const attributes = ["id", element.key];
    if (element.inputType !== undefined) attributes.push("type", element.inputType, "aria-label", element.name);
    if (element.tag === "a") attributes.push("href", element.onClick?.kind === "goTo" ? (element.onClick.arg ?? "#") : "#");
    return node(element.tag.toUpperCase(), attributes, element.tag === "input" ? [] : [textNode(element.name)]);
  };
  const sections = page.regions.map((region) =>
    node(region.kind === "dialog" ? "DIALOG" : region.kind === "navigation" ? "NAV" : "SECTION", ["id", region.id, "aria-label", region.label], [
      node("H2", [], [textNode(region.label)]),
      ...region.text.slice(1).map((line) => node("P", [], [textNode(line)])),
      ...region.elements.map(elementNode),
    ]),
  );
  return node("HTML", ["lang", "en"], [node("HEAD", [], [node("TITLE", [], [textNode(page.title)])]), node("BODY", [], sections)]);
}

/** getDOM: the page's DOM tree. */
export function getDOM(site: SiteContext): ResultOf<"browser.getDOM"> {
  return domTree(site);
}

/** A small solid-colour PNG of the page (its colour tells the pages apart). */
function screenshotImage(page: SitePage): { image: { data: string; mimeType: string }; bytes: number; width: number; height: number } {
  const width = 64;
  const height = 40;
  const png = solidPng(width, height, PAGE_COLOURS[page.path] ?? [204, 0, 0]);
  return { image: { data: png.base64, mimeType: "image/png" }, bytes: png.bytes, width, height };
}

/** screenshot: the capture's metadata and a real (small) PNG of the page. */
export function screenshot(site: SiteContext): ResultOf<"browser.screenshot"> {
  const { image, bytes, width, height } = screenshotImage(site.page());
  return { format: "png", width, height, encoded_bytes: bytes, device_scale_factor: 1, scale: 1, full_page: false, target_id: TARGET_ID, frame_id: FRAME_ID, image };
}
