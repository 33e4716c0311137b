import { performance } from "node:perf_hooks";
import ky from "ky";
import type { BenchTargets } from "../clients/bench-client.js";
import type { BenchSettings } from "../lib/settings.js";
import { median } from "../lib/stats.js";

/**
 * ky's cost per request over HTTP, as an A/B in this process against the running bridge: the same
 * small `tools/call` POST (same URL, headers and bytes of body, one request in flight, the answer
 * read with `.text()`) made through ky — set up as `httpTransport` sets it up for a call (`extend`
 * with `throwHttpErrors` and `retry: 0`, as the transport never sends a call twice; no hook of its
 * own, no timeout: its defaults) — and
 * through a plain `fetch(url, init)`; between them, the steps ky adds in the order it adds them:
 * `fetch` of a `Request` built from the same init (its body becomes a stream), and that after
 * `request.clone()` (ky clones every request for a retry, tee-ing the body, and cancels the clone
 * at the end). Client CPU (user + system) per request, median of interleaved rounds (the order
 * rotating). Without I/O: the ky call answered at once by a `beforeRequest` hook that returns a
 * Response (ky's work before anything is sent: options, headers, AbortController, `Request`), and
 * `new Request(url, init)` alone.
 */
export interface KyCostResult {
  requestsPerRound: number;
  rounds: number;
  /** Over the bridge, per variant: CPU µs per request (median round and each round) and wall ms per request (median round). */
  variants: { name: string; cpuMicros: number; roundCpuMicros: number[]; wallMs: number }[];
  /** CPU µs per request through ky and through plain fetch (medians of the rounds). */
  kyMicros: number;
  fetchMicros: number;
  /** Median over rounds of (ky − plain fetch) in the same round, µs per request. */
  kyExtraMicros: number;
  /** No I/O: the ky call answered by its `beforeRequest` hook, and `new Request(url, init)` alone, CPU µs each. */
  kyNoIoMicros: number;
  newRequestMicros: number;
}

/** Measures ky next to plain `fetch` on the bridge of `targets` (a small call of the fixture). */
export async function measureKyCost(targets: BenchTargets, settings: BenchSettings): Promise<KyCostResult> {
  const { url, token } = targets.bridge;
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const init = async (message: Record<string, unknown>): Promise<Response> =>
    fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
  const opened = await init({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "ky-cost", version: "1.0.0" } },
  });
  await opened.text();
  headers["mcp-session-id"] = opened.headers.get("mcp-session-id")!;
  headers["mcp-protocol-version"] = "2024-11-05";
  await (await init({ jsonrpc: "2.0", method: "notifications/initialized" })).text();

  const op = targets.operations.small!;
  const body = new TextEncoder().encode(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: op.tool, arguments: op.payload } }),
  );
  const client = ky.extend({ prefixUrl: "", throwHttpErrors: true, retry: 0 });
  const viaKy = async (): Promise<string> =>
    (await client(url, { method: "POST", headers, body, timeout: false })).text();
  const viaFetch = async (): Promise<string> => (await fetch(url, { method: "POST", headers, body })).text();
  for (const check of [await viaKy(), await viaFetch()])
    if (!check.includes('"result"')) throw new Error(`ky A/B: the bridge answered ${check.slice(0, 200)}`);

  const viaRequest = async (): Promise<string> =>
    (await fetch(new Request(url, { method: "POST", headers, body }))).text();
  const viaClonedRequest = async (): Promise<string> => {
    const request = new Request(url, { method: "POST", headers, body });
    const clone = request.clone();
    const text = await (await fetch(request)).text();
    void clone.body?.cancel().catch(() => undefined);
    return text;
  };
  const variants = [
    { name: "fetch(url, init)", send: viaFetch },
    { name: "fetch(new Request(url, init))", send: viaRequest },
    { name: "fetch(request) after request.clone()", send: viaClonedRequest },
    { name: "ky, as httpTransport sets it up", send: viaKy },
  ];

  const requests = settings.quick ? 300 : 1000;
  const rounds = settings.quick ? 5 : 9;
  const run = async (send: () => Promise<string>, n: number): Promise<{ cpu: number; wall: number }> => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < n; i++) await send();
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { cpu: (used.user + used.system) / n, wall: wall / n };
  };
  for (const variant of variants) await run(variant.send, requests / 2);
  const measured = variants.map((): { cpu: number; wall: number }[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + round) % variants.length;
      measured[index]!.push(await run(variants[index]!.send, requests));
    }
  }
  await (await fetch(url, { method: "DELETE", headers })).text();

  // No I/O: ky up to the moment it would call fetch (its hook answers), and the Request it makes.
  const answered = (): Response => new Response('{"jsonrpc":"2.0","id":1,"result":{}}');
  const kyNoIo = async (): Promise<string> =>
    (await client(url, { method: "POST", headers, body, timeout: false, hooks: { beforeRequest: [answered] } })).text();
  const newRequest = async (): Promise<string> => {
    new Request(url, { method: "POST", headers, body });
    return "";
  };
  const noIoRequests = settings.quick ? 2000 : 5000;
  await run(kyNoIo, noIoRequests);
  await run(newRequest, noIoRequests);
  const kyNoIoRounds: number[] = [];
  const requestRounds: number[] = [];
  for (let round = 0; round < rounds; round++) {
    kyNoIoRounds.push((await run(kyNoIo, noIoRequests)).cpu);
    requestRounds.push((await run(newRequest, noIoRequests)).cpu);
  }

  const fetchRounds = measured[0]!;
  const kyRounds = measured[3]!;
  return {
    requestsPerRound: requests,
    rounds,
    variants: variants.map((variant, index) => ({
      name: variant.name,
      cpuMicros: median(measured[index]!.map((r) => r.cpu)),
      roundCpuMicros: measured[index]!.map((r) => r.cpu),
      wallMs: median(measured[index]!.map((r) => r.wall)),
    })),
    kyMicros: median(kyRounds.map((r) => r.cpu)),
    fetchMicros: median(fetchRounds.map((r) => r.cpu)),
    kyExtraMicros: median(kyRounds.map((r, i) => r.cpu - fetchRounds[i]!.cpu)),
    kyNoIoMicros: median(kyNoIoRounds),
    newRequestMicros: median(requestRounds),
  };
}
