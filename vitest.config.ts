import { defineConfig } from "vitest/config";

/**
 * Test files that need the global `WebSocket` (MSW's `ws.link` intercepts only that one), which
 * Node 20 has only with `--experimental-websocket`: they run in their own project whose workers
 * get the flag. Name new ones here.
 */
const WEBSOCKET_TESTS = ["test/testing-kit/msw-ws.test.ts"];

/** Files that never run in `npm test`. */
const EXCLUDED = [
  // The browser suite runs with `npm run test:browser` (it needs Chromium).
  "test/browser/**",
  "**/node_modules/**",
];

export default defineConfig({
  test: {
    // The last one prints a summary line per reliability area (test/reliability/) at the end of the run.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }], "./test/reliability/area-summary-reporter.ts"],
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: [...EXCLUDED, ...WEBSOCKET_TESTS],
          typecheck: {
            enabled: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "./tsconfig.json",
          },
        },
      },
      {
        extends: true,
        test: {
          name: "websocket",
          include: WEBSOCKET_TESTS,
          exclude: EXCLUDED,
          pool: "forks",
          execArgv: ["--experimental-websocket"],
        },
      },
    ],
  },
});
