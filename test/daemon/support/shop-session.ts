/**
 * The session recorded from the real daemon into fixtures/glass-browser-shop.json: the example
 * shop's sign-in, each call with a payload of its own (a replay answers a payload with the first
 * recording of it), the password redacted. `npx tsx scripts/record-daemon-fixture.ts` records it
 * again; test/daemon/recorded-fixture.test.ts checks that today's daemon still answers it alike.
 */
import { Glass, GlassError } from "glass-sdk";
import { type GoldenFixture, recordingTransport } from "glass-sdk/testing";
import { serveLab } from "./lab-server.js";
import { stdioDaemon } from "./real-daemon.js";

/** The password the session types, which the fixture must never hold. */
export const SHOP_PASSWORD = "correct horse";

/** Records the shop session against a fresh real daemon over stdio. */
export async function recordShopSession(): Promise<GoldenFixture> {
  const lab = await serveLab();
  const daemon = await stdioDaemon();
  const recorder = recordingTransport(daemon.transport, { redact: [SHOP_PASSWORD] });
  const glass = await Glass.connect(recorder);
  try {
    await glass.browser.navigate({ url: lab.url("/login") });
    const login = await glass.browser.observe({ level: "interactive" });
    const found = await glass.browser.findTarget({ schemaVersion: 1, intent: "Email", action: "type", resolutionPolicy: "reportOnly", expectedRevision: login.revision });
    const email = found.candidates.find((candidate) => candidate.name === "Email");
    if (email === undefined) throw new Error("the sign-in page has no Email field");
    await glass.browser.type({ target: email.reference, text: "ada@example.com", expectedRevision: login.revision });
    // Another call at the same revision: the page has moved on, so the daemon refuses it (staleRevision).
    await glass.browser.type({ target: email.reference, text: "ada@example.org", expectedRevision: login.revision }).catch((error: unknown) => {
      if (!(error instanceof GlassError) || error.code !== "staleRevision") throw error;
    });
    await glass.browser.type({ target: "css=#password", text: SHOP_PASSWORD });
    await glass.browser.observe({ level: "summary" });
    await glass.browser.click({ target: "css=button[type=submit]" });
    await glass.browser.wait({ condition: "text=Recent orders", timeoutMs: 10_000 });
    const orders = await glass.browser.observe({ level: "structured" });
    await glass.browser.getText();
    await glass.browser.inspectPage();
    await glass.task.execute({
      task: { schemaVersion: 1, task: "table.extract", scope: { regionName: "Recent orders" }, limits: { maxActions: 4, timeoutMs: 10_000, maxItems: 20 }, risk: "readOnly" },
      expectedRevision: orders.revision,
    });
    return recorder.fixture();
  } finally {
    await glass.close();
    daemon.state.remove();
    await lab.close();
  }
}
