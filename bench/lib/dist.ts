import { DIST } from "./paths.js";

/**
 * The built package, loaded once: what users run (`dist/`, built by `npm run build`), typed by the
 * source it is built from.
 */
export const sdk = (await import(DIST.index)) as typeof import("../../src/index.js");
/** `glass-sdk/protocol`, built. */
export const sdkProtocol = (await import(DIST.protocol)) as typeof import("../../src/protocol.js");
/** `glass-sdk/node`, built. */
export const sdkNode = (await import(DIST.node)) as typeof import("../../src/node/index.js");
/** `glass-sdk/testing`, built. */
export const sdkTesting = (await import(DIST.testing)) as typeof import("../../src/testing/index.js");
