import { describe, expect, it } from "vitest";
import { buildManifest } from "../../src/mock-daemon/manifest.js";
import { listTools } from "../../src/mock-daemon/tools-list.js";
import { operations } from "../../src/operations/catalog.js";

const gated = Object.values(operations).filter((operation) => operation.capability !== undefined);

describe("listTools", () => {
  it("lists a capability's tools while it is experimental, and none once the manifest no longer names it", () => {
    expect(gated.length).toBeGreaterThan(0);
    const capability = gated[0]!.capability!;
    const tools = gated.filter((operation) => operation.capability === capability).map((operation) => operation.tool);
    const names = (capabilities: Record<string, "experimental" | false>): string[] =>
      listTools(buildManifest("socket", "linux-x64", { capabilities })).map((tool) => tool.name);
    const experimental = names({ [capability]: "experimental" });
    const unnamed = names({ [capability]: false });
    for (const tool of tools) {
      expect(experimental, tool).toContain(tool);
      expect(unnamed, tool).not.toContain(tool);
    }
  });

  it("works the list out once per manifest", () => {
    const manifest = buildManifest("stdio", "linux-x64");
    expect(listTools(manifest)).toBe(listTools(manifest));
    expect(listTools(buildManifest("stdio", "linux-x64"))).not.toBe(listTools(manifest));
  });
});
