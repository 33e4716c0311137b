import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { DAEMON_VERSION, requireInstalledDaemon, type StdioDaemon, stdioDaemon } from "./support/real-daemon.js";
import { type LabServer, serveLab } from "./support/lab-server.js";

requireInstalledDaemon();

describe("smoke", () => {
  let daemon: StdioDaemon;
  let glass: Glass;
  let lab: LabServer;
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
    glass = await Glass.connect(daemon.transport);
  });
  afterAll(async () => {
    await glass?.close();
    daemon?.state.remove();
    await lab?.close();
  });
  it("navigates and observes", async () => {
    expect(glass.serverInfo).toEqual({ name: "glass", version: DAEMON_VERSION });
    const nav = await glass.browser.navigate({ url: lab.url("/login") });
    console.log(JSON.stringify(nav).slice(0, 2000));
    const page = await glass.browser.observe({ level: "interactive" });
    console.log(JSON.stringify(page).slice(0, 4000));
  });
});
