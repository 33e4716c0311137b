// Run as another user: connects to the Unix socket at argv[2] over and over, as fast as it can,
// until its stdin ends, then prints one JSON line: how many connections it made and the errors
// it met. It prints {"ready":true} first, once it is running.
import { createConnection } from "node:net";

const path = process.argv[2];
let connected = 0;
let attempts = 0;
const errors = {};
let running = true;

function attempt() {
  if (!running) return;
  attempts++;
  const socket = createConnection(path);
  socket.once("connect", () => {
    connected++;
    socket.destroy();
    setImmediate(attempt);
  });
  socket.once("error", (error) => {
    errors[error.code] = (errors[error.code] ?? 0) + 1;
    setImmediate(attempt);
  });
}

process.stdin.on("data", () => {});
process.stdin.on("end", () => {
  running = false;
  setTimeout(() => process.stdout.write(`${JSON.stringify({ connected, attempts, errors })}\n`), 20);
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
attempt();
