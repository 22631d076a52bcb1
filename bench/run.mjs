#!/usr/bin/env node
// Side-by-side benchmark of cinch-mcp against the Node peer (the official-SDK server in
// ../shared/bench-peer), against the local fake Cinch API. No npm dependencies.
//
//   node bench/run.mjs [--rounds 5] [--calls 300] [--jar target/cinch-mcp.jar]
//                      [--bundle target/cinch-mcp-linux-x64.mcpb] [--java java] [--java25 JAVA]
//                      [--peer DIR] [--contender name='cmd args...']...
//
// See bench/README.md for what is measured and how to read the table.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { preparePeer, startFake as startFakeApi, treeMemory } from './lib.mjs';
import { bundleLaunch, loneJar, awaitArchive } from './launches.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(benchDir);
const resultsDir = path.join(benchDir, 'results');

// ---------------------------------------------------------------- options

function usage(msg) {
  if (msg) console.error(`run.mjs: ${msg}`);
  console.error(`usage: node bench/run.mjs [--rounds N] [--calls N] [--jar FILE] [--bundle FILE]
                        [--java JAVA] [--java25 JAVA] [--peer DIR] [--contender name='cmd args...']...
  --rounds N          rounds; each contender runs once per round, in rotating order (default 5)
  --calls N           sequential tool/call round trips per round (default 300)
  --jar FILE          the cinch-mcp jar (default target/cinch-mcp.jar under the repo root)
  --bundle FILE       the Claude Desktop bundle (default: the cinch-mcp-*.mcpb beside the jar)
  --java JAVA         Java 17 for the jar-17 contender (default: java on PATH)
  --java25 JAVA       Java 25 for jar-25 (default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java if present)
  --peer DIR          an installed peer (server.mjs + node_modules); default: install
                      ../shared/bench-peer into a temporary directory
  --contender N=CMD   an extra contender; {jar}, {java} and {peer} in CMD are substituted`);
  process.exit(2);
}

const opts = { rounds: 5, calls: 300, jar: null, bundle: null, java: 'java', java25: null, peer: null, extra: [] };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const [flag, inline] = a[i].includes('=') && a[i].startsWith('--') ? [a[i].slice(0, a[i].indexOf('=')), a[i].slice(a[i].indexOf('=') + 1)] : [a[i], undefined];
    const val = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= a.length) usage(`${flag} needs a value`);
      return a[++i];
    };
    switch (flag) {
      case '--rounds': opts.rounds = Number(val()); break;
      case '--calls': opts.calls = Number(val()); break;
      case '--jar': opts.jar = path.resolve(val()); break;
      case '--bundle': opts.bundle = path.resolve(val()); break;
      case '--java': opts.java = val(); break;
      case '--java25': opts.java25 = val(); break;
      case '--peer': opts.peer = path.resolve(val()); break;
      case '--contender': {
        const v = val();
        const eq = v.indexOf('=');
        if (eq <= 0) usage(`--contender wants name='cmd args...', got ${v}`);
        opts.extra.push({ name: v.slice(0, eq), cmd: v.slice(eq + 1) });
        break;
      }
      case '-h': case '--help': usage();
      default: usage(`unknown argument ${a[i]}`);
    }
  }
  if (!(Number.isInteger(opts.rounds) && opts.rounds >= 1 && opts.rounds <= 100)) usage('--rounds must be 1..100');
  if (!(Number.isInteger(opts.calls) && opts.calls >= 10 && opts.calls <= 100000)) usage('--calls must be 10..100000');
  opts.jar ??= path.join(repoRoot, 'target', 'cinch-mcp.jar');
  const bundles = fs.existsSync(path.dirname(opts.jar)) ? fs.readdirSync(path.dirname(opts.jar)).filter((f) => /^cinch-mcp-.*\.mcpb$/.test(f)) : [];
  opts.bundle ??= bundles.length ? path.join(path.dirname(opts.jar), bundles[0]) : null;
  const temurin25 = '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java';
  opts.java25 ??= fs.existsSync(temurin25) ? temurin25 : null;
}

// Workload constants.
const CONCURRENT = 64;           // parallel calls, each sleeping 1 s at the fake API
const BIG_STDOUT = 5_000_000;    // characters of stdout for the big answer
const CUT_LIMIT = 20_000;        // the tool text must keep at most ~this many characters of stdout
const T_INIT = Number(process.env.BENCH_T_INIT || 60_000), T_CALL = 30_000, T_EXIT = 10_000; // every wait is bounded

// ---------------------------------------------------------------- child bookkeeping

const children = new Set();
function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
function killAll() {
  for (const c of children) { try { c.kill('SIGKILL'); } catch { /* gone */ } }
}
let tempPeer = null;
function cleanupTemp() {
  if (tempPeer) { try { fs.rmSync(tempPeer, { recursive: true, force: true }); } catch { /* ignore */ } tempPeer = null; }
}
process.on('exit', () => { killAll(); cleanupTemp(); });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`\n${sig}: stopping, killing ${children.size} child process(es)`); process.exit(130); });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const nowNs = () => process.hrtime.bigint();
const msSince = (t0) => Number(nowNs() - t0) / 1e6;

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timeout after ${ms} ms: ${what}`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

// Split a command line into words; single and double quotes group, no other shell syntax.
function splitCommand(s) {
  const out = [];
  let cur = null, q = null;
  for (const ch of s) {
    if (q) { if (ch === q) q = null; else cur += ch; continue; }
    if (ch === "'" || ch === '"') { q = ch; cur ??= ''; continue; }
    if (/\s/.test(ch)) { if (cur !== null) { out.push(cur); cur = null; } continue; }
    cur = (cur ?? '') + ch;
  }
  if (q) throw new Error(`unbalanced quote in: ${s}`);
  if (cur !== null) out.push(cur);
  return out;
}

const procStatus = treeMemory;

// ---------------------------------------------------------------- peer

function preparePeerOnce() {
  const peer = preparePeer(repoRoot, opts.peer);
  if (!opts.peer) tempPeer = peer.dir;
  return peer.dir;
}

// ---------------------------------------------------------------- contenders

// The launches users have (bench/launches.mjs): the jar alone in an empty folder with a fresh HOME,
// on Java 17 and on Java 25, started as `java -jar` with no options; and the bundle as its
// manifest starts it.
function contenders(peerDir) {
  const list = [], notes = [];
  const subst = (s) => s.replaceAll('{jar}', opts.jar).replaceAll('{java}', opts.java).replaceAll('{peer}', peerDir);
  list.push({ name: 'peer', kind: 'peer', argv: [process.execPath, path.join(peerDir, 'server.mjs')], cwd: peerDir });
  const work = path.join(resultsDir, 'launches');
  fs.rmSync(work, { recursive: true, force: true });
  if (fs.existsSync(opts.jar)) {
    list.push({ name: 'jar-17', kind: 'jar', ...loneJar(opts.jar, opts.java, path.join(work, 'jar-17')) });
    if (opts.java25) list.push({ name: 'jar-25', kind: 'jar', ...loneJar(opts.jar, opts.java25, path.join(work, 'jar-25')) });
    else notes.push('jar-25 skipped: no Java 25 (pass --java25)');
  } else {
    notes.push(`jar-17 and jar-25 skipped: ${opts.jar} not found`);
  }
  if (opts.bundle && fs.existsSync(opts.bundle)) {
    list.push({ name: 'bundle', kind: 'bundle', ...bundleLaunch(opts.bundle, path.join(work, 'bundle')) });
  } else {
    notes.push('bundle skipped: no cinch-mcp-*.mcpb beside the jar (pass --bundle)');
  }
  for (const e of opts.extra) {
    if (list.some((c) => c.name === e.name)) throw new Error(`contender name ${e.name} used twice`);
    list.push({ name: e.name, kind: 'extra', argv: splitCommand(subst(e.cmd)), cwd: repoRoot });
  }
  return { list, notes };
}

// ---------------------------------------------------------------- JSON-RPC driver

class Driver {
  constructor(c, env, stderrLog) {
    this.nextId = 1;
    this.pending = new Map();
    this.nonJson = 0;
    this.nonJsonSamples = [];
    this.notifications = 0;
    this.serverRequests = 0;
    this.unmatched = 0;
    this.exited = null;
    this.t0 = nowNs();
    this.child = track(spawn(c.argv[0], c.argv.slice(1), { cwd: c.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] }));
    this.pid = this.child.pid;
    this.exitPromise = new Promise((resolve) => {
      const gone = (exited, err) => {
        if (this.exited) return;
        this.exited = exited;
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
        resolve(exited);
      };
      this.child.on('exit', (code, signal) => gone({ code, signal, ms: msSince(this.t0) }, new Error(`server exited (code ${code}, signal ${signal})`)));
      // A failed spawn (no such command) may emit no 'exit'.
      this.child.on('error', (e) => gone({ code: null, signal: null, spawnError: e.message }, new Error(`spawn ${c.argv[0]}: ${e.message}`)));
    });
    this.child.stdin.on('error', () => { /* EPIPE when the server is gone; the exit handler reports it */ });
    this.child.stderr.on('data', (d) => stderrLog.write(d));
    let parts = [];
    this.child.stdout.on('data', (chunk) => {
      for (;;) {
        const nl = chunk.indexOf(10);
        if (nl < 0) { parts.push(chunk); return; }
        parts.push(chunk.subarray(0, nl));
        const line = Buffer.concat(parts).toString('utf8');
        parts = [];
        chunk = chunk.subarray(nl + 1);
        this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
    });
  }

  flag(line, why) {
    this.nonJson++;
    if (this.nonJsonSamples.length < 5) this.nonJsonSamples.push(`${why}: ${line.slice(0, 200)}`);
  }

  onLine(line) {
    const tRecv = nowNs();
    let msg;
    try { msg = JSON.parse(line); } catch { return this.flag(line, 'not JSON'); }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0') return this.flag(line, 'not a JSON-RPC message');
    if (typeof msg.method === 'string') {
      if (msg.id === undefined) { this.notifications++; return; }
      // A request from the server (ping, roots/list, ...): answer so it never waits on us.
      this.serverRequests++;
      const reply = msg.method === 'ping' ? { jsonrpc: '2.0', id: msg.id, result: {} }
        : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported by the bench' } };
      this.child.stdin.write(JSON.stringify(reply) + '\n');
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) { this.unmatched++; return; }
    this.pending.delete(msg.id);
    p.resolve({ msg, tRecv, bytes: Buffer.byteLength(line) });
  }

  // Sends one request; resolves with { msg, tSent, tRecv, ms }. Bounded by timeoutMs.
  request(method, params, timeoutMs = T_CALL) {
    const id = this.nextId++;
    const tSent = nowNs();
    const p = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return withTimeout(p, timeoutMs, `${method} #${id}`)
      .then((r) => ({ ...r, tSent, ms: Number(r.tRecv - tSent) / 1e6 }))
      .finally(() => this.pending.delete(id));
  }

  notify(method, params) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) + '\n');
  }

  callTool(code, timeoutMs) {
    return this.request('tools/call', { name: 'execute_code', arguments: { code, language: 'python' } }, timeoutMs);
  }
}

const toolText = (msg) => (msg.result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const callOk = (msg) => msg.result && msg.result.isError !== true && /42/.test(toolText(msg));

// ---------------------------------------------------------------- direct HTTP baseline

function directPost(agent, port) {
  const body = JSON.stringify({ code: 'print(1)', language: 'python' });
  return withTimeout(new Promise((resolve, reject) => {
    const t0 = nowNs();
    const req = http.request({
      host: '127.0.0.1', port, path: '/run', method: 'POST', agent,
      headers: { Authorization: 'Bearer bench-key', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      res.on('data', () => {});
      res.on('end', () => (res.statusCode === 200 ? resolve(msSince(t0)) : reject(new Error(`direct POST: HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  }), T_CALL, 'direct POST /run');
}

// ---------------------------------------------------------------- statistics

function quantile(xs, q) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const median = (xs) => quantile(xs.filter((x) => x !== null && x !== undefined && Number.isFinite(x)), 0.5);
const r3 = (x) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);

// ---------------------------------------------------------------- one round of one contender

async function runSession(c, port, round, stderrLog) {
  const env = { ...process.env, ...(c.env ?? {}), CINCH_API_KEY: 'bench-key', CINCH_BASE_URL: `http://127.0.0.1:${port}`, CINCH_TIMEOUT_MS: '20000' };
  stderrLog.write(`\n===== ${c.name} round ${round + 1}: ${c.argv.join(' ')} =====\n`);
  const out = { contender: c.name, round: round + 1, ok: false, errors: [] };
  const d = new Driver(c, env, stderrLog);
  out.pid = d.pid;
  try {
    // 1. start: spawn -> initialize reply (initialize is written at once after spawn).
    const init = await d.request('initialize', {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cinch-bench', version: '1' },
    }, T_INIT);
    out.startMs = Number(init.tRecv - d.t0) / 1e6;
    if (!init.msg.result) throw new Error(`initialize failed: ${JSON.stringify(init.msg.error)}`);
    out.serverInfo = init.msg.result.serverInfo;
    out.protocolVersion = init.msg.result.protocolVersion;
    d.notify('notifications/initialized');

    // 2. per-call overhead: sequential tools/call, interleaved with direct POSTs over a keep-alive
    //    connection to the same fake (the servers' own clients keep their connections alive too).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await d.callTool('print(1)');
      out.firstCallMs = first.ms;
      if (!callOk(first.msg)) out.errors.push(`first call not ok: ${toolText(first.msg).slice(0, 200) || JSON.stringify(first.msg.error)}`);
      await directPost(agent, port); // opens the keep-alive connection; not counted
      const rts = [], direct = [];
      let bad = 0;
      for (let i = 0; i < opts.calls; i++) {
        direct.push(await directPost(agent, port));
        const r = await d.callTool('print(1)');
        if (!callOk(r.msg)) bad++;
        rts.push(r.ms);
      }
      if (bad) out.errors.push(`${bad} of ${opts.calls} sequential calls not ok`);
      const directMed = quantile(direct, 0.5);
      out.seq = {
        calls: opts.calls, bad,
        rtP50: quantile(rts, 0.5), rtP99: quantile(rts, 0.99), rtMax: Math.max(...rts),
        directP50: directMed, directP99: quantile(direct, 0.99),
        overheadP50: quantile(rts, 0.5) - directMed, overheadP99: quantile(rts, 0.99) - directMed,
        rawRtMs: rts.map(r3), rawDirectMs: direct.map(r3),
      };
    } finally {
      agent.destroy();
    }

    // 3. 64 concurrent calls, each 1 s at the API.
    {
      const t0 = nowNs();
      const replies = await Promise.allSettled(Array.from({ length: CONCURRENT }, () => d.callTool('fake:sleep=1000\nprint(1)', T_CALL)));
      out.concurrent = { calls: CONCURRENT, wallMs: msSince(t0) };
      const bad = replies.filter((r) => r.status !== 'fulfilled' || !callOk(r.value.msg)).length;
      out.concurrent.bad = bad;
      if (bad) {
        out.errors.push(`${bad} of ${CONCURRENT} concurrent calls failed`);
        const firstBad = replies.find((r) => r.status !== 'fulfilled' || !callOk(r.value.msg));
        out.errors.push(firstBad.status === 'fulfilled' ? toolText(firstBad.value.msg).slice(0, 200) : String(firstBad.reason?.message));
      }
    }

    // 4. a 5 MB stdout answer: round trip, cut, peak RSS.
    {
      const r = await d.callTool(`fake:stdout=${BIG_STDOUT}\nprint("x" * ${BIG_STDOUT})`, T_CALL);
      const text = toolText(r.msg);
      let maxRun = 0;
      for (const m of text.matchAll(/x+/g)) maxRun = Math.max(maxRun, m[0].length);
      const st = procStatus(d.pid);
      out.big = { rtMs: r.ms, replyBytes: r.bytes, textChars: text.length, longestXRun: maxRun, cutOk: maxRun > 0 && maxRun <= CUT_LIMIT + 100, hwmKb: st.hwmKb };
      if (!out.big.cutOk) out.errors.push(`5 MB answer not cut: longest run of x is ${maxRun} (reply ${r.bytes} bytes)`);
    }

    // 5. memory after the whole workload.
    const st = procStatus(d.pid);
    out.rssKb = st.rssKb;
    out.hwmKb = st.hwmKb;
    out.threads = st.threads;

    // Close stdin; time to exit (reported, not a target).
    const tClose = nowNs();
    d.child.stdin.end();
    try {
      await withTimeout(d.exitPromise, T_EXIT, 'exit after stdin closed');
      out.exitMs = msSince(tClose);
      out.exitCode = d.exited.code;
    } catch (e) {
      out.exitMs = null;
      out.errors.push(`did not exit within ${T_EXIT} ms of stdin closing`);
    }
    out.ok = out.errors.length === 0;
  } catch (e) {
    out.errors.push(e.message);
  } finally {
    if (!d.exited) {
      d.child.kill('SIGKILL');
      await withTimeout(d.exitPromise, 5_000, 'kill').catch(() => {});
    }
    out.nonJsonLines = d.nonJson;
    out.nonJsonSamples = d.nonJsonSamples;
    out.notifications = d.notifications;
    out.serverRequests = d.serverRequests;
    out.unmatchedReplies = d.unmatched;
  }
  return out;
}

// ---------------------------------------------------------------- table

const METRICS = [
  // key, label, getter, unit, decimals
  ['start', 'start: spawn -> initialize reply', (r) => r.startMs, 'ms', 0],
  ['firstCall', 'first tools/call (cold)', (r) => r.firstCallMs, 'ms', 1],
  ['rtP50', 'tools/call round trip p50', (r) => r.seq?.rtP50, 'ms', 3],
  ['rtP99', 'tools/call round trip p99', (r) => r.seq?.rtP99, 'ms', 3],
  ['directP50', 'direct POST /run p50 (baseline)', (r) => r.seq?.directP50, 'ms', 3],
  ['ovP50', 'overhead p50 (rt - direct p50)', (r) => r.seq?.overheadP50, 'ms', 3],
  ['ovP99', 'overhead p99 (rt - direct p50)', (r) => r.seq?.overheadP99, 'ms', 3],
  ['conc', `${CONCURRENT} concurrent 1 s calls, wall`, (r) => r.concurrent?.wallMs, 'ms', 0],
  ['big', '5 MB stdout answer, round trip', (r) => r.big?.rtMs, 'ms', 1],
  ['hwm', 'peak RSS (VmHWM)', (r) => (r.hwmKb ?? null) && r.hwmKb / 1024, 'MB', 1],
  ['rss', 'RSS after the workload (VmRSS)', (r) => (r.rssKb ?? null) && r.rssKb / 1024, 'MB', 1],
  ['exit', 'exit after stdin closed', (r) => r.exitMs, 'ms', 0],
];

// Targets from issue 11, as ratios to the peer in the same run. A judge returns [targetText, pass]
// for a contender kind, or null. Extra contenders (experiments) are judged like the lone jar.
const jarLike = (kind) => kind === 'jar' || kind === 'extra';
const TARGETS = {
  start: (kind, v, peer) => (jarLike(kind) ? ['<= 1.0x peer', v <= peer] : kind === 'bundle' ? ['<= 0.8x peer', v <= 0.8 * peer] : null),
  firstCall: (kind, v, peer) => ['<= 2.0x peer', v <= 2 * peer],
  rtP50: (kind, v, peer) => ['<= peer', v <= peer],
  ovP99: (kind, v, peer) => ['<= peer', v <= peer],
  conc: (kind, v) => ['<= 1300 ms', v <= 1300],
  big: (kind, v, peer) => ['<= peer', v <= peer],
  hwm: (kind, v, peer) => (jarLike(kind) ? ['<= 1.0x peer', v <= peer] : kind === 'bundle' ? ['<= 0.8x peer', v <= 0.8 * peer] : null),
  exit: (kind, v) => ['<= 60 ms', v <= 60],
};

function summarize(list, rows) {
  const summary = {};
  for (const c of list) {
    const rs = rows.filter((r) => r.contender === c.name && r.ok);
    summary[c.name] = { kind: c.kind, okRounds: rs.length, rounds: rows.filter((r) => r.contender === c.name).length, medians: {} };
    for (const [key, , get] of METRICS) summary[c.name].medians[key] = median(rs.map(get));
  }
  return summary;
}

function printTable(list, summary) {
  const peer = summary.peer?.medians ?? {};
  const lines = [['metric', 'contender', 'median', 'x peer', 'target', 'verdict']];
  const verdicts = [];
  for (const [key, label, , unit, dec] of METRICS) {
    for (const c of list) {
      const v = summary[c.name].medians[key];
      const pv = peer[key];
      const ratio = c.name !== 'peer' && v !== null && pv ? (v / pv).toFixed(2) : c.name === 'peer' ? '1.00' : '';
      let target = '', verdict = '';
      const judge = TARGETS[key];
      if (judge && c.kind !== 'peer') {
        const t = v === null || pv === null || pv === undefined ? null : judge(c.kind, v, pv);
        if (t) { [target, verdict] = [t[0], t[1] ? 'PASS' : 'MISS']; verdicts.push({ metric: key, contender: c.name, target, verdict, value: v }); }
        else if (v === null) { target = 'no data'; verdict = 'MISS'; }
      }
      lines.push([label, c.name, v === null ? 'n/a' : `${v.toFixed(dec)} ${unit}`, ratio, target, verdict]);
    }
  }
  const w = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  let prev = null;
  for (const [i, l] of lines.entries()) {
    if (i > 1 && l[0] !== prev) console.log('');
    prev = l[0];
    console.log(l.map((s, j) => (j === 2 || j === 3 ? s.padStart(w[j]) : s.padEnd(w[j]))).join('  ').trimEnd());
    if (i === 0) console.log(w.map((n) => '-'.repeat(n)).join('  '));
  }
  return verdicts;
}

// ---------------------------------------------------------------- main

async function main() {
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const f of fs.readdirSync(resultsDir)) if (/^stderr-.*\.log$/.test(f)) fs.rmSync(path.join(resultsDir, f)); // logs match latest.json
  const peerDir = preparePeerOnce();
  const { list, notes } = contenders(peerDir);
  for (const n of notes) console.log(`note: ${n}`);
  const fake = await startFakeApi(repoRoot);
  console.log(`fake API on 127.0.0.1:${fake.port}; ${opts.rounds} round(s) of: ${list.map((c) => c.name).join(', ')}`);

  const logs = Object.fromEntries(list.map((c) => [c.name, fs.createWriteStream(path.join(resultsDir, `stderr-${c.name.replace(/[^\w.-]/g, '_')}.log`))]));
  // One uncounted first start each: for the lone jar it is the start that has no archive yet and
  // has one made; the rounds begin once the archive is there.
  const firstStarts = {};
  for (const c of list) {
    const r = await runSession(c, fake.port, -1, logs[c.name]);
    firstStarts[c.name] = r;
    if (c.archives) await awaitArchive(c.archives, 120_000);
    console.log(`first start ${c.name.padEnd(12)} start ${r.startMs?.toFixed(0) ?? 'n/a'} ms, first call ${r.firstCallMs?.toFixed(1) ?? 'n/a'} ms` + (r.ok ? '' : `  FAILED: ${r.errors.join('; ')}`));
  }
  const rows = [];
  for (let round = 0; round < opts.rounds; round++) {
    // Alternate: rotate the order each round so no contender always runs first or last.
    const order = list.map((_, i) => list[(i + round) % list.length]);
    for (const c of order) {
      const r = await runSession(c, fake.port, round, logs[c.name]);
      rows.push(r);
      const bits = [];
      if (r.startMs !== undefined) bits.push(`start ${r.startMs.toFixed(0)} ms`);
      if (r.seq) bits.push(`rt p50 ${r.seq.rtP50.toFixed(3)} ms (direct ${r.seq.directP50.toFixed(3)})`);
      if (r.concurrent) bits.push(`64x1s ${r.concurrent.wallMs.toFixed(0)} ms`);
      if (r.big) bits.push(`5MB ${r.big.rtMs.toFixed(1)} ms`);
      if (r.hwmKb) bits.push(`hwm ${(r.hwmKb / 1024).toFixed(1)} MB`);
      console.log(`round ${round + 1} ${c.name.padEnd(18)} ` + bits.join(', ') + (r.ok ? '' : `  FAILED: ${r.errors.join('; ')}`));
      if (r.nonJsonLines) console.log(`  WARNING: ${c.name} wrote ${r.nonJsonLines} stdout line(s) that are not JSON-RPC, e.g. ${JSON.stringify(r.nonJsonSamples[0])}`);
      if (r.unmatchedReplies) console.log(`  WARNING: ${c.name} sent ${r.unmatchedReplies} reply(ies) with an unknown id`);
    }
  }
  for (const s of Object.values(logs)) s.end();

  const summary = summarize(list, rows);
  console.log('');
  const verdicts = printTable(list, summary);
  console.log('');
  for (const c of list) {
    const s = summary[c.name];
    const nonJson = rows.filter((r) => r.contender === c.name).reduce((a, r) => a + (r.nonJsonLines || 0), 0);
    console.log(`${c.name}: ${s.okRounds}/${s.rounds} completed rounds; non-JSON stdout lines: ${nonJson}${nonJson ? '  <-- WARNING: stdout must be pure JSON-RPC' : ''}; argv: ${c.argv.join(' ')}`);
  }
  for (const n of notes) console.log(`note: ${n}`);
  const misses = verdicts.filter((v) => v.verdict === 'MISS').length;
  console.log(`targets: ${verdicts.length - misses} PASS, ${misses} MISS`);

  const javaVersion = (() => {
    const r = spawnSync(opts.java, ['-version'], { encoding: 'utf8', timeout: 20_000 });
    return r.error ? null : (r.stderr || '').trim();
  })();
  const jarStat = fs.existsSync(opts.jar) ? fs.statSync(opts.jar) : null;
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memMB: Math.round(os.totalmem() / 2 ** 20), platform: `${os.platform()} ${os.release()}`, node: process.version, java: javaVersion },
    options: { rounds: opts.rounds, calls: opts.calls, concurrent: CONCURRENT, bigStdout: BIG_STDOUT, jar: opts.jar, jarBytes: jarStat?.size ?? null, jarMtime: jarStat?.mtime ?? null, bundle: opts.bundle, java25: opts.java25 },
    contenders: list.map((c) => ({ name: c.name, kind: c.kind, argv: c.argv, cwd: c.cwd })),
    notes,
    summary,
    verdicts,
    firstStarts,
    rounds: rows,
  };
  const file = path.join(resultsDir, 'latest.json');
  fs.writeFileSync(file, JSON.stringify(report, null, 1) + '\n');
  console.log(`raw figures: ${path.relative(process.cwd(), file)}; server stderr: ${path.relative(process.cwd(), resultsDir)}/stderr-*.log`);
  fake.child.kill('SIGTERM');
  return rows.every((r) => r.ok) ? 0 : 1;
}

main().then((code) => { killAll(); cleanupTemp(); process.exit(code); }, (e) => {
  console.error(`run.mjs: ${e.stack || e.message}`);
  killAll(); cleanupTemp();
  process.exit(2);
});
