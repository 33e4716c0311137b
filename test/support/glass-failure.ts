import { GlassError } from "glass-sdk";
import { expect } from "vitest";

/** Resolves with the GlassError a call failed with; fails the test if the call succeeded or threw anything else. */
export function failure(promise: Promise<unknown>): Promise<GlassError> {
  return promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(GlassError);
      return error as GlassError;
    },
  );
}
