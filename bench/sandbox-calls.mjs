// Per-call cost of the sandboxes, cold (a fresh sandbox per call, as every call gets): one server,
// then sequential tools/call round trips of a tiny program, timed at the client. Also the server's
// start (spawn -> ready line, spawn -> initialize answered) and its first call.
//   node bench/sandbox-calls.mjs --backend local|docker [--runtime runc|runsc] [--image IMG]
//       [--calls 20] [--language python|javascript] [--jar target/cinch-mcp.jar] [--java java]
// docker uses DOCKER_HOST from the environment (e.g. the engine of .ci/engine.sh) and --image for
// both languages (default: the backend's own images).
import { jarServer, now, options, pct } from './lib.mjs';

const args = options();
const jar = args.jar ?? 'target/cinch-mcp.jar';
const calls = Number(args.calls ?? 20);
const backend = args.backend ?? 'local';
const language = args.language ?? 'python';
const code = language === 'python' ? 'print(6 * 7)' : 'console.log(6 * 7)';
const env = { CINCH_FAST_START: '0', CINCH_BACKEND: backend };
if (backend === 'docker') {
  if (process.env.DOCKER_HOST) env.DOCKER_HOST = process.env.DOCKER_HOST;
  if (args.runtime) env.CINCH_DOCKER_RUNTIME = args.runtime;
  if (args.image) { env.CINCH_DOCKER_PYTHON_IMAGE = args.image; env.CINCH_DOCKER_NODE_IMAGE = args.image; }
}

const s = jarServer(jar, env, args.java ?? 'java');
const ms = () => now() - s.spawned;
let ready;
s.child.stderr.on('data', () => { if (ready === undefined && s.stderr().includes('ready on stdio')) ready = ms(); });
const call = async () => {
  const { msg, ms: roundTrip } = await s.callTool({ code, language });
  const r = msg.result?.structuredContent;
  if (!r || r.stdout !== '42\n') throw new Error('unexpected answer: ' + JSON.stringify(msg) + '\n' + s.stderr());
  return { roundTrip, inSandbox: r.durationMs };
};

await s.open();
const init = ms();
const first = await call();
const results = [];
for (let i = 1; i <= calls; i++) results.push(await call());
s.child.stdin.end();

const line = (name, xs) => `${name} p50 ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms`;
console.log(`${backend}${args.runtime ? ' ' + args.runtime : ''} ${language}: ready line ${ready?.toFixed(0)} ms, initialize ${init.toFixed(0)} ms, ` +
  `first call ${first.roundTrip.toFixed(0)} ms`);
console.log(`  ${calls} cold calls: ${line('round trip', results.map(r => r.roundTrip))}; ${line('in sandbox', results.map(r => r.inSandbox))}`);
console.log('  ' + (s.stderr().split('\n').find(l => l.includes('ready on stdio')) ?? '').slice(0, 220));
