import { intentExecutionValue } from "./intent-execution.js";
import { leaseSessionMatches } from "./lease-session.js";
import { taskFamilyRequirements } from "./task.js";
import { webIrDocumentConsistency, webIrRevisionOrder } from "./web-ir.js";

/**
 * Cross-field rules the schemas name with `x-rule`. The generated validators call a rule once the
 * structure of the value it guards is valid; a rule pushes its issues and returns `false` when the
 * value breaks it.
 */
export const rules = {
  leaseSessionMatches,
  webIrDocumentConsistency,
  webIrRevisionOrder,
  taskFamilyRequirements,
  intentExecutionValue,
};
