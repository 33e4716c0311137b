/**
 * Setup of the "compact-validators" vitest project: makes sure its alias took effect, so the
 * validator tests really ran against generated/validators-compact/ (the compiled validators are
 * named functions; the compact ones are wrappers without a name).
 */
import { payloadValidators, validateGlassRequest } from "../../generated/validators/index.js";

if (validateGlassRequest.name !== "" || payloadValidators["browser.click"]?.name !== "") {
  throw new Error(
    "compact-validators project: generated/validators/index.js was not replaced by generated/validators-compact/index.ts",
  );
}
