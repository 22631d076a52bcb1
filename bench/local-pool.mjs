// The local backend's sandboxes started ahead of time (CINCH_LOCAL_POOL), against none (=0), with the
// built jar and real gVisor:
//   node bench/local-pool.mjs [--jar target/cinch-mcp.jar] [--calls 15] [--gap 1200] [--pools 1,0]
// For each pool size, in a fresh server each: the first call after start (spawn -> its answer, and
// initialize's answer -> its answer); sequential round trips of print(2+2) / console.log(2+2) with
// --gap ms between calls (the pool refills in the gap); a burst of 8 Python calls sent at once; and
// the idle cost of the server's whole process tree (PSS, its anonymous part, RSS, and CPU over 10 s)
// once the pool is full: compare the figures of the two pool sizes.
// Round trips are the client's: a tools/call written -> its answer read (process.hrtime).
import { jarServer, loadavg, now, options, pct, sleep, treeCpuShare, treeMemory, treePss } from './lib.mjs';

const args = options();
const jar = args.jar ?? 'target/cinch-mcp.jar';
const calls = Number(args.calls ?? 15);
const gap = Number(args.gap ?? 1200);
const pools = (args.pools ?? '1,0').split(',').map(Number);
const fmt = (xs) => `p50 ${pct(xs, 0.5).toFixed(1)} ms, p90 ${pct(xs, 0.9).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)} (n=${xs.length})`;

function server(pool) {
  const s = jarServer(jar, { CINCH_BACKEND: 'local', CINCH_LOCAL_POOL: String(pool) });
  s.call = async (language, code) => {
    const { msg, ms } = await s.callTool({ code, language });
    const text = JSON.stringify(msg.result ?? msg.error);
    if (!text.includes('4')) throw new Error('unexpected answer: ' + text);
    return ms;
  };
  return s;
}

const PY = 'print(2+2)';
const JS = 'console.log(2+2)';
console.log(`load before: ${loadavg()}`);
for (const pool of pools) {
  const s = server(pool);
  await s.open();
  const initialized = now();
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
  const cpu = await treeCpuShare(s.child.pid);
  const mem = treeMemory(s.child.pid);
  const pss = treePss(s.child.pid);
  console.log(`  idle (pool full): process tree PSS ${(pss.pss / 1024).toFixed(0)} MB, of it anonymous and shared memory ${(pss.pinned / 1024).toFixed(0)} MB (RSS summed ${(mem.rssKb / 1024).toFixed(0)} MB), CPU ${cpu.toFixed(2)} % of a core over 10 s`);
  await s.stop();
}
console.log(`\nload after: ${loadavg()}`);
