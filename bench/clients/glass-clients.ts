import { sdk, sdkNode } from "../lib/dist.js";
import type { Glass, WebIrDocument } from "glass-sdk";
import type { BenchClient, BenchTargets, TransportName } from "./bench-client.js";

/**
 * glass-sdk (the built package) over one transport, with its defaults: payloads checked before
 * sending, answers checked before they are believed. The small call is
 * `glass.browser.observe({level: "summary"})`, the large one `glass.webIr.validate({ir})`, any other
 * (the ladder's) `glass.request(operation, payload)`.
 */
export async function openGlassClient(
  transport: TransportName,
  targets: BenchTargets,
): Promise<BenchClient & { readonly glass: Glass }> {
  const { bridge } = targets;
  const made =
    transport === "stdio"
      ? sdkNode.stdioTransport({ command: targets.stdioDaemon.command, args: targets.stdioDaemon.args })
      : transport === "socket"
        ? sdkNode.socketTransport({ path: targets.socketPath })
        : transport === "http"
          ? sdk.httpTransport({ url: bridge.url, token: bridge.token })
          : sdk.webSocketTransport({ url: bridge.wsUrl, token: bridge.token });
  const glass = await sdk.Glass.connect(made);
  const observe = targets.operations.small?.payload as { level: "summary" };
  const validate = targets.operations.large?.payload as { ir: WebIrDocument };
  return {
    transport,
    client: "glass-sdk",
    glass,
    call: (key: string) => {
      if (key === "small") return glass.browser.observe(observe);
      if (key === "large") return glass.webIr.validate(validate);
      const op = targets.operations[key]!;
      return glass.requestUntyped(op.operation, op.payload as never);
    },
    close: () => glass.close(),
  };
}
