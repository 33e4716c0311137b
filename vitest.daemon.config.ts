import { defineConfig } from "vitest/config";
import { PACKAGE_ENTRIES } from "./vitest.config.js";

/**
 * `npm run test:daemon`: the suite against the real Glass daemon (test/daemon/), which
 * scripts/install-daemon.sh installs with Debian's Chromium. Each file starts its own daemons and
 * browsers; the files run one at a time, so two browsers never compete for the machine's cores.
 */
export default defineConfig({
  resolve: { alias: PACKAGE_ENTRIES },
  test: {
    include: ["test/daemon/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: "test-results/vitest-daemon.json" }]],
    fileParallelism: false,
    // conformance-rules.test.ts runs the mock daemon's rule tests against the real daemon.
    env: { GLASS_RULES_TARGET: "daemon" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
