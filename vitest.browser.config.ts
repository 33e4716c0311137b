import { defineConfig } from "vitest/config";
import { PACKAGE_ENTRIES } from "./vitest.config.js";

/** `npm run test:browser`: the browser bundle in headless Chromium (Debian's), through the bridge. */
export default defineConfig({
  resolve: { alias: PACKAGE_ENTRIES },
  test: {
    include: ["test/browser/**/*.browser.test.ts"],
    reporters: ["default", ["json", { outputFile: "test-results/vitest-browser.json" }]],
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
