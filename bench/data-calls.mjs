// Data work in the local gVisor sandbox, as a model does it: a pandas table, a matplotlib chart and a
// print, each call --gap ms after the last answer (the model reads it and writes the next program),
// through the built jar with real gVisor, with the pool (CINCH_LOCAL_POOL=1, the default: plain
// sandboxes, and data sandboxes that imported numpy/pandas/matplotlib ahead) and without (=0), in
// one run:
//   node bench/data-calls.mjs [--jar target/cinch-mcp.jar] [--rounds 5] [--gap 9000] [--pools 1,0]
// Needs runsc, /usr/bin/python3 and Debian's python3-numpy, python3-pandas, python3-matplotlib.
// Prints per program the p50 (and min, max) of the client's round trip, the ratio pool / no pool,
// and for the pool the idle cost of the server's process tree before any data call and with a data
// sandbox waiting (PSS, its anonymous part, CPU over 10 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { descendants, median, routeReplies, treeCpu, treePss, untilQuiet } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const jar = args.jar ?? 'target/cinch-mcp.jar';
const rounds = Number(args.rounds ?? 5);
const gap = Number(args.gap ?? 9000);
const pools = (args.pools ?? '1,0').split(',').map(Number);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const PROGRAMS = {
  table: {
    code: [
      'import numpy as np, pandas as pd',
      'df = pd.DataFrame({"k": np.arange(10_000) % 7, "v": np.random.default_rng(1).random(10_000)})',
      'print(df.groupby("k").sum().round(2))',
    ].join('\n'),
    check: (r) => r.structuredContent?.stdout?.includes('v'),
  },
  chart: {
    code: [
      'import matplotlib.pyplot as plt',
      'plt.plot([1, 4, 9, 16, 25])',
      'plt.title("squares")',
      'plt.show()',
    ].join('\n'),
    check: (r) => (r.content ?? []).some((c) => c.type === 'image'),
  },
  print: { code: 'print(2+2)', check: (r) => r.structuredContent?.stdout === '4\n' },
};

function server(pool) {
  const child = spawn('java', ['-jar', jar], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CINCH_BACKEND: 'local', CINCH_LOCAL_POOL: String(pool) },
    stdio: ['pipe', 'pipe', 'pipe'] });
  let id = 0;
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const request = (method, params) => new Promise((resolve) => {
    const n = ++id; waiting.set(n, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
  const call = async (name) => {
    const t = now();
    const msg = await request('tools/call', { name: 'execute_code', arguments: { code: PROGRAMS[name].code, language: 'python' } });
    const ms = now() - t;
    if (msg.result?.isError || !PROGRAMS[name].check(msg.result ?? {})) {
      throw new Error(`${name}: unexpected answer: ${JSON.stringify(msg).slice(0, 600)}\n${err.slice(-2000)}`);
    }
    return ms;
  };
  return { child, request, call };
}

async function idleCost(pid) {
  await untilQuiet(pid, 60_000);
  const cpu0 = treeCpu(pid).ms, t0 = now();
  await sleep(10_000);
  const cpu = (treeCpu(pid).ms - cpu0) / (now() - t0) * 100;
  const pss = treePss(pid);
  const sandboxes = descendants(pid).filter((p) => {
    try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('runsc-sandbox'); } catch { return false; }
  }).length;
  return `${sandboxes} sandboxes waiting: PSS ${(pss.pss / 1024).toFixed(0)} MB, anonymous and shared ${(pss.pinned / 1024).toFixed(0)} MB, CPU ${cpu.toFixed(2)} % of a core`;
}

const fmt = (xs) => `p50 ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;
console.log(`load before: ${load()}; ${rounds} rounds, calls ${gap} ms apart`);
const results = {};
for (const pool of pools) {
  const s = server(pool);
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  await s.call('print'); // the self-test is over, the plain pool filling
  const before = pool > 0 ? await idleCost(s.child.pid) : null;
  const times = { table: [], chart: [], print: [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(times)) {
      await sleep(gap);
      times[name].push(await s.call(name));
    }
  }
  results[pool] = times;
  console.log(`\nCINCH_LOCAL_POOL=${pool} (load ${load()})`);
  for (const [name, xs] of Object.entries(times)) console.log(`  ${name.padEnd(6)} ${fmt(xs)}`);
  if (pool > 0) {
    console.log(`  idle, no data call yet:     ${before}`);
    await s.call('table'); // a data sandbox for numpy + pandas is started once it ends
    await s.call('table');
    console.log(`  idle, a data sandbox waits: ${await idleCost(s.child.pid)}`);
  }
  s.child.stdin.end();
  await new Promise((r) => s.child.on('exit', r));
}
if (results[0] && pools.some((p) => p > 0)) {
  const pool = pools.find((p) => p > 0);
  console.log('\nratio pool / no pool (p50):');
  for (const name of Object.keys(results[0])) {
    console.log(`  ${name.padEnd(6)} ${(median(results[pool][name]) / median(results[0][name])).toFixed(2)}x`);
  }
}
console.log(`\nload after: ${load()}`);
