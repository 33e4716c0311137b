/**
 * A function of your own that drives Glass: sign in to the shop and return the title of the page
 * the sign-in lands on. sign-in.test.ts next to it tests it three ways, without a browser.
 *
 * It fills the form one field at a time, observing before each action and naming the revision it
 * observed, then clicks "Sign in". A reference names the observation it came from (`r12:c…:b4`), and
 * each action moves the page on, so the next action's reference comes from a new observation: a
 * real daemon refuses an older one (`target.staleReference`). When the page moved on between an
 * observation and an action (`staleRevision`: nothing was changed, the advice is to observe again),
 * it starts over once — filling a field sets its value, so filling it again is harmless; a second
 * stale page is thrown to the caller. On a daemon socket, call it inside
 * `glass.withLease(() => signIn(…))`.
 */
import { type Glass, GlassError, type ResultOf } from "glass-sdk";

export async function signIn(glass: Glass, email: string, password: string): Promise<string> {
  try {
    return await fillAndSubmit(glass, email, password);
  } catch (error) {
    if (!(error instanceof GlassError) || error.code !== "staleRevision") throw error;
    return await fillAndSubmit(glass, email, password);
  }
}

async function fillAndSubmit(glass: Glass, email: string, password: string): Promise<string> {
  for (const [name, value] of [
    ["Email", email],
    ["Password", password],
  ] as const) {
    const page = await glass.browser.observe({ level: "interactive" });
    await glass.browser.fillForm({
      fields: [{ target: referenceOf(page, name), value }],
      expectedRevision: page.revision,
    });
  }
  const filled = await glass.browser.observe({ level: "interactive" });
  await glass.browser.click({ target: referenceOf(filled, "Sign in"), expectedRevision: filled.revision });
  const landed = await glass.browser.observe({ level: "interactive" });
  return landed.page.title;
}

/** The reference of the element named `name` in an interactive observation. */
function referenceOf(observation: ResultOf<"browser.observe">, name: string): string {
  const regions = observation.level !== undefined ? observation.regions : [];
  const target = regions.flatMap((region) => region.targets ?? []).find((candidate) => candidate.name === name);
  if (target === undefined) throw new Error(`the page has no element named ${name}`);
  return target.reference;
}
