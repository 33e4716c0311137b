import type { BrowserDetailAvailability, BrowserRoute } from "../../../generated/types/operations/browser-results.js";
import { mockError } from "../handlers.js";
import { renderPage, type SimulatedOrder, type SimulatedSiteState, type SiteElement, type SitePage } from "./pages.js";

/**
 * The tab every result of the simulated site names, in Chromium's form (32 upper-case hex digits);
 * the main frame's id is the tab's, as Chromium gives it.
 */
export const TARGET_ID = "A4FCEBC0B12B6BC961B675ACA8EDA1D0";
export const FRAME_ID = TARGET_ID;

/** The fixed epoch the simulated site's result ids carry, so that results are deterministic. */
const RESULT_EPOCH_MS = 1_700_000_000_000;

/** 32 bits of FNV-1a over `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A version-4-shaped UUID, the same for the same seed: the id of one loaded document, which the
 * daemon writes into every reference (`r<revision>:c<uuid>:b<node>`).
 */
export function documentUuid(seed: string): string {
  const hex = [0, 1, 2, 3].map((part) => fnv1a(`${part}:${seed}`).toString(16).padStart(8, "0")).join("");
  const variant = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The simulated site's state and what every handler derives from it: the current page, the route,
 * element references, the execution ids of action attempts, result ids. One per site; handlers
 * share it.
 */
export class SiteContext {
  readonly state: SimulatedSiteState;
  readonly orders: readonly SimulatedOrder[];
  /** The site's origin (`https://shop.example`). */
  readonly origin: string;
  #executions = 0;
  #results = 0;

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

  /** The id of the loaded document (a new one on every navigation). */
  documentId(): string {
    return documentUuid(`${this.origin}#${this.state.documents}`);
  }

  /** The reference of an element at the current revision, in the daemon's form: `r12:c<document>:b4`. */
  reference(element: SiteElement): string {
    return `r${this.state.revision}:c${this.documentId()}:b${element.node}`;
  }

  /** A projected result's `detailAvailability`, with a deterministic result id. */
  detailAvailability(): BrowserDetailAvailability {
    this.#results += 1;
    return { detailsAvailable: true, detailsTruncated: false, resultId: `mcp_${RESULT_EPOCH_MS}_${this.#results}` };
  }

  /**
   * The id of the next action attempt, as the daemon numbers them (`act_1`, `act_2`, …): every
   * click, keystroke, typing (a type with a target clicks it first: two), fill, a navigation that
   * names `expectedRevision`, and every attempt refused for a stale revision.
   */
  nextExecutionId(): string {
    this.#executions += 1;
    return `act_${this.#executions}`;
  }

  /**
   * Refuses a mutation planned against another revision, as the daemon does: `staleRevision`
   * (nothing ran; observe again before acting), the refused attempt numbered like any other.
   * Absent means unchecked.
   */
  checkRevision(expectedRevision: number | null | undefined): void {
    if (expectedRevision === undefined || expectedRevision === null || expectedRevision === this.state.revision) return;
    const currentRevision = this.state.revision;
    const details = {
      kind: "stale_revision",
      phase: "preflight",
      recoveryStrategy: "report",
      executionId: this.nextExecutionId(),
      expectedRevision,
      currentRevision,
      recovery: "observe",
    };
    throw mockError(
      "staleRevision",
      `expected revision ${expectedRevision} but the page is at revision ${currentRevision}; observe again before acting`,
      {
        phase: "preflight",
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        retryable: true,
        details,
      },
    );
  }

  /** Moves the page to its next revision (every mutation does, once). */
  advance(): void {
    this.state.revision += 1;
  }

  /** Loads the page at `url`: a new document, nothing focused. */
  load(url: string): void {
    this.state.url = url;
    this.state.documents += 1;
    this.state.focused = null;
    this.state.values = {};
    this.state.alert = null;
  }
}
