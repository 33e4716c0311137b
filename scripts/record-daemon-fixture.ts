/**
 * Records fixtures/glass-browser-shop.json from the real daemon: the example shop's sign-in
 * (test/daemon/support/shop-session.ts) over stdio in headless Chromium, the password redacted.
 * Needs the daemon (bash scripts/install-daemon.sh).
 *
 *   npx tsx scripts/record-daemon-fixture.ts
 */
import { fileURLToPath } from "node:url";
import { saveFixture } from "glass-sdk/testing";
import { recordShopSession } from "../test/daemon/support/journeys.js";
import { requireInstalledDaemon } from "../test/daemon/support/real-daemon.js";

const path = fileURLToPath(new URL("../fixtures/glass-browser-shop.json", import.meta.url));
requireInstalledDaemon();
const fixture = await recordShopSession();
await saveFixture(path, fixture);
console.log(`recorded ${fixture.requests.length} calls to ${path}`);
