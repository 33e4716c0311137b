import { describe, expect, it } from "vitest";
import { ClientRedaction } from "../../src/client/redaction.js";
import { LeaseError } from "../../src/errors/error-classes.js";
import { GlassError } from "../../src/errors/glass-error.js";
import type { GlassTransport } from "../../src/transport/transport.js";

const TOKEN = "lease-token-0123456789abcdefghijklmnopqrstuv";
const transport = (redact?: (text: string) => string): GlassTransport => ({ redact }) as unknown as GlassTransport;

describe("ClientRedaction.text", () => {
  it("scrubs the lease tokens it was told of, and the extra secrets of one call", () => {
    const redaction = new ClientRedaction(transport());
    redaction.rememberToken(TOKEN);
    expect(redaction.text(`daemon said: bad token ${TOKEN}`)).toBe("daemon said: bad token [redacted]");
    expect(redaction.text("hand-built secret-value-0123456789", ["secret-value-0123456789"])).toBe(
      "hand-built [redacted]",
    );
  });

  it("keeps scrubbing the latest 16 tokens and lets older ones go", () => {
    const redaction = new ClientRedaction(transport());
    const tokens = Array.from({ length: 17 }, (_, i) => `token-${String(i).padStart(2, "0")}-0123456789abcdefghij`);
    for (const token of tokens) redaction.rememberToken(token);
    expect(redaction.text(tokens[16]!)).toBe("[redacted]");
    expect(redaction.text(tokens[1]!)).toBe("[redacted]");
    expect(redaction.text(tokens[0]!)).toBe(tokens[0]);
  });

  it("goes through the transport's own scrubbing, and ignores one that throws or returns something else", () => {
    expect(
      new ClientRedaction(transport((text) => text.replace("bridge-secret", "[hidden]"))).text("bridge-secret"),
    ).toBe("[hidden]");
    const throwing = transport(() => {
      throw new Error("broken");
    });
    expect(new ClientRedaction(throwing).text("plain")).toBe("plain");
    expect(new ClientRedaction(transport(() => 5 as unknown as string)).text("plain")).toBe("plain");
  });
});

describe("ClientRedaction.glassError", () => {
  it("returns an error with nothing to scrub as it is", () => {
    const redaction = new ClientRedaction(transport());
    redaction.rememberToken(TOKEN);
    const error = new GlassError({ code: "staleRevision", message: "stale" });
    expect(redaction.glassError(error)).toBe(error);
  });

  it("gives a scrubbed copy of the same class when the message, details or a cause holds a secret", () => {
    const redaction = new ClientRedaction(transport());
    redaction.rememberToken(TOKEN);
    const leaked = new LeaseError({
      code: "leaseNotOwner",
      message: `token ${TOKEN} is not yours`,
      details: { token: TOKEN },
      operation: "browser.click",
      requestId: "r-4",
    });
    const shown = redaction.glassError(leaked);
    expect(shown).toBeInstanceOf(LeaseError);
    expect(shown).toMatchObject({ operation: "browser.click", requestId: "r-4", details: { token: "[redacted]" } });
    expect(shown.message).not.toContain(TOKEN);
    const viaCause = new GlassError({ code: "x", message: "m", cause: new Error(`socket said ${TOKEN}`) });
    const copy = redaction.glassError(viaCause);
    expect(copy).not.toBe(viaCause);
    expect(copy.cause).toBeUndefined();
  });

  it("makes anything else thrown a GlassError with code internal", () => {
    const error = new ClientRedaction(transport()).glassError(new TypeError("boom"));
    expect(error).toBeInstanceOf(GlassError);
    expect(error.code).toBe("internal");
    expect(error.rawMessage).toContain("boom");
  });
});

describe("ClientRedaction.logEvent", () => {
  it("scrubs a wire detail and puts it on one line, and passes other events through as they are", () => {
    const redaction = new ClientRedaction(transport());
    redaction.rememberToken(TOKEN);
    expect(redaction.logEvent({ type: "wire", detail: `sent ${TOKEN}\nnext` })).toEqual({
      type: "wire",
      detail: "sent [redacted]\\nnext",
    });
    const request = { type: "request", operation: "browser.click", requestId: "r-1", attempt: 0 } as const;
    expect(redaction.logEvent(request)).toBe(request);
    const clean = { type: "connection", detail: "connected" } as const;
    expect(redaction.logEvent(clean)).toBe(clean);
  });

  it("scrubs an error code the daemon sent in a response event", () => {
    const redaction = new ClientRedaction(transport());
    redaction.rememberToken(TOKEN);
    const event = { type: "response", operation: "x", requestId: "r", ok: false, code: TOKEN, ms: 3 } as const;
    expect(redaction.logEvent(event)).toEqual({ ...event, code: "[redacted]" });
  });
});
