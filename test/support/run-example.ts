import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** How an example script ended. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an example script of examples/ (`tsx examples/<script>`) from the repository's root, as a
 * newcomer would, with `args` and extra environment, killed after `timeoutMs` (default 25 s). GLASS_SOCKET and GLASS_COMMAND are removed
 * unless given, so a daemon set for everyday use is never reached.
 */
export function runExample(
  script: string,
  options: { args?: readonly string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ExampleRun> {
  const extra = options.env ?? {};
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (extra.GLASS_COMMAND === undefined) delete env.GLASS_COMMAND;
  if (extra.GLASS_SOCKET === undefined) delete env.GLASS_SOCKET;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", `examples/${script}`, ...(options.args ?? [])],
      { cwd: ROOT, env, timeout: options.timeoutMs ?? 25_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
