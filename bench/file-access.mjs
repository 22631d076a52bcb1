// gVisor's file access for the sandbox's read-only host mounts (/usr, /lib, /bin): `shared` (runsc's
// default: every lookup revalidated against the host) against `exclusive` (the sandbox caches what
// it looked up), on a cold data call: two servers of the built jar with no pool, one per mode (runsc
// wrapped to set the flag, in place of the server's own), their calls alternated --gap ms apart:
//   node bench/file-access.mjs [--jar target/cinch-mcp.jar] [--calls 6] [--gap 3000]
// Needs runsc, /usr/bin/python3 and Debian's python3-numpy and python3-pandas.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, routeReplies } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const jar = args.jar ?? 'target/cinch-mcp.jar';
const calls = Number(args.calls ?? 6);
const gap = Number(args.gap ?? 3000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const runsc = ['/usr/bin/runsc', '/usr/local/bin/runsc'].find((p) => fs.existsSync(p));
const CODE = 'import numpy as np, pandas as pd\nprint(pd.DataFrame({"k": np.arange(10_000) % 7, "v": 1}).groupby("k").sum().v.sum())';

function server(mode) {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), `cinch-bench-${mode}-`));
  // The server passes its own --file-access-mounts: the wrapper drops it and sets this mode.
  const wrapper = [
    '#!/bin/sh',
    'n=$#',
    'for a in "$@"; do case "$a" in --file-access-mounts=*) ;; *) set -- "$@" "$a" ;; esac; done',
    'shift $n',
    `exec ${runsc} --file-access-mounts=${mode} "$@"`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(bin, 'runsc'), wrapper, { mode: 0o755 });
  const child = spawn('java', ['-jar', jar], {
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, CINCH_BACKEND: 'local', CINCH_LOCAL_POOL: '0' },
    stdio: ['pipe', 'pipe', 'inherit'] });
  let id = 0;
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  const request = (method, params) => new Promise((resolve) => {
    const n = ++id; waiting.set(n, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
  const call = async () => {
    const t = now();
    const msg = await request('tools/call', { name: 'execute_code', arguments: { code: CODE, language: 'python' } });
    if (msg.result?.structuredContent?.stdout !== '10000\n') throw new Error(`${mode}: ${JSON.stringify(msg).slice(0, 500)}`);
    return now() - t;
  };
  const stop = async () => { child.stdin.end(); await new Promise((r) => child.on('exit', r)); fs.rmSync(bin, { recursive: true }); };
  return { request, call, stop, child, mode };
}

console.log(`load before: ${load()}; ${calls} cold calls per mode, alternated ${gap} ms apart`);
const servers = [server('shared'), server('exclusive')];
for (const s of servers) {
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  s.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  await s.call(); // warms the host's page cache and the JIT alike for both
}
const times = { shared: [], exclusive: [] };
for (let i = 0; i < calls; i++) {
  for (const s of i % 2 ? [...servers].reverse() : servers) {
    await sleep(gap);
    times[s.mode].push(await s.call());
  }
}
for (const s of servers) await s.stop();
for (const [mode, xs] of Object.entries(times)) {
  console.log(`  ${mode.padEnd(9)} p50 ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`);
}
console.log(`  exclusive / shared: ${(median(times.exclusive) / median(times.shared)).toFixed(2)}x`);
console.log(`load after: ${load()}`);
