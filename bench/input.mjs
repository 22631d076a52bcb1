#!/usr/bin/env node
// What the input launcher costs: the same programs run with no input, with one argument (the
// launcher, nothing to write) and with a 1 MB file, through the built jar. No npm dependencies.
//
//   node bench/input.mjs [--calls 10] [--jar target/cinch-mcp.jar]
//
// With no CINCH_API_KEY in the environment the jar uses the local gVisor backend; with one (and
// CINCH_BASE_URL) it measures that API instead. Prints the median round trip and the median
// durationMs the backend reported, per case.
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const opt = { calls: 10, jar: 'target/cinch-mcp.jar' };
for (let i = 2; i < process.argv.length; i += 2) {
  opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
const calls = Number(opt.calls);

const server = spawn('java', ['-jar', opt.jar], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
readline.createInterface({ input: server.stdout }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id !== undefined && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
  }
});
let nextId = 1;
function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
}

const csv = 'id,value\n' + Array.from({ length: 90_000 }, (_, i) => `${i},${i % 1000}`).join('\n');
const cases = [
  ['python, no input', { code: 'print(1)' }],
  ['python, args', { code: 'print(1)', args: ['x'] }],
  ['python, 1 MB file', { code: "print(len(open('d.csv').read()))", files: { 'd.csv': csv } }],
  ['javascript, no input', { code: 'console.log(1)', language: 'javascript' }],
  ['javascript, args', { code: 'console.log(1)', language: 'javascript', args: ['x'] }],
  [
    'javascript, 1 MB file',
    {
      code: "console.log(require('fs').readFileSync('d.csv', 'utf8').length)",
      language: 'javascript',
      files: { 'd.csv': csv },
    },
  ],
];
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await request('initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'bench-input', version: '1' },
});
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
console.log(`csv: ${csv.length} chars; ${calls} calls per case`);
for (const [name, args] of cases) {
  const trips = [];
  const durations = [];
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    const reply = await request('tools/call', { name: 'execute_code', arguments: args });
    trips.push(Number(process.hrtime.bigint() - started) / 1e6);
    const result = reply.result;
    if (!result || result.isError) {
      console.error(name, JSON.stringify(reply).slice(0, 500));
      process.exit(1);
    }
    durations.push(result.structuredContent.durationMs);
  }
  console.log(
    `${name.padEnd(24)} round trip p50 ${median(trips).toFixed(0).padStart(5)} ms` +
      `   durationMs p50 ${String(median(durations)).padStart(5)}`,
  );
}
server.stdin.end();
