import { describe, expectTypeOf, it } from "vitest";
import {
  Glass,
  type ConnectedGlass,
  type GlassCapabilityAgreement,
  type GlassCapabilityManifest,
  type GlassTransport,
} from "glass-sdk";

declare const transport: GlassTransport;

describe("what Glass.connect resolves with", () => {
  it("with the Glass negotiation (the default): a ConnectedGlass, whose manifest and agreement are never undefined", () => {
    expectTypeOf(Glass.connect(transport)).resolves.toEqualTypeOf<ConnectedGlass>();
    expectTypeOf(Glass.connect(transport, { deadlineMs: 5000 })).resolves.toEqualTypeOf<ConnectedGlass>();
    expectTypeOf<ConnectedGlass["manifest"]>().toEqualTypeOf<GlassCapabilityManifest>();
    expectTypeOf<ConnectedGlass["agreement"]>().toEqualTypeOf<GlassCapabilityAgreement>();
    expectTypeOf<ConnectedGlass>().toExtend<Glass>();
  });

  it("with negotiation: false (a plain MCP server): a Glass, whose manifest may be undefined", () => {
    expectTypeOf(Glass.connect(transport, { negotiation: false })).resolves.toEqualTypeOf<Glass>();
    expectTypeOf<Glass["manifest"]>().toEqualTypeOf<GlassCapabilityManifest | undefined>();
  });

  it("Glass.create, not connected yet: a Glass", () => {
    expectTypeOf(Glass.create(transport)).toEqualTypeOf<Glass>();
  });
});
