// The official TypeScript MCP SDK's client against `forge mcp serve`: lists
// the tools and calls three, printing one JSON document on stdout.
//
//   node interop.mjs SDK_DIR stdio FORGE_BINARY
//   node interop.mjs SDK_DIR http URL TOKEN
//
// SDK_DIR holds node_modules/@modelcontextprotocol/sdk (npm install --prefix).
import { pathToFileURL } from "node:url";
import path from "node:path";

const [sdkDir, mode, target, token] = process.argv.slice(2);
const sdk = (p) => import(pathToFileURL(path.join(sdkDir, "node_modules/@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await sdk("client/index.js");

let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await sdk("client/stdio.js");
  transport = new StdioClientTransport({ command: target, args: ["mcp", "serve"], env: process.env, stderr: "inherit" });
} else {
  const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
}
const client = new Client({ name: "forge-interop", version: "1.0.0" });
await client.connect(transport);
const out = { server: client.getServerVersion(), tools: (await client.listTools()).tools.map((t) => t.name) };
out.whoami = await client.callTool({ name: "whoami", arguments: {} });
out.issues = await client.callTool({ name: "issues_list", arguments: { repo: "alice/demo" } });
out.view = await client.callTool({ name: "issue_view", arguments: { repo: "alice/demo", number: 99 } });
await client.close();
console.log(JSON.stringify(out));
