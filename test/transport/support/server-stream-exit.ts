/**
 * A script for http-transport-server-stream.test.ts: connects to the URL given with `serverStream:
 * true`, makes one call (the test's server answers it only once the GET stream is open), closes the
 * client and returns, leaving nothing that keeps the process alive. Prints `closed` when done.
 *
 * Usage: node --import tsx server-stream-exit.ts <url> <token>
 */
import { Glass, httpTransport } from "glass-sdk";

const [url, token] = process.argv.slice(2);
if (url === undefined || token === undefined) throw new Error("usage: server-stream-exit.ts <url> <token>");
const glass = await Glass.connect(httpTransport({ url, token, serverStream: true }), {
  negotiation: false,
  retry: false,
  validate: { responses: false },
});
await glass.listTools();
await glass.close();
process.stdout.write("closed\n");
