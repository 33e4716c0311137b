import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeWithin, forEachOption, splitAtSeparator, writePidFile } from "../../src/cli/command-line.js";
import { UsageError } from "../../src/cli/usage.js";

/** The options of `args` as [name, value or "flag"] pairs. */
function read(args: string[], flags: readonly string[] = []): [string, string][] {
  const out: [string, string][] = [];
  forEachOption(args, (option) => {
    if (flags.includes(option.name)) {
      option.flag();
      out.push([option.name, "flag"]);
    } else out.push([option.name, option.value()]);
  });
  return out;
}

describe("forEachOption", () => {
  it("reads --name value and --name=value, a value taking the next argument", () => {
    expect(read(["--port", "8787", "--host=127.0.0.1", "--quiet", "--fixture", "a=b.json"], ["--quiet"])).toEqual([
      ["--port", "8787"],
      ["--host", "127.0.0.1"],
      ["--quiet", "flag"],
      ["--fixture", "a=b.json"],
    ]);
  });

  it("refuses a missing or empty value, and a value given to a flag, with a UsageError naming the option", () => {
    expect(() => read(["--port"])).toThrow(new UsageError("--port needs a value"));
    expect(() => read(["--port="])).toThrow(new UsageError("--port needs a value"));
    expect(() => read(["--quiet=yes"], ["--quiet"])).toThrow(new UsageError("--quiet takes no value"));
  });

  it("splits only an argument starting with -- at its =", () => {
    const names: string[] = [];
    forEachOption(["-x=1", "plain=2"], (option) => names.push(option.name));
    expect(names).toEqual(["-x=1", "plain=2"]);
  });
});

describe("splitAtSeparator", () => {
  it("splits at the first --, and says when there is none", () => {
    expect(splitAtSeparator(["--port", "1", "--", "node", "--", "x"])).toEqual({
      own: ["--port", "1"],
      rest: ["node", "--", "x"],
    });
    expect(splitAtSeparator(["--port", "1"])).toEqual({ own: ["--port", "1"], rest: undefined });
    expect(splitAtSeparator(["--"])).toEqual({ own: [], rest: [] });
  });
});

describe("closeWithin", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves when the close does, leaving no timer", async () => {
    vi.useFakeTimers();
    await closeWithin(async () => undefined, 1_000, "the server");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects naming what did not close once the time is up", async () => {
    vi.useFakeTimers();
    const closing = closeWithin(() => new Promise<void>(() => undefined), 1_000, "the bridge");
    const outcome = expect(closing).rejects.toThrow("the bridge did not close within 1000 ms; exiting anyway");
    await vi.advanceTimersByTimeAsync(1_000);
    await outcome;
  });

  it("passes on the close's own failure", async () => {
    await expect(closeWithin(() => Promise.reject(new Error("EBUSY")), 1_000, "x")).rejects.toThrow("EBUSY");
  });
});

describe("writePidFile", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("writes this process's pid, readable by this user only, and removes the file again", () => {
    dir = mkdtempSync(join(tmpdir(), "glass-pid-"));
    const path = join(dir, "daemon.pid");
    const remove = writePidFile(path);
    expect(readFileSync(path, "utf8").trim()).toBe(String(process.pid));
    if (process.platform !== "win32") expect(statSync(path).mode & 0o077).toBe(0);
    remove();
    expect(() => statSync(path)).toThrow();
  });

  it("leaves a file that another process has since written", () => {
    dir = mkdtempSync(join(tmpdir(), "glass-pid-"));
    const path = join(dir, "daemon.pid");
    const remove = writePidFile(path);
    writeFileSync(path, "12345\n");
    remove();
    expect(readFileSync(path, "utf8")).toBe("12345\n");
  });
});
