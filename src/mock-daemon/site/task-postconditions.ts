import type { TaskPlan, TaskPostconditionOutcome } from "../../../generated/types/operations/task.js";
import { observePage } from "./semantic.js";
import type { SiteContext } from "./site-context.js";

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Whether `entity.state=value` holds: exactly one target of the page is named `entity`, and its
 * `disabled`, `readOnly`, `required`, `checked` or `empty` is the value.
 */
function entityStateHolds(targets: readonly Record<string, unknown>[], expected: string): boolean {
  const at = expected.lastIndexOf("=");
  const dot = expected.lastIndexOf(".", at);
  if (at < 0 || dot < 0 || !["true", "false"].includes(expected.slice(at + 1))) return false;
  const [name, state, value] = [expected.slice(0, dot), expected.slice(dot + 1, at), expected.slice(at + 1) === "true"];
  const matching = targets.filter((target) => same(String(target.name ?? ""), name));
  return (
    matching.length === 1 &&
    ["disabled", "readOnly", "required", "checked", "empty"].includes(state) &&
    matching[0]?.[state] === value
  );
}

/**
 * The plan's postconditions checked as the daemon checks them after a run that succeeded, on a
 * fresh observation: validationClear (no alert region), regionPresent (a region of that label),
 * navigationOccurred (the page moved past the run's source revision), pageKind, dialogClosed (no
 * JavaScript dialog: the shop opens none), recordsExtracted (an extraction, with at least
 * `expected` items) and entityState.
 */
export function taskPostconditions(
  site: SiteContext,
  plan: TaskPlan,
  sourceRevision: number,
  extractedItems: number | undefined,
): { outcomes: TaskPostconditionOutcome[]; held: boolean } {
  const { observation } = observePage(site, "structured");
  const targets = observation.regions.flatMap((region) => region.targets ?? []) as unknown as Record<string, unknown>[];
  const holds = (kind: string, expected: unknown): boolean => {
    const wanted = typeof expected === "string" ? expected : undefined;
    switch (kind) {
      case "validationClear":
        return !observation.regions.some((region) => region.kind === "alert");
      case "regionPresent":
        return wanted !== undefined && observation.regions.some((region) => same(region.label, wanted));
      case "navigationOccurred":
        return site.state.revision > sourceRevision;
      case "pageKind":
        return wanted === undefined || same(observation.page.kind, wanted);
      case "dialogClosed":
        return true;
      case "recordsExtracted":
        return (
          extractedItems !== undefined &&
          (wanted === undefined || (/^\d+$/.test(wanted) && extractedItems >= Number(wanted)))
        );
      case "entityState":
        return wanted !== undefined && entityStateHolds(targets, wanted);
      default:
        return false;
    }
  };
  const outcomes = (plan.postconditions ?? []).map(
    ({ kind, expected }): TaskPostconditionOutcome => ({
      kind: kind as TaskPostconditionOutcome["kind"],
      held: holds(kind, expected),
    }),
  );
  return { outcomes, held: outcomes.every((outcome) => outcome.held) };
}
