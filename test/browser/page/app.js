// Runs every request of the golden fixture through the glass-sdk browser bundle, over HTTP and
// over WebSocket, against the bridge; renders the outcomes and publishes them on window.
import { Glass, GlassError, httpTransport, requiresLease, webSocketTransport } from "./glass-sdk.browser.min.js";

const params = new URLSearchParams(location.hash.slice(1));
const bridge = params.get("bridge");
const token = params.get("token");
const rows = document.getElementById("rows");

function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}

function row(transport, request, outcome, ok) {
  const tr = document.createElement("tr");
  for (const [text, cls] of [
    [transport],
    [request.requestId],
    [request.operation],
    [outcome],
    [ok ? "✓ matches the fixture" : "✗ differs", ok ? "ok" : "bad"],
  ]) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.append(td);
  }
  rows.append(tr);
}

async function call(glass, request) {
  const [namespace, method] = request.operation.split(".");
  const run = () =>
    glass[namespace][method](request.payload, {
      validate: false,
      deadlineMs: 10_000,
      ...(request.correlationId ? { correlationId: request.correlationId } : {}),
    });
  try {
    const result = requiresLease(request.operation, request.payload)
      ? await glass.withLease(run, { ttlMs: 10_000 })
      : await run();
    return { ok: true, result };
  } catch (error) {
    if (!(error instanceof GlassError)) throw error;
    return { ok: false, error: error.toJSON() };
  }
}

async function runAll(transportName, transport, fixture) {
  const glass = await Glass.connect(transport);
  const outcomes = [];
  try {
    for (const request of fixture.requests) {
      const expected = fixture.responses.find((response) => response.requestId === request.requestId);
      const got = await call(glass, request);
      const ok = expected.ok
        ? got.ok && equal(got.result, expected.result)
        : !got.ok && Object.keys(expected.error).every((key) => equal(got.error[key], expected.error[key]));
      row(transportName, request, got.ok ? "ok" : got.error.code, ok);
      outcomes.push({ transport: transportName, requestId: request.requestId, operation: request.operation, ok });
    }
  } finally {
    await glass.close();
  }
  return outcomes;
}

try {
  const fixture = await (await fetch("./fixture.json")).json();
  const outcomes = [
    ...(await runAll("HTTP", httpTransport({ url: `${bridge}/mcp`, token }), fixture)),
    ...(await runAll("WebSocket", webSocketTransport({ url: `${bridge.replace(/^http/, "ws")}/mcp`, token }), fixture)),
  ];
  const passed = outcomes.filter((o) => o.ok).length;
  document.getElementById("summary").textContent =
    `${passed} of ${outcomes.length} golden operations matched the fixture (Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? "?"}).`;
  window.__glassOutcome = { outcomes };
} catch (error) {
  document.getElementById("summary").textContent = `failed: ${error?.message ? error.message : String(error)}`;
  window.__glassOutcome = { error: String(error?.stack ? error.stack : error) };
}
