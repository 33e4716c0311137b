import { parseFixture, type GoldenFixture } from "../mock-daemon/golden-fixture.js";

/**
 * Writes a golden fixture to a file as indented JSON (two spaces, a final newline), creating its
 * directory when needed. The fixture is checked first ({@link parseFixture}), so a file that
 * `loadFixture` would refuse is never written. Node only: the `node:` modules it needs are
 * imported dynamically, when it is called, so the rest of `glass-sdk/testing` stays browser-safe.
 *
 * @example
 * ```ts
 * import { Glass } from "glass-sdk";
 * import { socketTransport } from "glass-sdk/node";
 * import { recordingTransport, saveFixture } from "glass-sdk/testing";
 *
 * const recorder = recordingTransport(socketTransport());
 * const glass = await Glass.connect(recorder);
 * await glass.browser.observe({ level: "summary" });
 * await glass.close();
 * await saveFixture("fixtures/checkout.json", recorder.fixture());
 * ```
 */
export async function saveFixture(path: string | URL, fixture: GoldenFixture): Promise<void> {
  const checked = parseFixture(fixture);
  const [{ mkdir, writeFile }, { dirname }, { fileURLToPath }] = await Promise.all([
    import("node:fs/promises"),
    import("node:path"),
    import("node:url"),
  ]);
  const file = typeof path === "string" ? path : fileURLToPath(path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(checked, null, 2)}\n`, "utf8");
}
