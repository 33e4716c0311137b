import { CancelledError } from "../errors/error-classes.js";

/** Waits `ms`, or rejects with a CancelledError as soon as `signal` aborts. Leaves no timer behind. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new CancelledError({ message: "the call was aborted while waiting to retry" }));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError({ message: "the call was aborted while waiting to retry" }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
