import type { BrowserDetailAvailability, BrowserRoute } from "../../../generated/types/operations/browser-results.js";
import { mockError } from "../handlers.js";
import { elementsOf, renderPage, type SimulatedOrder, type SimulatedSiteState, type SiteElement, type SitePage, type SiteRegion } from "./pages.js";

/** The tab and frame every result of the simulated site names. */
export const TARGET_ID = "tab-1";
export const FRAME_ID = "frame-main";

/** The fixed epoch the simulated site's result ids carry, so that results are deterministic. */
const RESULT_EPOCH_MS = 1_700_000_000_000;

/**
 * The simulated site's state and what every handler derives from it: the current page, the route,
 * element references, counters for execution and result ids. One per site; handlers share it.
 */
export class SiteContext {
  readonly state: SimulatedSiteState;
  readonly orders: readonly SimulatedOrder[];
  /** The site's origin (`https://shop.example`). */
  readonly origin: string;
  private executions = 0;
  private results = 0;

  constructor(state: SimulatedSiteState, orders: readonly SimulatedOrder[], origin: string) {
    this.state = state;
    this.orders = orders;
    this.origin = origin;
  }

  /** The page the current state shows. */
  page(): SitePage {
    return renderPage(this.state, this.orders, this.origin);
  }

  /** Where the page is: the tab, the frame and the URL. */
  route(): BrowserRoute {
    return { targetId: TARGET_ID, frameId: FRAME_ID, url: this.state.url };
  }

  /** The element reference of an element at the current revision (`r4:b2`). */
  reference(element: SiteElement): string {
    return `r${this.state.revision}:b${element.node}`;
  }

  /** A projected result's `detailAvailability`, with a deterministic result id. */
  detailAvailability(): BrowserDetailAvailability {
    this.results += 1;
    return { resultId: `mcp_${RESULT_EPOCH_MS}_${this.results}`, detailsAvailable: true, detailsTruncated: false };
  }

  /** The id of the next successful mutation (`exec-1`, `exec-2`, …). */
  nextExecutionId(): string {
    this.executions += 1;
    return `exec-${this.executions}`;
  }

  /**
   * Refuses a mutation planned against another revision, as the daemon does: `staleRevision`
   * (nothing ran; observe again before acting). Absent means unchecked.
   */
  checkRevision(expectedRevision: number | null | undefined): void {
    if (expectedRevision === undefined || expectedRevision === null || expectedRevision === this.state.revision) return;
    throw mockError("staleRevision", `expected revision ${expectedRevision} but the page is at revision ${this.state.revision}; observe again before acting`);
  }

  /** Moves the page to its next revision (every mutation does, once). */
  advance(): void {
    this.state.revision += 1;
  }

  /**
   * The element a target names on the current page, in the daemon's locator forms: a reference
   * (`ref=r4:b2` or `r4:b2`; the element's node decides, so a reference of an earlier revision of
   * the same page still names it), `css=` with a selector of the forms `#id`, `tag`, `tag#id` or
   * `tag[type=value]` (`button[type=submit]` is the form's submit button), `name=<accessible name>`,
   * `text=<text>`, `role=<role>;name=<accessible name>`, or a bare accessible name. Anything else,
   * or an element that is not on the page, fails with the targeting error `target.notFound`.
   */
  resolveTarget(target: string): { element: SiteElement; region: SiteRegion } {
    const all = elementsOf(this.page());
    const found = all.find(({ element }) => matchesLocator(element, target.trim()));
    if (found !== undefined) return found;
    throw mockError("target.notFound", `no element on ${this.page().path} matches ${JSON.stringify(target)}; observe the page for current references`, {
      details: { kind: "target", code: "target.notFound", target },
    });
  }
}

/** Whether `element` is the one a locator (see {@link SiteContext.resolveTarget}) names. */
function matchesLocator(element: SiteElement, locator: string): boolean {
  const reference = /^(?:ref=)?r\d+:(?:c[\w-]+:)?b(\d+)$/.exec(locator);
  if (reference !== null) return element.node === Number(reference[1]);
  if (locator.startsWith("css=") || locator.startsWith("#")) return matchesSelector(element, locator.replace(/^css=/, ""));
  if (locator.startsWith("role=")) {
    const [role, name] = locator.slice("role=".length).split(";name=");
    return name !== undefined && element.role === role && element.name === name;
  }
  const name = locator.replace(/^(?:name|text)=/, "");
  return name !== "" && element.name === name;
}

/** Whether `element` matches a CSS selector of the forms `#id`, `tag`, `tag#id`, `tag[type=value]`. */
function matchesSelector(element: SiteElement, selector: string): boolean {
  const parts = /^([a-z]*)(?:#([\w-]+))?(?:\[type=["']?([\w-]+)["']?\])?$/.exec(selector);
  if (parts === null || selector === "") return false;
  const [, tag, id, type] = parts;
  if (tag !== "" && tag !== element.tag) return false;
  if (id !== undefined && id !== element.key) return false;
  if (type !== undefined) return type === "submit" ? element.onClick?.kind === "submitSignIn" : element.inputType === type;
  return true;
}
