import { utf8Length } from "../validation/byte-length.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../validation/json-depth.js";

/** The most a Glass error's `details` may weigh, serialized (§1). */
export const MAX_DETAILS_BYTES = 16 * 1024;

/**
 * `details` as they are when their JSON fits in 16 KiB (§1), else the marker the daemon itself uses
 * for details it had to drop: `{truncated: true, originalBytes, maxBytes}`. Keeps an error the
 * client builds from the daemon's answer (a trace, a JSON-RPC `error.data`) within the protocol;
 * `maxBytes` is smaller for a part of the details. Details nested more than
 * {@link MAX_JSON_DEPTH} levels deep, or that are not JSON at all, are dropped the same way
 * (`{truncated: true, maxDepth}`, or `originalBytes: null`) without being serialized. Never throws.
 */
export function boundedDetails(details: unknown, maxBytes: number = MAX_DETAILS_BYTES): unknown {
  if (details === undefined) return undefined;
  if (nestsDeeperThan(details)) return { truncated: true, maxDepth: MAX_JSON_DEPTH, maxBytes };
  let json: string;
  try {
    json = JSON.stringify(details) ?? "null";
  } catch {
    return { truncated: true, originalBytes: null, maxBytes };
  }
  if (json.length * 3 <= maxBytes) return details;
  const originalBytes = utf8Length(json);
  return originalBytes <= maxBytes ? details : { truncated: true, originalBytes, maxBytes };
}
