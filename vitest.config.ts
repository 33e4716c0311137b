import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The MSW handlers' tests (test/testing/msw/) need the global `WebSocket` (MSW's `ws.link`
 * intercepts only that one), which Node 20 has only with `--experimental-websocket`: they run in
 * their own project whose workers get the flag.
 */
const WEBSOCKET_TESTS = ["test/testing/msw/**/*.test.ts"];

/**
 * The tests that pin validator behaviour — the envelope's and the validation rules' folders, the
 * envelope properties, and the mock daemon's handshake (it checks manifests with the validators) —
 * run a second time (project "compact-validators") with every import of the compiled validators
 * (generated/validators/index.js) replaced by the compact ones the browser builds use
 * (generated/validators-compact/index.ts): the same assertions hold for both back ends.
 */
const VALIDATOR_TESTS = [
  "test/envelope/**/*.test.ts",
  "test/validation/**/*.test.ts",
  "test/reliability/properties/envelope.test.ts",
  "test/testing/node/handshake.test.ts",
];

/** `glass-sdk` and its subpaths, as tests and examples import them (the package by name), resolved to the sources. */
export const PACKAGE_ENTRIES = Object.entries({
  "glass-sdk/testing/node": "./src/testing/node/index.ts",
  "glass-sdk/testing/msw": "./src/testing/msw/index.ts",
  "glass-sdk/testing": "./src/testing/index.ts",
  "glass-sdk/protocol": "./src/protocol.ts",
  "glass-sdk/node": "./src/node/index.ts",
  "glass-sdk": "./src/index.ts",
}).map(([name, file]) => ({
  find: new RegExp(`^${name}$`),
  replacement: fileURLToPath(new URL(file, import.meta.url)),
}));

/** Files that never run in `npm test`. */
const EXCLUDED = [
  // The browser suite runs with `npm run test:browser` (it needs Chromium).
  "test/browser/**",
  // The real daemon's suite runs with `npm run test:daemon` (it needs glass-browser and Chromium).
  "test/daemon/**",
  "**/node_modules/**",
];

export default defineConfig({
  resolve: { alias: PACKAGE_ENTRIES },
  test: {
    // The last one prints a summary line per reliability area (a folder of test/reliability/) at the end of the run.
    reporters: [
      "default",
      ["json", { outputFile: "test-results/vitest.json" }],
      "./test/reliability/support/area-summary-reporter.ts",
    ],
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
          // The examples' own tests (examples/README.md), as a user's project would run them.
          name: "examples",
          include: ["examples/**/*.test.ts"],
          exclude: EXCLUDED,
        },
      },
      {
        extends: true,
        resolve: {
          // Matches the import as written (`../../generated/validators/index.js` from src/, `../generated/...`
          // from test/); a setup file checks that the compact module is the one loaded.
          alias: [
            {
              find: /^(?:\.\.?\/)+generated\/validators\/index\.js$/,
              replacement: fileURLToPath(new URL("./generated/validators-compact/index.ts", import.meta.url)),
            },
          ],
        },
        test: {
          name: "compact-validators",
          include: VALIDATOR_TESTS,
          // It compares the two back ends itself (with the alias both would be the compact ones).
          exclude: [...EXCLUDED, "test/validation/compact-validators-equivalence.test.ts"],
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
