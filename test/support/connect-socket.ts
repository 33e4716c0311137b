// Connects a socket transport to the path in argv[2] and prints what happened as one JSON line:
// {"connected": true} or {"name", "code", "message"} of the error; `--probe` only prints
// {"probe": true} (it shows this script can be loaded). The socket transport tests run it as
// another user to see a real permission error when they themselves run as root.
import { socketTransport } from "../../src/node/socket-transport.js";

const target = process.argv[2] ?? "";
if (target === "--probe") {
  process.stdout.write(`${JSON.stringify({ probe: true })}\n`);
} else {
  const transport = socketTransport({ path: target });
  try {
    await transport.start({ onMessage() {}, onClose() {} });
    await transport.close();
    process.stdout.write(`${JSON.stringify({ connected: true })}\n`);
  } catch (error) {
    const { name, code, message } = error as { name: string; code: string; message: string };
    process.stdout.write(`${JSON.stringify({ name, code, message })}\n`);
  }
}
