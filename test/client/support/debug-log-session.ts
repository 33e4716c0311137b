/**
 * A short leased session against the mock daemon's socket, run as its own process by
 * test/client/debug-log.test.ts: `node --import tsx debug-log-session.ts` with GLASS_SOCKET set.
 * It observes, finds the email field, types TYPED_TEXT into it holding the lease, and prints the
 * lease token on stdout (so that the test can look for it in stderr, where the debug log goes).
 */
import { Glass } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";

const glass = await Glass.connect(socketTransport({ path: process.env.GLASS_SOCKET! }));
const page = await glass.browser.observe({ level: "interactive" });
const found = await glass.browser.findTarget({
  schemaVersion: 1,
  intent: "Email",
  action: "type",
  resolutionPolicy: "reportOnly",
  expectedRevision: page.revision,
});
const email = found.candidates[0]!;
let token = "";
await glass.withLease(async (lease) => {
  token = lease.token;
  await glass.browser.type({ target: email.reference, text: process.env.TYPED_TEXT!, expectedRevision: page.revision });
});
await glass.close();
process.stdout.write(`${JSON.stringify({ token })}\n`);
