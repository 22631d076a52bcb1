#!/usr/bin/env node
// Soak run: 10,000 tools/call through the built jar against the local fake API, mixing successes
// with every failure the API can give (and some malformed lines and cancellations), a bounded number
// in flight at once. It checks that every call is answered (none lost, none doubled, each with the
// expected kind of answer) and samples the server's resident memory as it goes.
//
//   node bench/soak.mjs [--calls 10000] [--inflight 32] [--jar target/cinch-mcp.jar] [--plain]
//
// Exit status 0 when every check held. Loopback only; bounded in count and time.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const CALLS = Number(arg('calls', 10000));
const IN_FLIGHT = Number(arg('inflight', 32));
const jar = path.resolve(arg('jar', path.join(root, 'target/cinch-mcp.jar')));
// The fast launch's options (the one place that holds them), unless --plain.
const launchFile = path.join(root, 'src/main/resources/dev/cinchmcp/launch/jvm-options.txt');
const extraArgs = (arg('jvm', '') || '').split(' ').filter(Boolean);
// A line that begins with [java 25+] or [java 17-24] counts only for those Java versions.
const javaFeature = Number((spawnSync('java', ['-XshowSettings:properties', '-version'], { encoding: 'utf8' }).stderr
  .match(/java\.specification\.version = (\d+)/) ?? [])[1] ?? 0);
const fastArgs = readFileSync(launchFile, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
  .flatMap((l) => {
    const guard = l.match(/^\[\s*java\s+(\d+)(?:(\+)|-(\d+))?\s*\]\s*(.*)$/);
    if (!guard) return [l];
    const from = Number(guard[1]), to = guard[2] ? Infinity : Number(guard[3] ?? guard[1]);
    return javaFeature >= from && javaFeature <= to ? [guard[4]] : [];
  });
const jvmArgs = [...(!process.argv.includes('--plain') && existsSync(launchFile)
  ? [...fastArgs, '-Dcinch.faststart.child=true'] : []), ...extraArgs];
const deadline = Date.now() + 10 * 60 * 1000;

// What each kind of call sends, and how its answer is recognised.
const KINDS = [
  { name: 'ok', code: 'print(1)', check: (r) => r.result && !r.result.isError && r.result.structuredContent?.stdout === '42\n' },
  { name: 'exit1', code: 'fake:exit=1\nfake:stderr=boom', check: (r) => r.result?.isError && r.result.structuredContent?.exitCode === 1 },
  { name: 'cut', code: 'fake:stdout=50000', check: (r) => r.result?.structuredContent?.stdoutTruncated === true && r.result.structuredContent.stdoutLength === 50000 },
  ...[400, 401, 402, 403, 413, 422, 429, 500, 503].map((s) => ({
    name: `http${s}`, code: `fake:status=${s}`, check: (r) => r.result?.isError === true && !r.result.structuredContent,
  })),
  { name: 'badargs', args: { code: '' }, check: (r) => r.result?.isError === true && /Invalid arguments/.test(r.result.content[0].text) },
];

const api = spawn(process.execPath, [path.join(root, 'scripts/fake-cinch-api.mjs'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  createInterface({ input: api.stdout }).once('line', (l) => resolve(Number(l.split(' ').pop())));
  api.once('exit', () => reject(new Error('the fake API did not start')));
});

const server = spawn('java', [...jvmArgs, '-jar', jar], {
  stdio: ['pipe', 'pipe', 'pipe'],
  env: { PATH: process.env.PATH, CINCH_API_KEY: 'soak-key', CINCH_BASE_URL: `http://127.0.0.1:${port}`, CINCH_TIMEOUT_MS: '20000' },
});
server.stderr.resume();
const cleanup = () => { server.kill('SIGKILL'); api.kill('SIGKILL'); };
process.on('SIGINT', () => { cleanup(); process.exit(130); });

const rssMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
};

// Heap in use after a full collection: what the server really keeps (RSS also counts heap the JVM
// has touched once and not given back, so it rises to its cap and then stays flat).
const liveHeapMb = () => {
  spawnSync('jcmd', [String(server.pid), 'GC.run'], { encoding: 'utf8' });
  const info = spawnSync('jcmd', [String(server.pid), 'GC.heap_info'], { encoding: 'utf8' }).stdout || '';
  const used = [...info.matchAll(/used (\d+)K/g)].map((m) => Number(m[1]));
  return used.length ? Math.round(used.slice(0, 2).reduce((a, b) => a + b, 0) / 1024) : NaN;
};

const pending = new Map();
let nonJson = 0;
const replies = new Map();
createInterface({ input: server.stdout }).on('line', (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { nonJson++; return; }
  if (msg.id === undefined || msg.id === null || msg.method) return; // id null: the answer to a malformed line
  replies.set(msg.id, (replies.get(msg.id) || 0) + 1);
  const waiter = pending.get(msg.id);
  if (waiter) { pending.delete(msg.id); waiter(msg); }
});
const send = (obj) => server.stdin.write(typeof obj === 'string' ? obj + '\n' : JSON.stringify(obj) + '\n');
const request = (id, method, params) => new Promise((resolve) => { pending.set(id, resolve); send({ jsonrpc: '2.0', id, method, params }); });

await request('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const heapStart = liveHeapMb();
const memory = [{ calls: 0, ...rssMb() }];

const counts = {};
const wrong = [];
let next = 0;
let answered = 0;
let cancelled = 0;
const t0 = Date.now();
async function worker() {
  while (next < CALLS && Date.now() < deadline) {
    const n = next++;
    const kind = KINDS[n % KINDS.length];
    if (n % 97 === 0) send('{"jsonrpc":"2.0","id":'); // a malformed line now and then
    if (n % 101 === 0) {
      // A call cancelled at once: it must get no reply (or, if the answer won the race, exactly one).
      send({ jsonrpc: '2.0', id: `x${n}`, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'fake:sleep=50' } } });
      send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `x${n}` } });
      cancelled++;
    }
    const reply = await request(n, 'tools/call', { name: 'execute_code', arguments: kind.args ?? { code: kind.code } });
    answered++;
    counts[kind.name] = (counts[kind.name] || 0) + 1;
    if (!kind.check(reply)) wrong.push({ n, kind: kind.name, reply: JSON.stringify(reply).slice(0, 300) });
    if (answered % 1000 === 0) memory.push({ calls: answered, ...rssMb() });
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
const seconds = (Date.now() - t0) / 1000;
const end = rssMb();
const heapEnd = liveHeapMb();
server.stdin.end();
const exitCode = await new Promise((resolve) => server.once('exit', (code) => resolve(code)));
api.kill();

const doubled = [...replies.entries()].filter(([, c]) => c > 1).map(([id]) => id);
const cancelledAnswered = [...replies.keys()].filter((id) => String(id).startsWith('x')).length;
console.log(`soak: ${answered} of ${CALLS} calls answered in ${seconds.toFixed(1)} s (${Math.round(answered / seconds)} calls/s, ${IN_FLIGHT} in flight)`);
console.log(`launch: java ${[...jvmArgs, '-jar', path.basename(jar)].join(' ')}`);
console.log(`kinds: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`cancelled at once: ${cancelled} (answered anyway, having won the race: ${cancelledAnswered}); malformed lines: ${Math.floor(CALLS / 97) + 1}`);
console.log(`memory (MB): ${memory.map((m) => `${m.calls}:${m.rss}`).join(' ')}; end RSS ${end.rss}, peak ${end.hwm}`);
console.log(`live heap after a full GC (MB): ${heapStart} at start, ${heapEnd} after ${answered} calls`);
console.log(`wrong answers: ${wrong.length}; doubled replies: ${doubled.length}; non-JSON stdout lines: ${nonJson}; exit status ${exitCode}`);
for (const w of wrong.slice(0, 5)) console.log('  wrong:', JSON.stringify(w));
const ok = answered === CALLS && wrong.length === 0 && doubled.length === 0 && nonJson === 0 && exitCode === 0;
console.log(ok ? 'soak: PASS' : 'soak: FAIL');
process.exit(ok ? 0 : 1);
