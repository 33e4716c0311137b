import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import { type MockError, mockError } from "../handlers.js";
import { resolveTarget, toolFailed } from "./locators.js";
import { observePage } from "./semantic.js";
import { FRAME_ID, type SiteContext, TARGET_ID } from "./site-context.js";

/** A wait condition as the daemon parses `<kind>=<value>`: what it reports as the condition, and how it checks the page. */
interface Condition {
  readonly description: string;
  /** Whether it holds, and the state it saw. */
  check(site: SiteContext): { holds: boolean; state: string };
}

/** Whether a target resolves, and how the daemon words that (`detached` when nothing matches). */
function targetState(
  site: SiteContext,
  target: string,
  want: "attached" | "visible" | "hidden" | "enabled" | "stable",
): { holds: boolean; state: string } {
  try {
    resolveTarget(site, target);
  } catch (error) {
    if ((error as MockError).code === "target.notFound") return { holds: want === "hidden", state: "detached" };
    throw error;
  }
  if (want === "attached") return { holds: true, state: "attached" };
  return { holds: want !== "hidden", state: JSON.stringify({ visible: true, enabled: true }) };
}

/** The condition a wait names, or the daemon's refusal (it fails without saying why). */
function parseCondition(text: string): Condition {
  const at = text.indexOf("=");
  if (at < 0) throw toolFailed("wait condition must use <kind>=<value>");
  const [kind, value] = [text.slice(0, at), text.slice(at + 1)];
  if (value === "") throw toolFailed("wait condition value cannot be empty");
  const url = (site: SiteContext): string => site.state.url;
  switch (kind) {
    case "lifecycle":
      if (!["load", "domcontentloaded", "complete"].includes(value))
        throw toolFailed("unsupported lifecycle wait value");
      return { description: "lifecycle", check: () => ({ holds: value !== "domcontentloaded", state: "complete" }) };
    case "url":
      return { description: "url_exact", check: (site) => ({ holds: url(site) === value, state: url(site) }) };
    case "url-prefix":
      return { description: "url_prefix", check: (site) => ({ holds: url(site).startsWith(value), state: url(site) }) };
    case "text":
      return {
        description: "text",
        check: (site) => ({
          holds: site.page().text.includes(value),
          state: `present=${site.page().text.includes(value)}`,
        }),
      };
    case "semantic-region":
      return {
        description: "semantic_region",
        check: (site) => {
          const ready = observePage(site, "interactive").observation.regions.some(
            (region) => region.id === value && (region.targets ?? []).length > 0,
          );
          return { holds: ready, state: `region=${value};ready=${ready}` };
        },
      };
    case "target-attached":
    case "target-visible":
    case "target-hidden":
    case "target-enabled":
    case "target-stable": {
      const want = kind.slice("target-".length) as "attached" | "visible" | "hidden" | "enabled" | "stable";
      return { description: `target_${want}`, check: (site) => targetState(site, value, want) };
    }
    case "network-quiet": {
      const quiet = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!(quiet >= 1 && quiet <= 300_000))
        throw toolFailed("network quiet duration must be between 1 ms and 300000 ms");
      return { description: "network_quiet", check: () => ({ holds: true, state: "in_flight=0" }) };
    }
    case "js":
      throw mockError(
        "mock.unsupportedCondition",
        "the simulated site cannot evaluate JavaScript: wait for text=, url=, url-prefix=, lifecycle=, semantic-region= or a target-… condition",
      );
    default:
      throw toolFailed("unknown wait condition kind");
  }
}

/**
 * wait: the condition checked against the page as it is — the simulated page does not change by
 * itself, so a condition holds at once or never, and one that does not hold fails as the daemon's
 * wait does when its time is up (`wait.timeout`, with the last state it saw and the page).
 */
export function wait(site: SiteContext, payload: PayloadOf<"browser.wait">): ResultOf<"browser.wait"> {
  const condition = parseCondition(String(payload.condition));
  const { holds, state } = condition.check(site);
  const deadline = payload.timeoutMs ?? 10_000;
  if (!holds) {
    const page = site.page();
    const observed = {
      url: site.state.url,
      title: page.title,
      ready_state: "complete",
      target_id: TARGET_ID,
      frame_id: FRAME_ID,
    };
    throw mockError(
      "wait.timeout",
      `the ${condition.description} condition did not hold within ${deadline} ms (last state: ${state})`,
      {
        details: {
          condition: condition.description,
          deadline_ms: deadline,
          last_state: state,
          observed_page: observed,
          reason: "deadline_exceeded",
        },
      },
    );
  }
  return {
    condition: condition.description,
    elapsed_ms: 0,
    last_state: state,
    target_id: TARGET_ID,
    frame_id: FRAME_ID,
  };
}
