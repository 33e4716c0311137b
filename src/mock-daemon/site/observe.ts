import type { ResultOf } from "../../../generated/operation-map.js";
import type {
  BrowserInteractiveElement,
  BrowserObservePayload,
  BrowserPageContext,
  BrowserPageInfo,
} from "../../../generated/types/operations/browser-observation.js";
import { sortedKeys } from "./daemon-text.js";
import { domTree, elementCount } from "./dom.js";
import { toolFailed } from "./locators.js";
import type { SiteElement, SitePage } from "./pages.js";
import { solidPng } from "./png.js";
import { observePage, observeRegion, project, VIEWPORT } from "./semantic.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

/** Each page's screenshot colour (RGB), so that images of different pages differ. */
const PAGE_COLOURS: Record<string, readonly [number, number, number]> = {
  "/login": [52, 101, 164],
  "/orders": [78, 154, 6],
};

/** The page as the daemon's snake_case `PageInfo`. */
export function pageInfo(site: SiteContext, page: SitePage): BrowserPageInfo {
  return { url: site.state.url, title: page.title, ready_state: "complete", target_id: TARGET_ID, frame_id: FRAME_ID };
}

/**
 * A control as the page context lists it; with `includeFormValues` a text field also has its input
 * type, autocomplete token, value (a password `<redacted>`), and whether it is empty.
 */
function interactiveElement(
  site: SiteContext,
  element: SiteElement,
  includeFormValues: boolean,
): BrowserInteractiveElement {
  const out: BrowserInteractiveElement = {
    reference: site.reference(element),
    role: element.role,
    ...(element.name === "" ? {} : { name: element.name }),
    backend_dom_node_id: element.node,
  };
  if (!includeFormValues || element.role !== "textbox") return out;
  const value = site.state.values[element.key] ?? "";
  const { type, autocomplete } = element.attributes;
  if (type !== undefined) out.input_type = type;
  if (autocomplete !== undefined) out.autocomplete = autocomplete;
  out.value = type === "password" ? "<redacted>" : value;
  out.disabled = false;
  if (value === "") out.empty = true;
  return out;
}

/** What observe returns without `level`: the page context, with the DOM or a screenshot when asked. */
function pageContext(site: SiteContext, payload: BrowserObservePayload): BrowserPageContext {
  const page = site.page();
  const { roots, controls } = project(page);
  const { revision } = site.state;
  const dom = domTree(page, site.state, site.orders);
  const count = controls.length;
  const context: BrowserPageContext = {
    page: pageInfo(site, page),
    text: page.text,
    accessibility: {
      page: pageInfo(site, page),
      revision,
      roots,
      interactive: controls.map(({ element }) => interactiveElement(site, element, payload.includeFormValues === true)),
      completeness: {
        score: 1,
        confidence: "high",
        suggest_escalation: "none",
        signals: {
          interactive_discovered: count,
          interactive_returned: count,
          shadow_hosts: 0,
          shadow_hosts_pierced: 0,
          canvases: 0,
          child_frames: 0,
          mutation_race: false,
        },
      },
    },
    consistency: {
      consistent: true,
      attempts: 1,
      start_revision: revision,
      end_revision: revision,
      start_mutation_revision: 0,
      end_mutation_revision: 0,
    },
    boundaries: {
      scanned_elements: elementCount(dom),
      scan_limit: 512,
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
      viewport: {
        scroll_x: 0,
        scroll_y: 0,
        width: VIEWPORT.width,
        height: VIEWPORT.height,
        document_width: VIEWPORT.documentWidth,
        document_height: VIEWPORT.documentHeight,
      },
    },
  };
  if (payload.includeDom === true) context.dom = dom;
  if (payload.includeScreenshot === true) context.image = screenshotImage(page).image;
  return context;
}

/**
 * observe: a semantic observation at the asked level (of one region with `region`), or the page
 * context without one. What the daemon refuses without saying why fails the same way: a level with
 * the DOM, a screenshot or form values; form values with either; a region without a level, or one
 * the page does not have.
 */
export function observe(site: SiteContext, payload: BrowserObservePayload): ResultOf<"browser.observe"> {
  const { level, region, includeDom, includeScreenshot, includeFormValues } = payload;
  if (level !== undefined) {
    if (includeDom === true || includeScreenshot === true || includeFormValues === true)
      throw toolFailed("semantic observation cannot be combined with DOM, screenshot, or form values");
    if (region === undefined) return observePage(site, level).observation;
    const scoped = observeRegion(site, level, region);
    if (scoped === undefined)
      throw toolFailed(`region ${JSON.stringify(region)} is not present at revision ${site.state.revision}`);
    return scoped;
  }
  if (region !== undefined) throw toolFailed("semantic region expansion requires an explicit level");
  if (includeFormValues === true && (includeDom === true || includeScreenshot === true))
    throw toolFailed("form values may only be combined with default compact observe");
  return pageContext(site, payload);
}

/**
 * inspectPage: a structured observation's page, revision, regions and limits; no focused target,
 * no alerts (the daemon reports neither); keys in the daemon's sorted order.
 */
export function inspectPage(site: SiteContext): ResultOf<"browser.inspectPage"> {
  const { observation } = observePage(site, "structured");
  const { page, revision, regions, limits } = observation;
  return sortedKeys({
    page,
    revision,
    regions,
    limits,
    focusedTarget: null,
    alerts: [],
    detailAvailability: site.detailAvailability(),
  });
}

/** getText: the page's text as Chromium's `innerText` gives it. */
export function getText(site: SiteContext): ResultOf<"browser.getText"> {
  return { text: site.page().text };
}

/** getDOM: the page's DOM tree. */
export function getDOM(site: SiteContext): ResultOf<"browser.getDOM"> {
  return domTree(site.page(), site.state, site.orders);
}

/** A small solid-colour PNG of the page (its colour tells the pages apart). */
function screenshotImage(page: SitePage): {
  image: { data: string; mimeType: string };
  bytes: number;
  width: number;
  height: number;
} {
  const width = 64;
  const height = 40;
  const png = solidPng(width, height, PAGE_COLOURS[page.path] ?? [204, 0, 0]);
  return { image: { data: png.base64, mimeType: "image/png" }, bytes: png.bytes, width, height };
}

/** screenshot: the capture's metadata and a real (small) PNG of the page. */
export function screenshot(site: SiteContext): ResultOf<"browser.screenshot"> {
  const { image, bytes, width, height } = screenshotImage(site.page());
  return {
    format: "png",
    width,
    height,
    encoded_bytes: bytes,
    device_scale_factor: 1,
    scale: 1,
    full_page: false,
    target_id: TARGET_ID,
    frame_id: FRAME_ID,
    image,
  };
}
