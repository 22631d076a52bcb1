// The local backend's sandboxes started ahead of time (CINCH_LOCAL_POOL), against none (=0), with the
// built jar and real gVisor:
//   node bench/local-pool.mjs [--jar target/cinch-mcp.jar] [--calls 15] [--gap 1200] [--pools 1,0]
// For each pool size, in a fresh server each: the first call after start (spawn -> its answer, and
// initialize's answer -> its answer); sequential round trips of print(2+2) / console.log(2+2) with
// --gap ms between calls (the pool refills in the gap); a burst of 8 Python calls sent at once; and
// the idle cost of the server's whole process tree (PSS, its anonymous part, RSS, and CPU over 10 s)
// once the pool is full: compare the figures of the two pool sizes.
// Round trips are the client's: a tools/call written -> its answer read (process.hrtime).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { descendants, routeReplies, treeMemory, treePss } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const jar = args.jar ?? 'target/cinch-mcp.jar';
const calls = Number(args.calls ?? 15);
const gap = Number(args.gap ?? 1200);
const pools = (args.pools ?? '1,0').split(',').map(Number);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const fmt = (xs) => `p50 ${pct(xs, 0.5).toFixed(1)} ms, p90 ${pct(xs, 0.9).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)} (n=${xs.length})`;

function server(pool) {
  const spawned = now();
  const child = spawn('java', ['-jar', jar], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CINCH_BACKEND: 'local', CINCH_LOCAL_POOL: String(pool) },
    stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '', id = 0;
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  child.stderr.on('data', (d) => { err += d; });
  const request = (method, params) => new Promise((resolve) => {
    const n = ++id; waiting.set(n, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
  const call = async (language, code) => {
    const t = now();
    const msg = await request('tools/call', { name: 'execute_code', arguments: { code, language } });
    const ms = now() - t;
    const text = JSON.stringify(msg.result ?? msg.error);
    if (!text.includes('4')) throw new Error('unexpected answer: ' + text);
    return ms;
  };
  return { child, spawned, request, call, stderr: () => err };
}

// CPU time (user + system, in clock ticks) of a process and all its descendants.
function treeTicks(pid) {
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += Number(f[11]) + Number(f[12]);
    } catch { /* gone */ }
  }
  return total;
}

const PY = 'print(2+2)';
const JS = 'console.log(2+2)';
console.log(`load before: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
for (const pool of pools) {
  const s = server(pool);
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  const initialized = now();
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const first = await s.call('python', PY);
  console.log(`\nCINCH_LOCAL_POOL=${pool}`);
  console.log(`  first call after start: ${(now() - s.spawned).toFixed(0)} ms from spawn, ${first.toFixed(0)} ms from initialize's answer (${(now() - initialized).toFixed(0)})`);
  const py = [], js = [];
  for (let i = 0; i < calls; i++) {
    await sleep(gap); py.push(await s.call('python', PY));
    await sleep(gap); js.push(await s.call('javascript', JS));
  }
  console.log(`  python, ${gap} ms apart:     ${fmt(py)}`);
  console.log(`  javascript, ${gap} ms apart: ${fmt(js)}`);
  await sleep(gap);
  const t = now();
  const burst = await Promise.all(Array.from({ length: 8 }, () => s.call('python', PY)));
  console.log(`  burst of 8 python at once: all answered in ${(now() - t).toFixed(0)} ms; per call ${fmt(burst)}`);
  await sleep(3000); // the pool refills once nothing runs
  const ticks0 = treeTicks(s.child.pid), t0 = now();
  await sleep(10_000);
  const cpu = ((treeTicks(s.child.pid) - ticks0) / 100) / ((now() - t0) / 1000) * 100;
  const mem = treeMemory(s.child.pid);
  const pss = treePss(s.child.pid);
  console.log(`  idle (pool full): process tree PSS ${(pss.pss / 1024).toFixed(0)} MB, of it anonymous and shared memory ${(pss.pinned / 1024).toFixed(0)} MB (RSS summed ${(mem.rssKb / 1024).toFixed(0)} MB), CPU ${cpu.toFixed(2)} % of a core over 10 s`);
  s.child.stdin.end();
  await new Promise((r) => s.child.on('exit', r));
}
console.log(`\nload after: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
