/**
 * The main job until the runtime client lands: load the golden fixture, check every request,
 * payload and response with the SDK's validators, and print what each exchange proves.
 *
 *   npm start                       uses fixtures/protocol-golden-v1.json
 *   npm start -- path/to/other.json checks another fixture in the same format
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { operations, validatePayload, validateRequest, validateResponse, type GlassResponse } from "../src/index.js";

const path = process.argv[2] ?? fileURLToPath(new URL("../fixtures/protocol-golden-v1.json", import.meta.url));
const fixture = JSON.parse(readFileSync(path, "utf8")) as {
  requests: unknown[];
  responses: unknown[];
  invalidResponses?: unknown[];
};

let problems = 0;
const responses = new Map<string, GlassResponse>();
for (const raw of fixture.responses) {
  const checked = validateResponse(raw);
  if (!checked.ok) {
    problems++;
    console.log(`✗ response ${JSON.stringify((raw as { requestId?: unknown }).requestId)}: ${JSON.stringify(checked.issues)}`);
  } else {
    responses.set(checked.value.requestId, checked.value);
  }
}

console.log(`Golden fixture ${path}\n`);
for (const raw of fixture.requests) {
  const request = validateRequest(raw);
  if (!request.ok) {
    problems++;
    console.log(`✗ invalid request envelope: ${JSON.stringify(request.issues)}`);
    continue;
  }
  const { requestId, operation, payload } = request.value;
  const known = (operations as Record<string, { tool: string; lease: unknown }>)[operation];
  const tool = known === undefined ? "not in the catalog" : `tool ${known.tool}, lease ${JSON.stringify(known.lease)}`;
  const payloadCheck = validatePayload(operation, payload);
  const preflight = payloadCheck.ok ? "payload valid" : `payload invalid: ${payloadCheck.issues.map((i) => `${i.path || "payload"}: ${i.reason}`).join("; ")}`;
  const response = responses.get(requestId);
  const outcome =
    response === undefined ? "no recorded response" :
    response.ok ? `ok → ${JSON.stringify(response.result).slice(0, 90)}` :
    `error ${response.error.code} — ${response.error.message}`;
  console.log(`• ${requestId}  ${operation} (${tool})\n    ${preflight}\n    ${outcome}`);
}

for (const raw of fixture.invalidResponses ?? []) {
  const checked = validateResponse(raw);
  if (checked.ok) {
    problems++;
    console.log(`✗ an invalid response was accepted: ${JSON.stringify(raw).slice(0, 120)}`);
  } else {
    console.log(`• rejected as it should be: ${checked.issues.map((i) => `${i.path}: ${i.reason}`).join("; ")}`);
  }
}
console.log(problems === 0 ? "\nEvery envelope checks out." : `\n${problems} problem(s) found.`);
process.exitCode = problems === 0 ? 0 : 1;
