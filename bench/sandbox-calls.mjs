// Per-call cost of the sandboxes, cold (a fresh sandbox per call, as every call gets): one server,
// then sequential tools/call round trips of a tiny program, timed at the client. Also the server's
// start (spawn -> ready line, spawn -> initialize answered) and its first call.
//   node bench/sandbox-calls.mjs --backend local|docker [--runtime runc|runsc] [--image IMG]
//       [--calls 20] [--language python|javascript] [--jar target/cinch-mcp.jar] [--java java]
// docker uses DOCKER_HOST from the environment (e.g. the engine of .ci/engine.sh) and --image for
// both languages (default: the backend's own images).
import { spawn } from 'node:child_process';
import { routeReplies } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const jar = args.jar ?? 'target/cinch-mcp.jar';
const java = args.java ?? 'java';
const calls = Number(args.calls ?? 20);
const backend = args.backend ?? 'local';
const language = args.language ?? 'python';
const code = language === 'python' ? 'print(6 * 7)' : 'console.log(6 * 7)';
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CINCH_FAST_START: '0', CINCH_BACKEND: backend };
if (backend === 'docker') {
  if (process.env.DOCKER_HOST) env.DOCKER_HOST = process.env.DOCKER_HOST;
  if (args.runtime) env.CINCH_DOCKER_RUNTIME = args.runtime;
  if (args.image) { env.CINCH_DOCKER_PYTHON_IMAGE = args.image; env.CINCH_DOCKER_NODE_IMAGE = args.image; }
}

const start = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
const child = spawn(java, ['-jar', jar], { env, stdio: ['pipe', 'pipe', 'pipe'] });
let err = '', ready;
const waiting = new Map();
child.stderr.on('data', d => { err += d; if (ready === undefined && err.includes('ready on stdio')) ready = ms(); });
routeReplies(child.stdout, waiting);
const send = (id, method, params) => new Promise(resolve => {
  waiting.set(id, resolve);
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
const call = async id => {
  const t = ms();
  const m = await send(id, 'tools/call', { name: 'execute_code', arguments: { code, language } });
  const r = m.result?.structuredContent;
  if (!r || r.stdout !== '42\n') throw new Error('unexpected answer: ' + JSON.stringify(m) + '\n' + err);
  return { roundTrip: ms() - t, inSandbox: r.durationMs };
};

await send('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
const init = ms();
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const first = await call(0);
const results = [];
for (let i = 1; i <= calls; i++) results.push(await call(i));
child.stdin.end();

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const line = (name, xs) => `${name} p50 ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms`;
console.log(`${backend}${args.runtime ? ' ' + args.runtime : ''} ${language}: ready line ${ready?.toFixed(0)} ms, initialize ${init.toFixed(0)} ms, ` +
  `first call ${first.roundTrip.toFixed(0)} ms`);
console.log(`  ${calls} cold calls: ${line('round trip', results.map(r => r.roundTrip))}; ${line('in sandbox', results.map(r => r.inSandbox))}`);
console.log('  ' + (err.split('\n').find(l => l.includes('ready on stdio')) ?? '').slice(0, 220));
