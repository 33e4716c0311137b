import { utf8Length } from "../validation/byte-length.js";

/** The most a Glass error's `details` may weigh, serialized (§1). */
export const MAX_DETAILS_BYTES = 16 * 1024;

/**
 * `details` as they are when their JSON fits in 16 KiB (§1), else the marker the daemon itself uses
 * for details it had to drop: `{truncated: true, originalBytes, maxBytes}`. Keeps an error the
 * client builds from the daemon's answer (a trace, a JSON-RPC `error.data`) within the protocol;
 * `maxBytes` is smaller for a part of the details.
 */
export function boundedDetails(details: unknown, maxBytes: number = MAX_DETAILS_BYTES): unknown {
  if (details === undefined) return undefined;
  const json = JSON.stringify(details) ?? "null";
  if (json.length * 3 <= maxBytes) return details;
  const originalBytes = utf8Length(json);
  return originalBytes <= maxBytes ? details : { truncated: true, originalBytes, maxBytes };
}
