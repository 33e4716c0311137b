import { isDeepStrictEqual } from "node:util";
import type { BenchOperation } from "../lib/fixture.js";

/** The transports measured. */
export type TransportName = "stdio" | "socket" | "http" | "websocket";
/**
 * The clients measured: ours; the hand-written baseline, handing back the MCP result unparsed
 * ("raw") and also parsing its text item as glass-sdk must ("raw-parsed": the floor of the
 * targets); and the official MCP SDK `Client`.
 */
export type ClientName = "glass-sdk" | "raw" | "raw-parsed" | "mcp-sdk";

/** One connected client, ready to make the measured calls. */
export interface BenchClient {
  readonly transport: TransportName;
  readonly client: ClientName;
  /** Makes the call of the operation `key` names; resolves with what the client hands its caller, rejects on a failed call. */
  call(key: string): Promise<unknown>;
  /** Ends the session and the connection (and a stdio client's daemon). */
  close(): Promise<void>;
}

/** Everything a client needs to connect: the fixture's calls, the daemon and the bridge. */
export interface BenchTargets {
  readonly operations: Readonly<Record<string, BenchOperation>>;
  /** Command of a fast mock daemon over stdio. */
  readonly stdioDaemon: { command: string; args: string[] };
  /** The fast mock daemon's Unix socket. */
  readonly socketPath: string;
  /** The bridge in front of that socket. */
  readonly bridge: { url: string; wsUrl: string; token: string };
}

/**
 * Checks that a client's answer to `operation` is the recorded result: our client's result as it
 * is (and raw-parsed's), or the MCP tool result whose text is its JSON (raw and MCP SDK clients).
 */
export function checkAnswer(client: BenchClient, operation: BenchOperation, answer: unknown): void {
  // The MCP result's text leaves out a screenshot's image (it travels as the second content item).
  const { image: _image, ...withoutImage } = operation.result;
  const expected = client.client === "glass-sdk" ? operation.result : withoutImage;
  const result =
    client.client === "glass-sdk" || client.client === "raw-parsed"
      ? answer
      : JSON.parse((answer as { content: { text: string }[] }).content[0]!.text);
  if (!isDeepStrictEqual(result, expected)) {
    throw new Error(
      `${client.client} over ${client.transport}: ${operation.operation} answered ${JSON.stringify(answer).slice(0, 300)}, not the recorded result`,
    );
  }
}
