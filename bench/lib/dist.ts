import { DIST } from "./paths.js";

/**
 * The built package, loaded once: what users run (`dist/`, built by `npm run build`), typed by the
 * source it is built from.
 */
export const sdk = (await import(DIST.index)) as typeof import("glass-sdk");
/** `glass-sdk/protocol`, built. */
export const sdkProtocol = (await import(DIST.protocol)) as typeof import("glass-sdk/protocol");
/** `glass-sdk/node`, built. */
export const sdkNode = (await import(DIST.node)) as typeof import("glass-sdk/node");
/** `glass-sdk/testing`, built. */
export const sdkTesting = (await import(DIST.testing)) as typeof import("glass-sdk/testing");
