import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`), or the one `CHROMIUM_PATH` names. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless Chromium for the browser suite, without the background services a test does not need. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}
