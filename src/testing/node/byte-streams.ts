/**
 * A stream of bytes the mock daemon reads requests from, in the style of a Node `Readable` (events,
 * `pause` and `resume`): `process.stdin`, a `PassThrough`, a `net.Socket` or a child's `stdout` all
 * fit. Its `data` events must carry bytes (`Buffer` or `Uint8Array`), so a stream given an encoding
 * (`setEncoding`) or in object mode does not serve. Only the members the daemon uses are named,
 * so the package's declarations need no Node type declarations (`@types/node`).
 */
export interface ReadableByteStream {
  /** Listens for each chunk of bytes as it arrives. */
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Listens for the end of the input (`end`), or for the stream closing (`close`). */
  on(event: "end" | "close", listener: () => void): unknown;
  /** Listens for a stream error (the daemon ignores them: the stream's end or close ends the session). */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Stops listening for chunks of bytes. */
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Stops listening for the end or the close of the stream. */
  off(event: "end" | "close", listener: () => void): unknown;
  /** Stops the `data` events until `resume()`: the daemon reads no more while its answers wait to be taken. */
  pause(): unknown;
  /** Starts the `data` events again. */
  resume(): unknown;
}

/**
 * A stream of bytes the mock daemon writes its answers to, in the style of a Node `Writable`
 * (`write` returns false when its buffer is full, `drain` says when to write on): `process.stdout`,
 * a `PassThrough`, a `net.Socket` or a child's `stdin` all fit.
 */
export interface WritableByteStream {
  /** Whether the stream was destroyed: nothing more is written to it. */
  readonly destroyed: boolean;
  /** Whether `end()` was called: nothing more is written to it. */
  readonly writableEnded: boolean;
  /** Writes bytes; false when the stream's buffer is full (the daemon then waits for `drain`). */
  write(chunk: Uint8Array): boolean;
  /** Ends the stream (the daemon does so on a crash or a framing violation, unless it is `process.stdout`). */
  end(): unknown;
  /** Listens for a stream error (the daemon ignores them). */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Listens once for the buffer having emptied, after `write` returned false. */
  once(event: "drain", listener: () => void): unknown;
  /** Stops listening for `drain`. */
  off(event: "drain", listener: () => void): unknown;
}
