/**
 * The setup most real-daemon test files share: the lab pages served on 127.0.0.1, a real daemon
 * over stdio, and a client on it — started before the first test of the calling `describe` and
 * closed after its last.
 */
import { afterAll, beforeAll } from "vitest";
import { Glass } from "glass-sdk";
import { type LabServer, serveLab } from "./lab-server.js";
import { type StdioDaemon, stdioDaemon } from "./real-daemon.js";

/** What {@link stdioLabClient} hands to the tests. */
export interface LabClient {
  readonly glass: Glass;
  readonly lab: LabServer;
  readonly daemon: StdioDaemon;
}

/**
 * Registers the setup in the calling `describe`: `use` receives the client once it is connected
 * (and, with `start`, has navigated to that path of the lab), before the first test runs.
 */
export function stdioLabClient(use: (client: LabClient) => void, start?: string): void {
  let client: LabClient | undefined;
  beforeAll(async () => {
    const lab = await serveLab();
    const daemon = await stdioDaemon();
    const glass = await Glass.connect(daemon.transport);
    client = { glass, lab, daemon };
    if (start !== undefined) await glass.browser.navigate({ url: lab.url(start) });
    use(client);
  });
  afterAll(async () => {
    await client?.glass.close();
    client?.daemon.state.remove();
    await client?.lab.close();
  });
}
