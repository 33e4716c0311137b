/**
 * Cancelling a call in the middle against the real daemon (stdio): an `AbortSignal` that fires
 * during a `browser.wait` for a condition that never comes, a client-side `deadlineMs` that passes
 * during a navigation to a page that answers late, and what the SDK reports for each; the
 * connection stays usable afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, DeadlineExceededError, Glass, type GlassLogEvent } from "glass-sdk";
import { requireInstalledDaemon, type StdioDaemon, stdioDaemon } from "./support/real-daemon.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { failure } from "../support/glass-failure.js";

requireInstalledDaemon();

describe("cancellation on the real daemon", () => {
  let daemon: StdioDaemon;
  let glass: Glass;
  let lab: LabServer;
  const events: GlassLogEvent[] = [];
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
    glass = await Glass.connect(daemon.transport, { logger: (event) => events.push(event) });
    await glass.browser.navigate({ url: lab.url("/lab") });
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
    await lab?.close();
  });

  it("a wait whose condition never holds fails with wait.timeout once its own timeoutMs passes: nothing happened", async () => {
    const started = Date.now();
    const error = await failure(glass.browser.wait({ condition: "text=this text never appears", timeoutMs: 400 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({
      code: "wait.timeout",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve" },
    });
    expect(error.details).toMatchObject({
      condition: "text",
      deadline_ms: 400,
      last_state: "present=false",
      reason: "deadline_exceeded",
      observed_page: { url: lab.url("/lab") },
    });
    expect(error.rawMessage).toBe("the text condition did not hold within 400 ms (last state: present=false)");
  });

  it("an AbortSignal fired during a long wait rejects at once with CancelledError, sends notifications/cancelled, and the connection goes on", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const error = await failure(
      glass.browser.wait(
        { condition: "text=this text never appears", timeoutMs: 20_000 },
        { signal: controller.signal },
      ),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(CancelledError);
    // wait counts as a mutating tool in the catalog, and it was written: the SDK cannot rule out an effect
    expect(error).toMatchObject({ code: "cancelled", mutationPossible: true, operation: "browser.wait" });
    expect(events.some((event) => event.type === "cancel" && event.operation === "browser.wait")).toBe(true);
    const text = await glass.browser.getText({}, { deadlineMs: 10_000 });
    expect(text.text).toContain("Lab");
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
  });

  it("a deadline that passes while the page is still loading rejects with DeadlineExceededError after the deadline, mutationPossible for the navigation", async () => {
    const started = Date.now();
    const error = await failure(glass.browser.navigate({ url: lab.url("/slow?ms=3000") }, { deadlineMs: 600 }));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(2000);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({
      code: "deadlineExceeded",
      phase: "dispatch",
      mutationPossible: true,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    });
    // The daemon does not stop a navigation already under way: the next call waits for it, then works.
    const page = await glass.browser.observe({ level: "summary" }, { deadlineMs: 15_000 });
    expect(page.page?.url ?? "").toContain("/slow");
    await glass.browser.navigate({ url: lab.url("/lab") });
  });

  it("an AbortSignal already aborted never sends the call", async () => {
    const before = events.filter((event) => event.type === "request").length;
    const error = await failure(glass.browser.click({ target: "css=#counter" }, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ code: "cancelled", mutationPossible: false });
    expect(events.filter((event) => event.type === "request").length).toBe(before);
  });
});
