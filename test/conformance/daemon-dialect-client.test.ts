/**
 * End to end: a client written in the daemon's own dialect, not with this SDK, against the mock
 * daemon on a real Unix socket. Whatever works against the daemon must work against the mock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseFixture } from "../../src/mock-daemon/golden-fixture.js";
import { sleep, startTarget } from "../support/conformance-target.js";
import { DialectClient } from "../support/daemon-dialect-client.js";
import { expectedToolResult } from "../support/fixture-calls.js";
import { readGoldenFixture } from "../support/golden-fixture.js";

const fixture = parseFixture(readGoldenFixture());
const recorded = (requestId: string) => {
  const request = fixture.requests.find((r) => r.requestId === requestId)!;
  return {
    args: request.payload as Record<string, unknown>,
    result: expectedToolResult(fixture.responses.find((r) => r.requestId === requestId)!, request.operation),
  };
};

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe("a client in the daemon's dialect", () => {
  it("works end to end over the socket: singular glass.protocolVersion, leaseToken on every call while holding a lease, 100 ms leases kept by renewals", async () => {
    const target = await startTarget("socket", { latencyMs: 30 });
    stop = target.stop;
    const client = new DialectClient(await target.connect());

    const initialized = await client.initialize({ webIr: [1], task: [1] });
    expect(initialized.glassAgreement).toMatchObject({ protocolVersion: 1, agreedSchemas: { webIr: 1, task: 1 } });

    await client.acquire(100);
    client.keepRenewing(40, 100);
    const started = Date.now();
    const observe = recorded("observe-loans");
    const inspect = recorded("inspect-ir-loans");
    const click = recorded("click-renew");
    for (let round = 0; round < 3; round++) {
      expect((await client.call("observe", observe.args)).result, `observe, round ${round}`).toEqual(observe.result);
      expect((await client.call("inspectWebIr", inspect.args)).result, `inspectWebIr, round ${round}`).toEqual(
        inspect.result,
      );
      expect((await client.call("click", click.args)).result, `click, round ${round}`).toEqual(click.result);
      await sleep(60);
    }
    const workflow = recorded("workflow-renew-all");
    expect((await client.call("workflow", workflow.args)).result).toEqual(workflow.result);
    // A 100 ms lease outlived by far: only the renewals kept it.
    expect(Date.now() - started).toBeGreaterThan(300);
    expect(client.renewals).toBeGreaterThanOrEqual(3);

    expect((await client.release()).result).toMatchObject({ released: true });
    expect(client.renewalErrors).toEqual([]);
    expect(target.daemon.activeLeases()).toEqual([]);
    expect(target.daemon.calls).toHaveLength(10);
    for (const call of target.daemon.calls) {
      expect(call.arguments, call.tool).toHaveProperty("leaseToken");
      expect(call.arguments, call.tool).not.toHaveProperty("sessionId");
      expect(call.arguments, call.tool).not.toHaveProperty("mutationLease");
    }
  });
});
