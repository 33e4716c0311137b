import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The built command line (`npm run build`), which the daemon and bridge processes run. */
export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
/** supergateway's command line (the devDependency). */
export const SUPERGATEWAY = fileURLToPath(new URL("../../node_modules/supergateway/dist/index.js", import.meta.url));
/** The preload that makes a server given only a port bind 127.0.0.1. */
export const BIND_LOOPBACK = fileURLToPath(new URL("./bind-loopback.mjs", import.meta.url));
/** The built entry points, as import URLs. */
export const DIST = {
  index: new URL("../../dist/index.js", import.meta.url).href,
  protocol: new URL("../../dist/protocol.js", import.meta.url).href,
  node: new URL("../../dist/node.js", import.meta.url).href,
  testing: new URL("../../dist/testing.js", import.meta.url).href,
  browserBundle: fileURLToPath(new URL("../../dist/browser/glass-sdk.browser.min.js", import.meta.url)),
} as const;
/** Where results go (gitignored). */
export const RESULTS_DIR = fileURLToPath(new URL("../results", import.meta.url));
