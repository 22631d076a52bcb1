// The TypeScript SDK's own clients against the built jar, each in the era it speaks:
//   v2 (@modelcontextprotocol/client, 2026-07-28 pinned, and 'auto' which probes first)
//   v1 (@modelcontextprotocol/sdk 1.x, the 2025 initialize handshake)
// For each: connect, the negotiated version, tools/list, a successful call checked against the
// tool's output schema, and a failing call as an isError result. Prints one JSON line per client;
// exits 0 only if every check held.
//
//   node sdk-clients.mjs CLIENTS_DIR JAR BASE_URL KEY
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [clientsDir, jar, baseUrl, key] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(path.join(clientsDir, 'node_modules', p)).href);
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CINCH_API_KEY: key, CINCH_BASE_URL: baseUrl };

async function exercise(name, client, transport, expectVersion) {
  const t0 = Date.now();
  await client.connect(transport);
  const connectMs = Date.now() - t0;
  const version = client.getNegotiatedProtocolVersion?.() ?? transport.negotiated;
  const tools = await client.listTools();
  const ok = await client.callTool({ name: 'execute_code', arguments: { code: 'print(6 * 7)' } });
  const bad = await client.callTool({ name: 'execute_code', arguments: { code: 'fake:exit=3' } });
  await client.close();
  const checks = {
    version: version === expectVersion,
    listed: tools.tools.length === 1 && tools.tools[0].name === 'execute_code',
    call: ok.isError === false && ok.structuredContent?.stdout === '42\n',
    failure: bad.isError === true,
  };
  const passed = Object.values(checks).every(Boolean);
  console.log(JSON.stringify({ client: name, version, connectMs, checks, passed }));
  return passed;
}

const v2 = await load('@modelcontextprotocol/client/dist/index.mjs');
const v2stdio = await load('@modelcontextprotocol/client/dist/stdio.mjs');
const v1client = await load('@modelcontextprotocol/sdk/dist/esm/client/index.js');
const v1stdio = await load('@modelcontextprotocol/sdk/dist/esm/client/stdio.js');
const spawnArgs = { command: 'java', args: ['-jar', jar], env, stderr: 'ignore' };

let all = true;
for (const [label, mode] of [['ts-sdk-v2 pinned 2026-07-28', { mode: { pin: '2026-07-28' } }], ['ts-sdk-v2 auto', { mode: 'auto' }]]) {
  const client = new v2.Client({ name: 'cinch-real-clients', version: '1.0.0' }, { versionNegotiation: mode });
  all = (await exercise(label, client, new v2stdio.StdioClientTransport(spawnArgs), '2026-07-28').catch((e) => { console.log(JSON.stringify({ client: label, error: String(e) })); return false; })) && all;
}
{
  const label = 'ts-sdk-v1 (2025)';
  const client = new v1client.Client({ name: 'cinch-real-clients', version: '1.0.0' });
  const transport = new v1stdio.StdioClientTransport(spawnArgs);
  transport.setProtocolVersion = (v) => { transport.negotiated = v; }; // v1 reports it only here
  all = (await exercise(label, client, transport, '2025-11-25').catch((e) => { console.log(JSON.stringify({ client: label, error: String(e) })); return false; })) && all;
}
process.exit(all ? 0 : 1);
