/**
 * When an operation needs a mutation lease (§4 of the protocol): always (`"required"`), never
 * (`"none"`, read-only), or depending on a field of its payload.
 */
export type LeaseRequirement =
  | "required"
  | "none"
  | { readonly requiredWhen: LeaseCondition }
  | { readonly requiredUnless: LeaseCondition };

/** A payload field (dotted path, e.g. `task.task`) and the values the condition matches. */
export interface LeaseCondition {
  readonly field: string;
  readonly in: readonly string[];
}

/** What the SDK knows about one catalog operation. */
export interface OperationDescriptor {
  /** Canonical Glass operation name, e.g. `browser.click`. */
  readonly operation: string;
  /** MCP tool name, e.g. `click`. */
  readonly tool: string;
  /** The client namespace the typed method lives in (`browser`, `webIr`, `task`). */
  readonly namespace: string;
  /** The typed method's name within its namespace (`click`, `diff`). */
  readonly method: string;
  /** Whether the operation needs a mutation lease. */
  readonly lease: LeaseRequirement;
  /** Whether the payload accepts `expectedRevision`. */
  readonly expectedRevision: boolean;
  /** Whether sending it twice cannot repeat a side effect, so the client may retry it. */
  readonly retrySafe: boolean;
  /** The capability the daemon must agree to for this operation, when there is one. */
  readonly capability?: string;
  /**
   * Present when the daemon answers with plain text rather than JSON (`getText`): the client lifts
   * that text to the result `{text}` without parsing it.
   */
  readonly resultText?: true;
}
