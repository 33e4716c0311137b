import { readFileSync } from "node:fs";

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that the summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Self time of one function (or one file), in ms and as a share of the sampled time. */
export interface Hotspot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** A profile summed up: self time by function and by file, and the total sampled. */
export interface ProfileSummary {
  totalMs: number;
  /** Sampled time not spent idle (the share's denominator). */
  busyMs: number;
  functions: Hotspot[];
  files: Hotspot[];
}

/**
 * Sums a `.cpuprofile` by self time: each sample's time delta goes to the function that was on top
 * of the stack. Functions are keyed by name, file and line; files by URL (paths relative to `root`,
 * node_modules packages by package). `(idle)`, `(program)` and `(garbage collector)` stay as V8 names them.
 * Only samples inside `window` (µs on the profile's clock, `process.hrtime` / 1000) count, when given.
 * Shares are of the busy (non-idle) time.
 */
export function summarizeProfile(
  path: string,
  root: string,
  window?: readonly [number, number],
  top = 25,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, Hotspot>();
  const files = new Map<string, Hotspot>();
  let totalUs = 0;
  let idleUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window !== undefined && (at < window[0] || at > window[1])) return;
    totalUs += delta;
    const frame = byId.get(id)!.callFrame;
    const file = shortUrl(frame.url, root);
    const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
    if (name === "(idle)") idleUs += delta;
    const key = `${name}\u0000${file}\u0000${frame.lineNumber}`;
    const fn = functions.get(key) ?? {
      name,
      where: file === "" ? "" : `${file}:${frame.lineNumber + 1}`,
      selfMs: 0,
      share: 0,
    };
    fn.selfMs += delta / 1000;
    functions.set(key, fn);
    const fileKey = file === "" ? name : file;
    const entry = files.get(fileKey) ?? { name: fileKey, where: "", selfMs: 0, share: 0 };
    entry.selfMs += delta / 1000;
    files.set(fileKey, entry);
  });
  const totalMs = totalUs / 1000;
  const busyMs = (totalUs - idleUs) / 1000;
  const ranked = (map: Map<string, Hotspot>): Hotspot[] =>
    [...map.values()]
      .filter((h) => h.name !== "(idle)")
      .map((h) => ({ ...h, selfMs: Number(h.selfMs.toFixed(1)), share: Number((h.selfMs / busyMs).toFixed(4)) }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top);
  return { totalMs, busyMs, functions: ranked(functions), files: ranked(files) };
}

function shortUrl(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, "");
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (inPackage !== null) return `${inPackage[1]}/${inPackage[2]}`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}
