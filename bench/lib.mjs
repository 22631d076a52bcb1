// What the bench scripts share: the command line, the jar as a server, the local fake Cinch API,
// and memory and CPU summed over a process tree.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The command line's `--name value` pairs, as an object. */
export const options = () => Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds on a monotonic clock (process.hrtime). */
export const now = () => Number(process.hrtime.bigint()) / 1e6;
/** The p-quantile (0 to 1) of xs, by nearest rank. */
export const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
/** The load averages (1, 5 and 15 minutes) and the rest of /proc/loadavg. */
export const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();

/**
 * `java -jar jar` as an MCP server on stdio, with PATH, HOME and `env`. request() resolves with the
 * reply; callTool() with { msg, ms }, ms being the client's round trip (a tools/call written -> its
 * answer read); open() does the 2025 handshake; stop() ends stdin and waits for the exit.
 */
export function jarServer(jar, env, java = 'java') {
  const spawned = now();
  const child = spawn(java, ['-jar', jar], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '', id = 0;
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  child.stderr.on('data', (d) => { err += d; });
  const request = (method, params) => new Promise((resolve) => {
    const n = ++id; waiting.set(n, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
  const exited = new Promise((r) => child.on('exit', r));
  return {
    child, spawned, request, stderr: () => err,
    async callTool(args) {
      const t = now();
      const msg = await request('tools/call', { name: 'execute_code', arguments: args });
      return { msg, ms: now() - t };
    },
    async open() {
      const reply = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      return reply;
    },
    stop() { child.stdin.end(); return exited; },
  };
}

/** Starts scripts/fake-cinch-api.mjs on a free port; resolves with { child, port }. */
export function startFake(repoRoot, onStderr = (d) => process.stderr.write(`[fake-api] ${d}`)) {
  const script = path.join(repoRoot, 'scripts', 'fake-cinch-api.mjs');
  const child = spawn(process.execPath, [script, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', onStderr);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the fake API did not start within 10 s')), 10_000);
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (\d+)/);
      if (m) { clearTimeout(timer); child.stdout.resume(); resolve({ child, port: Number(m[1]) }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`fake API exited (${code}) before listening`)); });
  });
}

/** The middle value (the lower of the two middles), NaN for none. */
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

/**
 * What a bench that compares the jar with the peer does first: prints the load, starts the fake
 * API, prepares the peer and empties its results folder. Resolves with { fake, peer }.
 */
export async function startComparison(repoRoot, peerDir, resultsDir) {
  console.log(`load: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const fake = await startFake(repoRoot, () => {});
  const peer = preparePeer(repoRoot, peerDir);
  fs.rmSync(resultsDir, { recursive: true, force: true });
  return { fake, peer };
}

// Memory of a server and of every process it started (a launcher that starts the real server as a
// child must not look lighter than it is): RSS and peak RSS summed over the process tree.
export function treeMemory(pid) {
  const one = (p) => {
    try {
      const s = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (k) => { const m = s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm')); return m ? Number(m[1]) : null; };
      return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), threads: Number((s.match(/^Threads:\s+(\d+)/m) || [])[1]) || null };
    } catch { return { rssKb: null, hwmKb: null, threads: null }; }
  };
  const children = (p) => {
    const out = [];
    try {
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const c = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (c) out.push(...c.split(/\s+/).map(Number));
      }
    } catch { /* gone */ }
    return out;
  };
  const total = one(pid);
  if (total.rssKb === null) return total;
  const queue = children(pid);
  while (queue.length) {
    const c = queue.shift();
    const m = one(c);
    if (m.rssKb !== null) {
      total.rssKb += m.rssKb;
      total.hwmKb += m.hwmKb ?? 0;
      total.threads += m.threads ?? 0;
    }
    queue.push(...children(c));
  }
  return total;
}

/**
 * The Node peer, ready to start: `dir` when given (it must hold server.mjs and node_modules), else
 * ../shared/bench-peer installed into a temporary directory, which remove() deletes.
 */
export function preparePeer(repoRoot, dir) {
  if (dir) {
    if (!fs.existsSync(path.join(dir, 'server.mjs'))) throw new Error(`--peer ${dir}: no server.mjs`);
    if (!fs.existsSync(path.join(dir, 'node_modules'))) throw new Error(`--peer ${dir}: no node_modules (run npm install there)`);
    return { dir, remove() {} };
  }
  const src = path.resolve(repoRoot, '..', 'shared', 'bench-peer');
  if (!fs.existsSync(path.join(src, 'server.mjs'))) throw new Error(`no peer at ${src}; pass --peer DIR`);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cinch-bench-peer-'));
  fs.cpSync(src, temp, { recursive: true, filter: (p) => !p.includes(`${path.sep}node_modules`) });
  console.log(`installing the peer from ${src} into ${temp} ...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: temp, stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
  if (r.status !== 0) throw new Error(`npm install for the peer failed (${r.error?.message ?? `exit ${r.status}`})`);
  return { dir: temp, remove() { fs.rmSync(temp, { recursive: true, force: true }); } };
}

/** Every process below pid, now (read from /proc). */
export function descendants(pid) {
  const out = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    try {
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const c = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (c) for (const child of c.split(/\s+/).map(Number)) { out.push(child); queue.push(child); }
      }
    } catch { /* gone */ }
  }
  return out;
}

/** CPU time in ms used so far by a process and its descendants (clock ticks of 10 ms), and their pids. */
export function treeCpu(pid) {
  const pids = [pid, ...descendants(pid)];
  let ticks = 0;
  for (const p of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch { /* gone */ }
  }
  return { ms: ticks * 10, pids: pids.join(' ') };
}

/** The CPU a process tree uses over `ms` of wall clock, in % of a core. */
export async function treeCpuShare(pid, ms = 10_000) {
  const cpu0 = treeCpu(pid).ms, t0 = now();
  await sleep(ms);
  return (treeCpu(pid).ms - cpu0) / (now() - t0) * 100;
}

/**
 * Waits until a process tree is quiet: the same processes, and at most 10 ms of CPU over the last
 * second (sandboxes started ahead of time have finished starting, the JIT has settled). Gives up
 * after `limitMs`.
 */
export async function untilQuiet(pid, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  let before = treeCpu(pid);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeCpu(pid);
    if (now.pids === before.pids && now.ms - before.ms <= 10) return true;
    before = now;
  }
  return false;
}

/** Whether a process is still running (a zombie counts as ended). */
export function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch { return false; }
}

/** Hands each JSON-RPC reply read from `stdout` to the function waiting for its id in `waiting`. */
export function routeReplies(stdout, waiting) {
  let buf = '';
  stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
      let m;
      try { m = JSON.parse(line); } catch { continue; /* not ours */ }
      if (m.id !== undefined && waiting.has(m.id)) { const resolve = waiting.get(m.id); waiting.delete(m.id); resolve(m); }
    }
  });
}

// Proportional set size of the tree: shared pages (runsc's and the interpreters' code) counted once
// over all the processes that share them, unlike an RSS sum. `pinned` is the part the machine cannot
// take back under memory pressure: anonymous and shared-memory pages (Go heaps, interpreter heaps,
// the sandboxes' memory files). The rest of PSS is file pages (the runsc, python and node binaries):
// page cache, shared with every other use of those files, and reclaimable.
export function treePss(pid) {
  const total = { pss: 0, pinned: 0 };
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const rollup = fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      const kb = (key) => Number((rollup.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm')) || [0, 0])[1]);
      total.pss += kb('Pss');
      total.pinned += kb('Pss_Anon') + kb('Pss_Shmem');
    } catch { /* gone */ }
  }
  return total;
}
