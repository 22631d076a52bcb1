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
import fs from 'node:fs';
import { descendants, jarServer, loadavg, median, options, sleep, treeCpuShare, treePss, untilQuiet } from './lib.mjs';

const args = options();
const jar = args.jar ?? 'target/cinch-mcp.jar';
const rounds = Number(args.rounds ?? 5);
const gap = Number(args.gap ?? 9000);
const pools = (args.pools ?? '1,0').split(',').map(Number);
const load = () => loadavg().split(' ').slice(0, 3).join(' ');

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
  const s = jarServer(jar, { CINCH_BACKEND: 'local', CINCH_LOCAL_POOL: String(pool) });
  s.call = async (name) => {
    const { msg, ms } = await s.callTool({ code: PROGRAMS[name].code, language: 'python' });
    if (msg.result?.isError || !PROGRAMS[name].check(msg.result ?? {})) {
      throw new Error(`${name}: unexpected answer: ${JSON.stringify(msg).slice(0, 600)}\n${s.stderr().slice(-2000)}`);
    }
    return ms;
  };
  return s;
}

async function idleCost(pid) {
  await untilQuiet(pid, 60_000);
  const cpu = await treeCpuShare(pid);
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
  await s.open();
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
  await s.stop();
}
if (results[0] && pools.some((p) => p > 0)) {
  const pool = pools.find((p) => p > 0);
  console.log('\nratio pool / no pool (p50):');
  for (const name of Object.keys(results[0])) {
    console.log(`  ${name.padEnd(6)} ${(median(results[pool][name]) / median(results[0][name])).toFixed(2)}x`);
  }
}
console.log(`\nload after: ${load()}`);
