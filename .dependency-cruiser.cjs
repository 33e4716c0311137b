// @ts-check
/**
 * The layers of glass-sdk, checked by `npm run lint:deps` (dependency-cruiser over src/ and generated/).
 *
 * - core: src/{client,collections,envelope,errors,mcp,operations,transport,validation}/, src/index.ts,
 *   src/protocol.ts and generated/: browser-safe. It imports only core files, no `node:` module, and
 *   a package only on demand (a dynamic `import()`, like the `ws` fallback of the WebSocket
 *   transport) — but ky, which src/transport/http-transport.ts (and nothing else) imports.
 * - src/mock-daemon/: the platform-free mock-daemon core; it imports only core.
 * - src/testing/ (but testing/node/ and testing/msw/): the platform-free testing kit; it builds on
 *   core and the mock daemon. A `node:` module only through a dynamic `import()` inside the function
 *   that needs it (how `loadFixture` reads a file), so the kit still loads in a browser.
 * - src/testing/msw/: the MSW handlers, the only place (with the command line) that imports msw.
 * - src/testing/node/: the mock daemon's Node servers; anything but the command line.
 * - src/node/: the Node transports, framing and the bridge; core only, never the testing kit or the
 *   mock daemon (the `glass-sdk/node` entry must not load replay or fixture code).
 * - src/cli/: anything.
 * Everywhere: no import cycle, and nothing under src/ or generated/ imports codegen/.
 * Type-only imports count too (`tsPreCompilationDeps`): a layer may not lean on another's types either.
 */

const CORE =
  "^(src/(client|collections|envelope|errors|mcp|operations|transport|validation)/|src/(index|protocol)\\.ts$|generated/)";
const MOCK_DAEMON = "^src/mock-daemon/";
const TESTING_KIT = "^src/testing/";
const TESTING_NOT_KIT = "^src/testing/(node|msw)/";
const NPM = ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-bundled", "npm-no-pkg", "npm-unknown"];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "No import cycle among the project's modules: each layer and each feature reads top-down.",
      severity: "error",
      from: { path: "^(src|generated)/" },
      to: { circular: true },
    },
    {
      name: "no-codegen-at-run-time",
      comment: "codegen/ writes generated/; the package never imports it.",
      severity: "error",
      from: { path: "^(src|generated)/" },
      to: { path: "^codegen/" },
    },
    {
      name: "no-unresolvable",
      comment: "Every import resolves to a file or an installed package.",
      severity: "error",
      from: { path: "^(src|generated)/" },
      to: { couldNotResolve: true },
    },
    {
      name: "core-imports-core",
      comment: "The browser-safe core imports no other layer of src/.",
      severity: "error",
      from: { path: CORE },
      to: { path: "^src/", pathNot: CORE },
    },
    {
      name: "core-no-node-builtins",
      comment: "The browser-safe core imports no `node:` module, not even on demand.",
      severity: "error",
      from: { path: CORE },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "core-packages-on-demand",
      comment:
        "The core imports a package only dynamically, where it is needed; the one exception is ky, the HTTP client the HTTP transport is built on (and only there: a page without httpTransport does not load it).",
      severity: "error",
      from: { path: CORE, pathNot: "^src/transport/http-transport\\.ts$" },
      to: { dependencyTypes: NPM, dynamic: false },
    },
    {
      name: "core-ky-only-in-http-transport",
      comment: "ky is the HTTP transport's own: no other core file imports it.",
      severity: "error",
      from: { path: "^src/transport/http-transport\\.ts$" },
      to: { dependencyTypes: NPM, dynamic: false, pathNot: "(^|/)node_modules/ky/" },
    },
    {
      name: "mock-daemon-imports-core",
      comment:
        "The platform-free mock-daemon core builds on the core alone: no other layer, no package, no `node:` module.",
      severity: "error",
      from: { path: MOCK_DAEMON },
      to: { pathNot: `${CORE}|${MOCK_DAEMON}` },
    },
    {
      name: "testing-kit-platform-free",
      comment:
        "The testing kit builds on core and the mock daemon: never src/node, the command line, its own Node server or its MSW handlers.",
      severity: "error",
      from: { path: TESTING_KIT, pathNot: TESTING_NOT_KIT },
      to: { path: "^src/(node|cli)/|^src/testing/(node|msw)/" },
    },
    {
      name: "testing-kit-node-builtins-on-demand",
      comment:
        "The testing kit loads in a browser: a `node:` module only through a dynamic import() inside the function that needs it.",
      severity: "error",
      from: { path: TESTING_KIT, pathNot: TESTING_NOT_KIT },
      to: { dependencyTypes: ["core"], dynamic: false },
    },
    {
      name: "msw-only-in-testing-msw",
      comment: "msw is an optional peer: only the MSW handlers (src/testing/msw/) and the command line import it.",
      severity: "error",
      from: { path: "^(src|generated)/", pathNot: "^src/(testing/msw|cli)/" },
      to: { path: "(^|/)node_modules/(msw|@mswjs)/" },
    },
    {
      name: "testing-msw-layers",
      comment: "The MSW handlers build on msw, core, the mock daemon and the testing kit: not on Node code.",
      severity: "error",
      from: { path: "^src/testing/msw/" },
      to: { path: "^src/(node|cli)/|^src/testing/node/" },
    },
    {
      name: "testing-node-not-cli",
      comment: "The mock daemon's Node server may use anything but the command line.",
      severity: "error",
      from: { path: "^src/testing/node/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "node-imports-core",
      comment: "src/node builds on the core only: never the testing kit, the mock daemon or the command line.",
      severity: "error",
      from: { path: "^src/node/" },
      to: { path: "^src/(testing|mock-daemon|cli)/" },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
