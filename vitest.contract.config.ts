import { defineConfig } from "vitest/config";
import { PACKAGE_ENTRIES } from "./vitest.config.js";

/**
 * `npm run test:contract`: only the contract suite, against the daemon named by `GLASS_COMMAND`
 * (stdio) or `GLASS_SOCKET` (socket), else the mock daemon. `GLASS_CONTRACT=1` tells the suite it
 * may take its target from those variables; in `npm test` it always runs against the mock, so a
 * `GLASS_SOCKET` set for everyday use never sends the fixture's clicks to a real browser.
 */
export default defineConfig({
  resolve: { alias: PACKAGE_ENTRIES },
  test: {
    include: ["test/contract/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: "test-results/vitest-contract.json" }]],
    env: { GLASS_CONTRACT: "1" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
