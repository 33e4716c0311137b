import { execFileSync } from "node:child_process";
import { ROOT } from "./paths.js";

/** The commit measured and how many files differ from it. */
export function gitState(): { commit: string; changedFiles: number } {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const changed = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((line) => line !== "").length;
    return { commit, changedFiles: changed };
  } catch {
    return { commit: "unknown", changedFiles: -1 };
  }
}
