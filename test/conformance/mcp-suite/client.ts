/**
 * The client under test for the MCP conformance suite's client scenarios
 * (`@modelcontextprotocol/conformance client --command …`): the suite starts a plain MCP server
 * for a scenario, runs this script with the server's URL as its last argument and the scenario's
 * name in `MCP_CONFORMANCE_SCENARIO`, and judges what it sees on the wire.
 *
 * Everything goes through glass-sdk's own public API — `httpTransport` and `Glass.connect` with
 * `negotiation: false` (the suite's servers are plain MCP servers, not Glass daemons) and
 * `serverStream: true` (an MCP server may send its requests on the standalone GET stream). A scenario
 * without steps of its own here (the OAuth ones) gets what any glass-sdk user's code does: connect
 * and list the tools — test/conformance/mcp-suite/expected-failures.json says why those fail. Every
 * call has a deadline well inside the suite's 30 s, so a server that never answers fails the call
 * rather than the suite's timeout. Run by scripts/mcp-conformance.ts.
 */
import { Glass, httpTransport } from "glass-sdk";

/** The steps of one scenario, given a connected client. */
type Steps = (glass: Glass) => Promise<void>;

/**
 * The answer an MCP client gives to `elicitation/create` when it applies the requested schema's
 * defaults (SEP-1034): every property with a `default` gets it. glass-sdk hands elicitation to the
 * caller's handler; this is such a handler.
 */
function acceptWithDefaults(params: Record<string, unknown> | undefined): {
  action: "accept";
  content: Record<string, unknown>;
} {
  const schema = params?.requestedSchema as { properties?: Record<string, { default?: unknown }> } | undefined;
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[name] = property.default;
  }
  return { action: "accept", content };
}

/** The handshake, then one request so the session is seen in use. */
const connectAndList: Steps = async (glass) => {
  await glass.listTools();
};

/** The scenarios with steps of their own, by the suite's name. */
const SCENARIOS: Record<string, Steps> = {
  initialize: connectAndList,
  // The suite's server offers add_numbers and checks the call it receives.
  tools_call: async (glass) => {
    const tools = await glass.listTools();
    if (!tools.some((tool) => tool.name === "add_numbers")) throw new Error("the server lists no add_numbers tool");
    const result = await glass.requestUntyped("add_numbers", { a: 5, b: 3 });
    process.stdout.write(`add_numbers: ${JSON.stringify(result)}\n`);
  },
  // The server closes the call's SSE stream after a priming event (with `retry`), and sends the
  // answer on a GET stream the client is expected to open.
  "sse-retry": async (glass) => {
    await glass.listTools();
    const result = await glass.requestUntyped("test_reconnection", {});
    process.stdout.write(`test_reconnection: ${JSON.stringify(result)}\n`);
  },
  // The server asks the client (elicitation/create, on the standalone GET stream) and checks the answer.
  "elicitation-sep1034-client-defaults": async (glass) => {
    const result = await glass.requestUntyped("test_client_elicitation_defaults", {});
    process.stdout.write(`test_client_elicitation_defaults: ${JSON.stringify(result)}\n`);
  },
};

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  if (url === undefined || !/^https?:\/\//.test(url)) {
    process.stderr.write("usage: client.ts <server URL> (with MCP_CONFORMANCE_SCENARIO set)\n");
    return 2;
  }
  const steps = SCENARIOS[scenario] ?? connectAndList;
  const glass = await Glass.connect(httpTransport({ url, serverStream: true }), {
    negotiation: false,
    retry: false,
    deadlineMs: 10_000,
    clientInfo: { name: "glass-sdk-conformance-client", version: "0.1.0" },
    serverRequestHandlers: { "elicitation/create": acceptWithDefaults },
  });
  try {
    await steps(glass);
  } finally {
    await glass.close();
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    process.exitCode = 1;
  },
);
