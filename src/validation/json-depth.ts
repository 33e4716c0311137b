import { joinIndex, joinPath } from "./issue.js";

/**
 * The deepest nesting of arrays and objects the SDK reads from a peer: 512 levels (`[]` is one
 * level, `[[]]` two). The protocol's documents and typed results nest fewer than 12 levels; the
 * only open-ended nesting is a DOM tree (`getDOM`, `observe` with `includeDom`), two levels per
 * element, so 512 levels hold a tree 250 elements deep, far deeper than real pages. Below the
 * bound every recursive walk of the SDK (the validators, compiled and compact, `JSON.stringify` of
 * details) uses well under a third of the default call stack; a value past it is refused before
 * anything walks it (an answer becomes `response.invalid`).
 */
export const MAX_JSON_DEPTH = 512;

/** How much of the path to a too-deep place an issue quotes. */
const MAX_PATH_LENGTH = 200;

/**
 * Whether a value nests arrays and objects more than `maxDepth` levels deep (a cycle counts as too
 * deep). Iterative, so it cannot exhaust the stack itself; reads each container once and stops at
 * the first place past the bound. Never throws for JSON (a throwing getter on a non-JSON value
 * propagates).
 */
export function nestsDeeperThan(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== "object") return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const container = values.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const item: unknown = container[i];
        if (item !== null && typeof item === "object") {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in container) {
        const item: unknown = (container as Record<string, unknown>)[key];
        if (item !== null && typeof item === "object") {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/**
 * Where a value first nests more than `maxDepth` levels deep: the path of the container past the
 * bound under `root` (`result.deep[0][0]…`, cut to 200 characters), or `undefined` when it does
 * not. Iterative, like {@link nestsDeeperThan}, which it calls first: the path is only worked out
 * for a value that is too deep.
 */
export function pathPastDepth(value: unknown, root = "", maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  if (!nestsDeeperThan(value, maxDepth)) return undefined;
  // Depth-first with one frame per open container: the frames spell the path of the first
  // container found past the bound.
  const frames: {
    keys: string[] | number;
    next: number;
    container: Record<string, unknown> | unknown[];
    path: string;
  }[] = [];
  const open = (container: object, path: string): void => {
    frames.push({
      keys: Array.isArray(container) ? container.length : Object.keys(container),
      next: 0,
      container: container as Record<string, unknown>,
      path,
    });
  };
  open(value as object, root);
  while (frames.length > 0) {
    if (frames.length > maxDepth) return cutPath(frames[frames.length - 1]!.path);
    const frame = frames[frames.length - 1]!;
    const count = typeof frame.keys === "number" ? frame.keys : frame.keys.length;
    if (frame.next >= count) {
      frames.pop();
      continue;
    }
    const at = frame.next++;
    const key = typeof frame.keys === "number" ? at : frame.keys[at]!;
    const item: unknown = (frame.container as Record<string | number, unknown>)[key];
    if (item === null || typeof item !== "object") continue;
    const path =
      frame.path.length > MAX_PATH_LENGTH
        ? frame.path
        : typeof key === "number"
          ? joinIndex(frame.path, key)
          : joinPath(frame.path, key.slice(0, MAX_PATH_LENGTH));
    open(item, path);
  }
  return cutPath(root);
}

function cutPath(path: string): string {
  return path.length <= MAX_PATH_LENGTH ? path : `${path.slice(0, MAX_PATH_LENGTH)}…`;
}

/** The reason an issue gives for a value nested past the bound. */
export const TOO_DEEP_REASON = `is nested too deeply: more than ${MAX_JSON_DEPTH} levels of arrays and objects, deeper than any Glass message`;
