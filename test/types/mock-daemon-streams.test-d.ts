import { spawn } from "node:child_process";
import { createConnection, type Socket } from "node:net";
import { Duplex, PassThrough, type Readable, type Writable } from "node:stream";
import { describe, expectTypeOf, it } from "vitest";
import {
  type MockDaemonOptions,
  type ReadableByteStream,
  startMockDaemon,
  type WritableByteStream,
} from "glass-sdk/testing/node";

describe("the mock daemon's stdio streams", () => {
  it("take Node's streams as they are: process.stdin and stdout, a PassThrough, a Duplex, a socket, a child's pipes", () => {
    startMockDaemon({ stdin: process.stdin, stdout: process.stdout });
    startMockDaemon({ stdin: new PassThrough(), stdout: new PassThrough() });
    const duplex = new Duplex();
    startMockDaemon({ stdin: duplex, stdout: duplex });
    const socket = createConnection("/tmp/glass.sock");
    startMockDaemon({ stdin: socket, stdout: socket });
    const child = spawn("glass-sdk", ["bridge"]);
    startMockDaemon({ stdin: child.stdout, stdout: child.stdin });

    expectTypeOf<Readable>().toExtend<ReadableByteStream>();
    expectTypeOf<Writable>().toExtend<WritableByteStream>();
    expectTypeOf<Socket>().toExtend<ReadableByteStream & WritableByteStream>();
    expectTypeOf<MockDaemonOptions["stdin"]>().toEqualTypeOf<ReadableByteStream | undefined>();
    expectTypeOf<MockDaemonOptions["stdout"]>().toEqualTypeOf<WritableByteStream | undefined>();
  });

  it("take a stream of the user's own that has the members the daemon uses", () => {
    const input: ReadableByteStream = {
      on: () => input,
      off: () => input,
      pause: () => input,
      resume: () => input,
    };
    const output: WritableByteStream = {
      destroyed: false,
      writableEnded: false,
      write: (chunk) => chunk.length > 0,
      end: () => undefined,
      on: () => output,
      once: () => output,
      off: () => output,
    };
    startMockDaemon({ stdin: input, stdout: output });
  });

  it("do not take what is not a stream of bytes in Node's style", () => {
    // @ts-expect-error — a web ReadableStream has no on/pause/resume
    startMockDaemon({ stdin: new ReadableStream<Uint8Array>() });
    // @ts-expect-error — a web WritableStream has no write/end/once
    startMockDaemon({ stdout: new WritableStream<Uint8Array>() });
    // @ts-expect-error — the input is read, not written: an output-only stream lacks pause and resume
    startMockDaemon({ stdin: process.stdout as WritableByteStream });
    // @ts-expect-error — a string is not a stream
    startMockDaemon({ stdout: "stdout" });
  });
});
