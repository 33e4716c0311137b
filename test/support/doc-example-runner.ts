/**
 * Runs documentation examples in this process, one after the other, as the modules they are:
 * `node runner.mjs <example.mjs>...` from the examples' directory, runner.mjs being this file
 * compiled with its preludes (doc-example-sandbox.ts), the examples compiled from TypeScript.
 * GLASS_EXAMPLE_PRELUDES names the preludes to define first (comma-separated, see
 * doc-example-preludes.ts). An example fails the run by throwing (or rejecting) as it is evaluated;
 * once every example has run to its end, whatever it left open (a connection a fragment never
 * closes) is ended with the process, exit code 0 (or the `process.exitCode` an example set).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { definePreludes } from "./doc-example-preludes.js";

const preludes = (process.env.GLASS_EXAMPLE_PRELUDES ?? "").split(",").filter((name) => name !== "");
await definePreludes(preludes);
for (const file of process.argv.slice(2)) await import(pathToFileURL(resolve(file)).href);
// A moment for what an example started without awaiting to fail (an unhandled rejection ends the process with 1 first).
setTimeout(() => process.exit(), 100);
