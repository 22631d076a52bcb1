// The docker backend's containers started ahead of time (CINCH_DOCKER_POOL), against none (=0), in
// one run, on each runtime, with the built jar and a real engine (DOCKER_HOST, e.g. the engine of
// .ci/engine.sh with its cinch-test:1 image):
//   DOCKER_HOST=unix:///tmp/ce/docker.sock node bench/docker-pool.mjs [--jar target/cinch-mcp.jar]
//       [--image cinch-test:1] [--runtimes runc,runsc] [--pools 1,0] [--calls 15] [--gap 1000]
// For each runtime and pool size, in a fresh server each: sequential round trips of print(2+2) and
// console.log(2+2), alternating, --gap ms between calls (the pool refills in the gap, as while a
// model writes its next program); then, with a pool, the idle cost of the waiting containers as the
// engine reports it (docker stats: memory, CPU). Prints the p50s, the ratios of pool to none and
// the targets (Python <= 0.15x, JavaScript <= 0.2x), and the load before and after.
// Round trips are the client's: a tools/call written -> its answer read (process.hrtime).
import { spawnSync } from 'node:child_process';
import { jarServer, loadavg, options, pct, sleep } from './lib.mjs';

const args = options();
const jar = args.jar ?? 'target/cinch-mcp.jar';
const image = args.image ?? 'cinch-test:1';
const calls = Number(args.calls ?? 15);
const gap = Number(args.gap ?? 1000);
const runtimes = (args.runtimes ?? 'runc,runsc').split(',');
const pools = (args.pools ?? '1,0').split(',').map(Number);
if (!process.env.DOCKER_HOST) throw new Error('set DOCKER_HOST to the engine to measure');
const fmt = (xs) => `p50 ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)} (n=${xs.length})`;
const docker = (...a) => spawnSync('docker', a, { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);

function server(runtime, pool) {
  const s = jarServer(jar, {
    DOCKER_HOST: process.env.DOCKER_HOST, CINCH_FAST_START: '0',
    CINCH_BACKEND: 'docker', CINCH_DOCKER_RUNTIME: runtime, CINCH_DOCKER_POOL: String(pool),
    CINCH_DOCKER_PYTHON_IMAGE: image, CINCH_DOCKER_NODE_IMAGE: image });
  s.call = async (language, code) => {
    const { msg, ms } = await s.callTool({ code, language });
    if (msg.result?.structuredContent?.stdout !== '4\n') throw new Error('unexpected answer: ' + JSON.stringify(msg) + '\n' + s.stderr());
    return ms;
  };
  return s;
}

// This backend's running containers, as "name interpreter".
const ours = () => docker('ps', '--no-trunc', '--filter', 'label=dev.cinchmcp.owner', '--format', '{{.Names}} {{.Command}}')
  .map((l) => `${l.split(' ')[0]} ${l.includes(' python3 ') ? 'python' : 'node'}`);

async function waitForPool(s, pool) {
  for (let i = 0; pool > 0 && i < 300; i++) {
    if (ours().length >= 2 * pool) return;
    await sleep(100);
  }
  if (pool > 0) throw new Error('the pool did not fill within 30 s\n' + s.stderr());
}

const PY = 'print(2+2)';
const JS = 'console.log(2+2)';
const results = {};
console.log(`load before: ${loadavg()}  (${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()})`);
for (const runtime of runtimes) {
  for (const pool of pools) {
    const s = server(runtime, pool);
    await s.open();
    await s.call('python', PY); // the image looked for; not counted
    await waitForPool(s, pool);
    const py = [], js = [];
    for (let i = 0; i < calls; i++) {
      await sleep(gap); py.push(await s.call('python', PY));
      await sleep(gap); js.push(await s.call('javascript', JS));
    }
    results[`${runtime}/${pool}`] = { py, js };
    console.log(`\n${runtime}, CINCH_DOCKER_POOL=${pool} (load ${loadavg()})`);
    console.log(`  python, ${gap} ms apart:     ${fmt(py)}`);
    console.log(`  javascript, ${gap} ms apart: ${fmt(js)}`);
    if (pool > 0) {
      await sleep(3000);
      await waitForPool(s, pool);
      const names = ours();
      const stats = docker('stats', '--no-stream', '--format', '{{.Name}} {{.MemUsage}} {{.CPUPerc}}', ...names.map((n) => n.split(' ')[0]));
      for (const line of stats) {
        const [name, ...rest] = line.split(' ');
        const kind = names.find((n) => n.startsWith(name + ' ')).split(' ')[1];
        console.log(`  idle, waiting ${kind} container: ${rest.join(' ')}`);
      }
    }
    await s.stop();
  }
  const withPool = results[`${runtime}/${pools[0]}`], without = results[`${runtime}/${pools[1]}`];
  if (withPool && without) {
    const ratio = (a, b) => (pct(a, 0.5) / pct(b, 0.5)).toFixed(2);
    console.log(`\n${runtime}: p50 with the pool / without: python ${ratio(withPool.py, without.py)}x (target <= 0.15x),` +
      ` javascript ${ratio(withPool.js, without.js)}x (target <= 0.2x)`);
  }
}
console.log(`\nload after: ${loadavg()}  (${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()})`);
