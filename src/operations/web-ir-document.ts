// The Web IR v1 document inside an answer that carries one with members of its own (what
// browser.extractWebIr returns), as the webIr.* operations and task.compile take a document.

import type { WebIrDocument, WebIrDocumentContent } from "../../generated/types/web-ir-v1.js";

/**
 * The members of a Web IR v1 document, each once: the type makes it name every member of
 * WebIrDocument and no other, so a member the schema gains must be added here.
 */
export const DOCUMENT_MEMBERS = Object.keys({
  schemaVersion: true,
  revision: true,
  document: true,
  entities: true,
  relationships: true,
  coverage: true,
  limits: true,
  entityDetails: true,
  surfaceSet: true,
  diagnostics: true,
  relationshipHintDiagnostics: true,
} satisfies Record<keyof WebIrDocument, true>) as (keyof WebIrDocument)[];

/**
 * The Web IR v1 document in an answer that carries one, as the webIr.* operations and
 * task.compile take it: a new object with the document's own members only. What
 * `glass.browser.extractWebIr()` resolves to is the document plus `detailAvailability` (where the
 * daemon keeps the full result), and the SDK checks a document it sends as a closed object, so
 * that member (and any other the document does not have) is left behind. A member the answer
 * lacks stays absent (`diagnostics` in the `minimal` response mode). The members' values are the
 * answer's own, not copies.
 *
 * @param extracted - An answer carrying a Web IR v1 document, such as the result of
 *   `glass.browser.extractWebIr()`; a plain document is returned as a copy of itself.
 * @returns The document, ready for `ir`, `before` and `after`.
 *
 * @example
 * ```ts
 * import { type Glass, type TaskDocument, webIrDocument } from "glass-sdk";
 *
 * declare const glass: Glass;
 * declare const task: TaskDocument;
 *
 * const ir = webIrDocument(await glass.browser.extractWebIr());
 * const inspected = await glass.webIr.inspect({ ir });
 * const { plan } = await glass.task.compile({ task, ir });
 * // …the page changes…
 * const after = webIrDocument(await glass.browser.extractWebIr());
 * const changes = await glass.webIr.diff({ before: ir, after });
 * ```
 */
export function webIrDocument(extracted: WebIrDocumentContent | WebIrDocument): WebIrDocument {
  const document: Record<string, unknown> = {};
  for (const member of DOCUMENT_MEMBERS) {
    if (Object.hasOwn(extracted, member) && extracted[member] !== undefined) document[member] = extracted[member];
  }
  return document as unknown as WebIrDocument;
}
