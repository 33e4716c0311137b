import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that need the global `WebSocket` (MSW's `ws.link` intercepts only that one), which
 * Node 20 has only with `--experimental-websocket`: they run in their own project whose workers
 * get the flag. Name new ones here.
 */
const WEBSOCKET_TESTS = ["test/testing-kit/msw-ws.test.ts"];

/**
 * The tests that pin validator behaviour, run a second time (project "compact-validators") with
 * every import of the compiled validators (generated/validators/index.js) replaced by the compact
 * ones the browser bundle uses (generated/validators-compact/index.ts): the same assertions hold
 * for both back ends. Name new validator tests here.
 */
const VALIDATOR_TESTS = [
  "test/envelope-request-rules.test.ts",
  "test/envelope-response-rules.test.ts",
  "test/payload-rules.test.ts",
  "test/json-shape.test.ts",
  "test/golden-fixture.test.ts",
  "test/create-request.test.ts",
  "test/web-ir-rules.test.ts",
  "test/task-rules.test.ts",
  "test/upstream-reference.test.ts",
  "test/result-schemas.test.ts",
  "test/upstream-results.test.ts",
  "test/mock-daemon-handshake.test.ts",
  "test/reliability/envelope-*.test.ts",
];

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
        resolve: {
          // Matches the import as written (`../../generated/validators/index.js` from src/, `../generated/...`
          // from test/); a setup file checks that the compact module is the one loaded.
          alias: [{ find: /^(?:\.\.?\/)+generated\/validators\/index\.js$/, replacement: fileURLToPath(new URL("./generated/validators-compact/index.ts", import.meta.url)) }],
        },
        test: {
          name: "compact-validators",
          include: VALIDATOR_TESTS,
          exclude: EXCLUDED,
          setupFiles: ["test/support/compact-validators-setup.ts"],
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
