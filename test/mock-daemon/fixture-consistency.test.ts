import { readFileSync } from "node:fs";
import { describe, it, expect } from "vitest";
import type { ValidationIssue } from "../../src/validation/issue.js";
import { leaseSessionMatches } from "../../src/validation/rules/lease-session.js";
import { taskFamilyRequirements } from "../../src/validation/rules/task.js";
import { jsonEqual, webIrDocumentConsistency, webIrRevisionOrder } from "../../src/validation/rules/web-ir.js";

/*
 * Checks our golden fixture against itself: every response answers a request, every request is a
 * valid envelope (§1), every invalid response breaks exactly one §1 response rule, the success
 * results are right for the documents sent, and every typed validation error (the daemon's, as
 * glass-browser 0.3.14 answered) is the first issue our rules find in the request's document(s).
 */

type Json = any; // fixture data: the tests below check its shape

const fixture: Json = JSON.parse(
  readFileSync(new URL("../../fixtures/protocol-golden-v1.json", import.meta.url), "utf8"),
);
const requests: Json[] = fixture.requests;
const responses: Json[] = fixture.responses;
const invalidResponses: Json[] = fixture.invalidResponses;
const requestById = new Map<string, Json>(requests.map((request) => [request.requestId, request]));

// ---- §1 envelope rules, written out independently of the (future) generated validators ----

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");
/** What is wrong with an identifier, or undefined when it is valid. */
function identifierProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0) return "not a non-empty string";
  if (bytes(value) > 128) return "over 128 UTF-8 bytes";
  if (/[\p{White_Space}\u0000-\u001F\u007F-\u009F]/u.test(value)) return "whitespace or control character";
  return undefined;
}
const isIdentifier = (value: unknown): boolean => identifierProblem(value) === undefined;
const isBoundedText = (value: unknown, max: number): boolean =>
  typeof value === "string" && value.length > 0 && bytes(value) <= max;

/** The §1 request rules a value breaks (empty when it is a valid request envelope). */
function requestViolations(request: Json): string[] {
  const broken: string[] = [];
  const allowed = [
    "protocolVersion",
    "requestId",
    "correlationId",
    "sessionId",
    "mutationLease",
    "operation",
    "payload",
    "deadlineMs",
  ];
  for (const key of Object.keys(request)) if (!allowed.includes(key)) broken.push(`unknown field ${key}`);
  if (request.protocolVersion !== 1) broken.push("protocolVersion");
  if (!isIdentifier(request.requestId)) broken.push("requestId");
  for (const key of ["correlationId", "sessionId"]) if (key in request && !isIdentifier(request[key])) broken.push(key);
  if ("mutationLease" in request) {
    const lease = request.mutationLease;
    const closed =
      typeof lease === "object" &&
      lease !== null &&
      Object.keys(lease).every((k) => k === "sessionId" || k === "token");
    if (!closed || !isIdentifier(lease.sessionId) || !isIdentifier(lease.token)) broken.push("mutationLease");
    else if (!leaseSessionMatches(request, "", [])) broken.push("sessionId must match the lease");
  }
  if (
    !(
      typeof request.operation === "string" &&
      isBoundedText(request.operation, 96) &&
      !/\p{White_Space}/u.test(request.operation)
    )
  ) {
    broken.push("operation");
  }
  if (!("payload" in request)) broken.push("payload");
  if (
    "deadlineMs" in request &&
    !(Number.isInteger(request.deadlineMs) && request.deadlineMs >= 1 && request.deadlineMs <= 900000)
  ) {
    broken.push("deadlineMs");
  }
  return broken;
}

const PHASES = ["preflight", "dispatch", "postDispatch", "verification", "reconciliation"];
const CLASSIFICATIONS = [
  "safeImmediate",
  "safeAfterReobserve",
  "safeAfterReconcile",
  "unsafeUntilReconciled",
  "requiresUserDecision",
  "notRetryable",
  "unknown",
];

/** The §1 response rules a value breaks (empty when it is a valid response envelope). */
function responseViolations(response: Json): string[] {
  const broken: string[] = [];
  if (response.protocolVersion !== 1) broken.push("protocolVersion");
  const requestIdProblem = identifierProblem(response.requestId);
  if (requestIdProblem !== undefined) broken.push(`requestId: ${requestIdProblem}`);
  if ("correlationId" in response && !isIdentifier(response.correlationId)) broken.push("correlationId");
  if (typeof response.ok !== "boolean") broken.push("ok");
  if (response.ok === true && !("result" in response)) broken.push("result required when ok");
  if (response.ok === true && "error" in response) broken.push("error forbidden when ok");
  if (response.ok === false && !("error" in response)) broken.push("error required when not ok");
  if (response.ok === false && "result" in response) broken.push("result forbidden when not ok");
  if ("error" in response) {
    const error = response.error;
    if (!isBoundedText(error.code, 64)) broken.push("error.code");
    if (!isBoundedText(error.message, 512)) broken.push("error.message");
    if ("phase" in error && !PHASES.includes(error.phase)) broken.push("error.phase");
    if ("mutationPossible" in error && typeof error.mutationPossible !== "boolean")
      broken.push("error.mutationPossible");
    if ("retryable" in error && typeof error.retryable !== "boolean") broken.push("error.retryable");
    if (
      "retry" in error &&
      !(CLASSIFICATIONS.includes(error.retry.classification) && isIdentifier(error.retry.recommendedOperation))
    ) {
      broken.push("error.retry");
    }
    if ("details" in error && bytes(JSON.stringify(error.details)) > 16384) broken.push("error.details");
  }
  return broken;
}

// ---- running our rules the way the validators do: each document's (paths restart at its root), ----
// ---- then, for a pair of valid documents, their revision order                                  ----

/** Every rule issue of a browser-free payload, in the order the validators report them. */
function payloadIssues(operation: string, payload: Json): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (operation.startsWith("task.")) taskFamilyRequirements(payload.task, "", out);
  if ("ir" in payload) webIrDocumentConsistency(payload.ir, "", out);
  if ("before" in payload) {
    const valid = webIrDocumentConsistency(payload.before, "", out) && webIrDocumentConsistency(payload.after, "", out);
    if (valid) webIrRevisionOrder(payload, "", out);
  }
  return out;
}

const DETAIL_KINDS: Record<string, { code: string; operations: string[] }> = {
  taskValidation: { code: "task.invalid", operations: ["task.validate"] },
  taskCompilation: { code: "task.invalid", operations: ["task.compile"] },
  webIrValidation: {
    code: "webIr.invalid",
    operations: ["webIr.inspect", "webIr.validate", "webIr.diff", "webIr.continuity"],
  },
};

const typedErrors = responses.filter(
  (response) => response.ok === false && response.error.details?.kind in DETAIL_KINDS,
);
const successes = (operation: string) =>
  responses.filter((response) => response.ok === true && requestById.get(response.requestId)?.operation === operation);

describe("golden fixture: envelopes", () => {
  it("has the upstream format", () => {
    expect(Object.keys(fixture)).toEqual(["schemaVersion", "requests", "responses", "invalidResponses"]);
    expect(fixture.schemaVersion).toBe(1);
  });

  it("has unique request ids and answers every request once", () => {
    expect(requestById.size).toBe(requests.length);
    expect(responses.map((response) => response.requestId).sort()).toEqual([...requestById.keys()].sort());
  });

  it("echoes each request's correlation id", () => {
    for (const response of responses)
      expect(response.correlationId, response.requestId).toBe(requestById.get(response.requestId).correlationId);
  });

  it("sends only valid request envelopes, one of them with a multibyte identifier", () => {
    for (const request of requests) expect(requestViolations(request), request.requestId).toEqual([]);
    expect(
      requests.some((request) =>
        [request.requestId, request.correlationId].some((id) => typeof id === "string" && bytes(id) > id.length),
      ),
    ).toBe(true);
  });

  it("answers with valid response envelopes", () => {
    for (const response of responses) expect(responseViolations(response), response.requestId).toEqual([]);
  });

  it("lists invalid responses that each break exactly one response rule", () => {
    expect(invalidResponses.length).toBeGreaterThanOrEqual(5);
    const broken = invalidResponses.map((response) => responseViolations(response));
    for (const violations of broken) expect(violations).toHaveLength(1);
    expect(new Set(broken.map((violations) => violations[0])).size).toBe(invalidResponses.length);
  });

  it("answers the leased click with a retryable staleRevision error", () => {
    const click = requests.find((request) => request.operation === "browser.click");
    expect(click.mutationLease.sessionId).toBe(click.sessionId);
    expect(responses.find((response) => response.requestId === click.requestId).error).toMatchObject({
      code: "staleRevision",
      retryable: true,
    });
  });

  it("answers the workflow with an execution id", () => {
    const workflow = requests.find((request) => request.operation === "browser.workflow");
    expect(responses.find((response) => response.requestId === workflow.requestId).result.executionId).toEqual(
      expect.any(String),
    );
  });
});

describe("golden fixture: typed validation errors", () => {
  it("covers every detail kind and the three webIr operations that compare or check documents", () => {
    const kinds = new Set(typedErrors.map((response) => response.error.details.kind));
    expect([...kinds].sort()).toEqual(["taskCompilation", "taskValidation", "webIrValidation"]);
    const irOperations = new Set(
      typedErrors
        .filter((response) => response.error.details.kind === "webIrValidation")
        .map((response) => requestById.get(response.requestId).operation),
    );
    expect([...irOperations].sort()).toEqual(["webIr.continuity", "webIr.diff", "webIr.validate"]);
  });

  it("lifts each error as the daemon does", () => {
    for (const response of typedErrors) {
      const kind = DETAIL_KINDS[response.error.details.kind]!;
      expect(kind.operations, response.requestId).toContain(requestById.get(response.requestId).operation);
      expect(response.error, response.requestId).toMatchObject({
        code: kind.code,
        phase: "preflight",
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      });
      expect(Object.keys(response.error.details).sort()).toEqual(["kind", "path", "reason"]);
    }
  });

  it("reports the first issue our rules find in the request's documents (the daemon stops at its first; our rules go on)", () => {
    for (const response of typedErrors) {
      const request = requestById.get(response.requestId);
      const { path, reason } = response.error.details;
      expect(payloadIssues(request.operation, request.payload)[0], response.requestId).toEqual({ path, reason });
    }
  });

  it("breaks one rule in each invalid request, but for the navigation.follow compiled without its url", () => {
    for (const response of typedErrors) {
      const request = requestById.get(response.requestId);
      const issues = payloadIssues(request.operation, request.payload);
      // The daemon reports the entity kind (a link, where navigation.follow works on the page) and
      // stops; our rules also find the url input it lacks.
      const more =
        request.requestId === "compile-task-follow-nourl"
          ? [{ path: "inputs.url", reason: "navigation.follow requires a bounded url input" }]
          : [];
      expect(issues.slice(1), response.requestId).toEqual(more);
    }
  });

  it("uses a different rule in every invalid request", () => {
    const reasons = typedErrors.map((response) => `${response.error.details.path}: ${response.error.details.reason}`);
    expect(new Set(reasons).size).toBe(reasons.length);
  });
});

describe("golden fixture: success results match the documents sent", () => {
  it("sends only documents that pass every rule in its successful browser-free requests", () => {
    for (const response of responses.filter((r) => r.ok === true)) {
      const request = requestById.get(response.requestId);
      if (!/^(webIr|task)\./.test(request.operation)) continue;
      expect(payloadIssues(request.operation, request.payload), response.requestId).toEqual([]);
    }
  });

  it("inspects with the right counts", () => {
    for (const response of successes("webIr.inspect")) {
      const ir = requestById.get(response.requestId).payload.ir;
      const kindCounts: Record<string, number> = {};
      for (const entity of ir.entities) kindCounts[entity.kind] = (kindCounts[entity.kind] ?? 0) + 1;
      expect(response.result).toMatchObject({
        schemaVersion: 1,
        revision: ir.revision,
        entityCount: ir.entities.length,
        relationshipCount: ir.relationships.length,
        coverage: ir.coverage,
        truncated: ir.limits.truncated,
        opaqueRegions: kindCounts.opaqueRegion ?? 0,
        diagnosticCount: ir.diagnostics?.length ?? 0,
        relationshipHintDiagnosticCount: ir.relationshipHintDiagnostics?.length ?? 0,
      });
      if ("entityKindCounts" in response.result) expect(response.result.entityKindCounts).toEqual(kindCounts);
    }
  });

  it("validates with the document's revision", () => {
    for (const response of successes("webIr.validate")) {
      expect(response.result).toEqual({
        valid: true,
        schemaVersion: 1,
        revision: requestById.get(response.requestId).payload.ir.revision,
      });
    }
  });

  it("diffs with the right counts", () => {
    for (const response of successes("webIr.diff")) {
      const { before, after } = requestById.get(response.requestId).payload;
      const byId = (ir: Json) => new Map<string, Json>(ir.entities.map((entity: Json) => [entity.id, entity]));
      const relKeys = (ir: Json) => new Set<string>(ir.relationships.map((r: Json) => `${r.from} ${r.to} ${r.kind}`));
      const [b, a, rb, ra] = [byId(before), byId(after), relKeys(before), relKeys(after)];
      expect(response.result).toEqual({
        schemaVersion: 1,
        fromRevision: before.revision,
        toRevision: after.revision,
        entityAddedCount: [...a.keys()].filter((id) => !b.has(id)).length,
        entityRemovedCount: [...b.keys()].filter((id) => !a.has(id)).length,
        entityChangedCount: [...a.keys()].filter((id) => b.has(id) && !jsonEqual(a.get(id), b.get(id))).length,
        relationshipAddedCount: [...ra].filter((key) => !rb.has(key)).length,
        relationshipRemovedCount: [...rb].filter((key) => !ra.has(key)).length,
        coverageChanged: !jsonEqual(before.coverage, after.coverage),
        limitsChanged: !jsonEqual(before.limits, after.limits),
        diagnosticsChanged: !jsonEqual(before.diagnostics ?? [], after.diagnostics ?? []),
        relationshipHintDiagnosticsChanged: !jsonEqual(
          before.relationshipHintDiagnostics ?? [],
          after.relationshipHintDiagnostics ?? [],
        ),
      });
      expect(jsonEqual(before.entityDetails, after.entityDetails)).toBe(true); // details changes are not counted
    }
  });

  it("reports continuity that follows from the documents", () => {
    for (const response of successes("webIr.continuity")) {
      const { before, after, entityId } = requestById.get(response.requestId).payload;
      const identity = (entity: Json) => `${entity.kind}|${entity.role ?? ""}|${entity.name ?? ""}`;
      const was = before.entities.find((entity: Json) => entity.id === entityId);
      const same = after.entities.filter((entity: Json) => identity(entity) === identity(was));
      const now = after.entities.find((entity: Json) => entity.id === entityId);
      const expected =
        now !== undefined
          ? { status: identity(now) === identity(was) ? "unchanged" : "changed", currentId: entityId }
          : same.length === 1
            ? { status: "rebound", currentId: same[0].id }
            : { status: same.length === 0 ? "removed" : "ambiguous" };
      expect(response.result).toMatchObject({ requestedId: entityId, ...expected });
    }
  });

  it("observes the loans page that the Web IR documents describe: same revision, URL and title", () => {
    const loans = requestById.get("inspect-ir-loans").payload.ir;
    for (const response of successes("browser.observe")) {
      const observation = response.result;
      expect(observation).toMatchObject({
        schemaVersion: 1,
        revision: loans.revision,
        level: requestById.get(response.requestId).payload.level,
      });
      expect(observation.route.url).toBe(loans.document.url);
      expect(observation.page).toMatchObject({
        url: loans.document.url,
        title: loans.document.title,
        targetId: observation.route.targetId,
        frameId: observation.route.frameId,
      });
      for (const region of observation.regions) {
        if (region.expansion !== undefined)
          expect(region.expansion).toEqual({
            regionId: region.id,
            revision: observation.revision,
            route: observation.route,
          });
      }
      // A summary names the regions; the elements to act on come from the interactive level up.
      expect(observation.regions.some((region: Json) => "targets" in region || "structuredRecords" in region)).toBe(
        false,
      );
    }
  });

  it("validates a task with its family", () => {
    for (const response of successes("task.validate")) {
      expect(response.result).toEqual({
        valid: true,
        schemaVersion: 1,
        task: requestById.get(response.requestId).payload.task.task,
      });
    }
  });

  it("compiles a plan bound to the source document's revision and entity ids", () => {
    const compiled = successes("task.compile");
    expect(compiled.length).toBeGreaterThan(0);
    for (const response of compiled) {
      const { task, ir } = requestById.get(response.requestId).payload;
      const plan = response.result.plan;
      const byId = new Map<string, Json>(ir.entities.map((entity: Json) => [entity.id, entity]));
      const normalized = (name: string | undefined) => name?.trim().toLowerCase();
      // The plan is the task's, compiled against this document's schema version and revision.
      expect(plan).toMatchObject({
        schemaVersion: 1,
        taskSchemaVersion: task.schemaVersion,
        sourceIrSchemaVersion: ir.schemaVersion,
        sourceIrRevision: ir.revision,
        task: task.task,
        scope: task.scope,
        limits: task.limits,
      });
      expect(plan.taskFingerprint).toMatch(/^[0-9a-f]{64}$/);
      // It selects entities of the document, of the scope's kind and name.
      expect(plan.selectedEntityIds.length).toBeGreaterThan(0);
      for (const id of plan.selectedEntityIds) {
        const entity = byId.get(id);
        expect(entity, id).toBeDefined();
        if (task.scope.entityKind !== undefined) expect(entity.kind, id).toBe(task.scope.entityKind);
        if (task.scope.entityName !== undefined)
          expect(normalized(entity.name), id).toBe(normalized(task.scope.entityName));
      }
      // It binds each selected entity by the keys the document gives it.
      expect(plan.entityBindingKeys.map((key: Json) => key.entityId)).toEqual(plan.selectedEntityIds);
      for (const key of plan.entityBindingKeys) {
        const entity = byId.get(key.entityId);
        expect(key).toEqual({
          entityId: entity.id,
          kind: entity.kind,
          ...(entity.role === undefined ? {} : { role: entity.role }),
          ...(entity.name === undefined ? {} : { name: entity.name }),
        });
      }
      // Its preconditions: the document's revision, then each selected entity present, with the action the plan takes on it supported.
      expect(plan.preconditions[0]).toEqual({ kind: "revisionEquals", revision: ir.revision });
      for (const id of plan.selectedEntityIds)
        expect(plan.preconditions, id).toContainEqual({ kind: "entityPresent", entityId: id });
      for (const precondition of plan.preconditions.filter((p: Json) => p.kind === "actionSupported")) {
        expect(plan.selectedEntityIds).toContain(precondition.entityId);
        expect(ir.entityDetails?.[precondition.entityId]?.supportedActions ?? [], precondition.entityId).toContain(
          precondition.action,
        );
      }
      // The evidence it requires is the selected entities' own.
      for (const requirement of plan.entityEvidenceRequirements) {
        expect(plan.selectedEntityIds).toContain(requirement.entityId);
        for (const source of requirement.requiredSources)
          expect(byId.get(requirement.entityId).evidenceSources).toContain(source);
      }
      // Its steps are numbered from 1 and act on selected entities only.
      expect(plan.steps.map((step: Json) => step.ordinal)).toEqual(plan.steps.map((_: Json, i: number) => i + 1));
      const acted = plan.steps.flatMap((step: Json) => step.entityIds ?? []);
      expect(acted.length).toBeGreaterThan(0);
      for (const id of acted) expect(plan.selectedEntityIds).toContain(id);
      // The postconditions are the task's (or the family's default when it gives none).
      if (task.postconditions !== undefined) expect(plan.postconditions).toEqual(task.postconditions);
    }
  });
});
