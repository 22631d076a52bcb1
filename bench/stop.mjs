#!/usr/bin/env node
// How fast the server stops when its client says so, against the Node peer: SIGINT or SIGTERM to
// the process the client started (as Claude Code does: SIGINT, SIGTERM 100 ms later, SIGKILL at
// ~500 ms), idle and with calls running; and, for the jar's fast launch, how fast its child ends
// when the launcher is SIGKILLed while stdin stays open. Linux only (it reads /proc).
//
//   node bench/stop.mjs [--rounds 10] [--jar target/cinch-mcp.jar] [--java java] [--peer DIR] [--local]
//                       [--docker DOCKER_HOST] [--only SCENARIO[,SCENARIO]] [--starting-wait MS]
//
// --local adds the jar with CINCH_BACKEND=local and spinning programs in gVisor sandboxes
// (needs runsc); --docker DOCKER_HOST the jar with CINCH_BACKEND=docker on that engine (runsc),
// with IMAGE for both languages (.ci/engine.sh makes cinch-test:1). Times run from the signal to the moment the signalled process has exited
// ("exit") and to the moment every process of its tree, as it was just before, has ended ("tree").
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendants, median, routeReplies, running, startComparison, untilQuiet } from './lib.mjs';
import { awaitArchive, loneJar } from './launches.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(benchDir);
const opts = { rounds: 10, jar: path.join(repoRoot, 'target', 'cinch-mcp.jar'), java: 'java', peer: null, local: false, docker: null, image: 'cinch-test:1' };
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  switch (a[i]) {
    case '--rounds': opts.rounds = Number(a[++i]); break;
    case '--jar': opts.jar = path.resolve(a[++i]); break;
    case '--java': opts.java = a[++i]; break;
    case '--peer': opts.peer = path.resolve(a[++i]); break;
    case '--local': opts.local = true; break;
    case '--docker': opts.docker = a[++i]; break;
    case '--image': opts.image = a[++i]; break;
    case '--only': opts.only = a[++i].split(','); break;
    case '--starting-wait': opts.startingWait = Number(a[++i]); break;
    default: console.error(`usage: node bench/stop.mjs [--rounds N] [--jar FILE] [--java JAVA] [--peer DIR] [--local] [--docker DOCKER_HOST [--image IMAGE]] [--only SCENARIO,...] [--starting-wait MS]`); process.exit(2);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * CPU time all cores spent busy so far, in ms (the kernel counts it in 10 ms ticks): user, nice,
 * system, irq and softirq; not idle, iowait, a hypervisor's steal, nor guest (already in user).
 */
const cpuBusyMs = () => {
  const [user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) * 10;
};
const commandName = (pid) => { try { return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return '?'; } };
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * A started server: send lines, await replies by id. With `ownStdin`, its stdin is a FIFO this
 * script holds open itself: Node closes a child's stdin pipe when the child exits, and a client that
 * keeps it open (Claude Code's stop does not close it) must be measured as such.
 */
function startServer(argv, cwd, env, ownStdin = false) {
  let fifoFd = null;
  if (ownStdin) {
    const fifo = path.join(benchDir, 'results', 'stop', `stdin-${process.pid}-${Date.now()}`);
    if (spawnSync('mkfifo', [fifo]).status !== 0) throw new Error('mkfifo failed');
    fifoFd = fs.openSync(fifo, fs.constants.O_RDWR); // O_RDWR: opening does not wait for a reader
    fs.unlinkSync(fifo);
  }
  const child = spawn(argv[0], argv.slice(1), { cwd, env: { PATH: process.env.PATH, ...env }, stdio: [fifoFd ?? 'pipe', 'pipe', 'pipe'] });
  let stderr = ''; // its start only: the ready line
  child.stderr.on('data', (d) => { if (stderr.length < 64 * 1024) stderr += d; });
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  const exited = new Promise((r) => child.on('exit', () => r(process.hrtime.bigint())));
  return {
    child, exited,
    stderr: () => stderr,
    send: (m) => (fifoFd === null ? child.stdin.write(JSON.stringify(m) + '\n') : fs.writeSync(fifoFd, JSON.stringify(m) + '\n')),
    closeStdin: () => (fifoFd === null ? child.stdin.end() : fs.closeSync(fifoFd)),
    reply: (id, ms = 30_000) => new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no reply to ${id} within ${ms} ms`)), ms);
      waiting.set(id, (m) => { clearTimeout(t); resolve(m); });
    }),
  };
}

/** Opens the session the way the contender's clients do: 2026 for the jar, 2025 for the peer. */
async function open(server, era) {
  if (era === 2026) {
    server.send({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: META } });
    await server.reply('d');
  } else {
    server.send({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    await server.reply('i');
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}

async function listTools(server, era) {
  const params = era === 2026 ? { _meta: META } : {};
  server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list', params });
  await server.reply('list');
}

function call(era, id, code) {
  const params = { name: 'execute_code', arguments: { code, language: 'python' } };
  if (era === 2026) params._meta = META;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** Sends `signal` to the server alone and times its exit and the end of its whole tree. */
async function timeStop(server, signal) {
  const tree = [server.child.pid, ...descendants(server.child.pid)];
  const names = tree.map(commandName);
  const busyBefore = cpuBusyMs();
  const sent = process.hrtime.bigint();
  process.kill(server.child.pid, signal);
  const exit = await server.exited;
  // When each process was first seen ended, checked in tree order (one read per poll, mostly): a
  // time is exact for the last one, and an upper bound for the others.
  const ended = [];
  while (ended.length < tree.length) {
    if (running(tree[ended.length])) await sleep(1);
    else ended.push(Math.round(Number(process.hrtime.bigint() - sent) / 1e6));
  }
  const gone = process.hrtime.bigint();
  const busyMs = cpuBusyMs() - busyBefore;
  return { exitMs: Number(exit - sent) / 1e6, treeMs: Number(gone - sent) / 1e6, busyMs, processes: tree.length, pids: tree, sent, ended: tree.map((p, i) => `${names[i]} ${ended[i]}`) };
}

/** How many containers the docker backend runs at once, as its ready line says: 4 unless fewer. */
async function containersAtOnce(server) {
  const until = Date.now() + 30_000;
  while (!server.stderr().includes('ready on stdio') && Date.now() < until) await sleep(5);
  const said = /(\d+) containers? at once/.exec(server.stderr());
  return said ? Number(said[1]) : 4;
}

async function scenario(c, name, fakePort) {
  if (name === 'starting SIGINT' && !c.containersOf && !c.sandboxesLeft) return null; // nothing to start
  const env = { ...c.env, CINCH_API_KEY: 'bench-key', CINCH_BASE_URL: `http://127.0.0.1:${fakePort}`, ...(c.extraEnv || {}) };
  const server = startServer(c.argv, c.cwd, env, name === 'launcher SIGKILL');
  await open(server, c.era);
  if (name === 'idle SIGINT' || name === 'idle SIGTERM') {
    // Idle: serving (a tools/list answered, by the fast launch's child), nothing running, and the
    // local backend's sandboxes started ahead of time waiting: the tree has gone quiet.
    await listTools(server, c.era);
    await sleep(c.idleWaitMs ?? 300);
    if (!(await untilQuiet(server.child.pid))) console.error(`${c.name}: not quiet after 30 s; stopped anyway`);
    return timeStop(server, name.endsWith('SIGINT') ? 'SIGINT' : 'SIGTERM');
  }
  if (name === 'busy SIGINT' || name === 'starting SIGINT') {
    if (name === 'starting SIGINT' && c.sandboxesLeft) {
      // Local: the waiting sandboxes are in place first, so that the calls below start fresh ones.
      await listTools(server, c.era);
      await sleep(c.idleWaitMs ?? 300);
      await untilQuiet(server.child.pid);
    }
    // Four calls the API (or the sandbox) is still working on. Docker, busy: once the engine says
    // all its containers run; starting: once it has them all and not all of them run yet (the
    // engine and runsc are still starting them). The server's tree is read again at each look: the
    // fast launch's child, whose pid the containers' label names, may not be there when the calls go.
    for (let i = 0; i < 4; i++) server.send(call(c.era, 100 + i, c.busyCode));
    const tree = () => [server.child.pid, ...descendants(server.child.pid)];
    if (c.containersOf) {
      // On a small machine whose kernel the engine shares, fewer than four run at once; the ready
      // line says how many (the rest wait in the server).
      const atOnce = await containersAtOnce(server);
      const ready = name === 'busy SIGINT' ? (cs) => cs.filter((x) => x === 'running').length === atOnce : (cs) => cs.length === atOnce && cs.some((x) => x !== 'running');
      const until = Date.now() + 30_000;
      let states = [];
      while (!ready((states = await c.containersOf(tree()))) && Date.now() < until) {
        if (name === 'starting SIGINT' && states.filter((x) => x === 'running').length === atOnce) break; // missed: all run
        await sleep(5);
      }
      if (!ready(states)) console.error(`${c.name} ${name}: containers ${JSON.stringify(states)} at the signal`);
      if (name === 'busy SIGINT') await sleep(c.busyWaitMs);
    } else {
      await sleep(name === 'busy SIGINT' ? c.busyWaitMs : c.startingWaitMs);
    }
    const before = c.sandboxesLeft ? c.sandboxesLeft() : 0;
    const stopped = await timeStop(server, 'SIGINT');
    if (c.containersOf || c.sandboxesLeft) {
      // How soon the engine has carried the kills out (it takes its time with gVisor containers);
      // a kill that never reached it leaves its container running on to its backstop (11 s from
      // its start), still there 5 s after the signal. Local: sandbox processes outside the tree
      // seen at the signal (one being started then), which must be gone as well.
      for (;;) {
        stopped.left = c.containersOf ? (await c.containersOf(stopped.pids)).length : c.sandboxesLeft();
        stopped.containersMs = Number(process.hrtime.bigint() - stopped.sent) / 1e6;
        if (stopped.left === 0 || stopped.containersMs >= 5000) break;
        await sleep(5);
      }
      stopped.sandboxesBefore = before;
    }
    return stopped;
  }
  if (name === 'launcher SIGKILL') {
    await sleep(300);
    const kids = descendants(server.child.pid);
    if (kids.length === 0) return null; // no fast child (a first start): nothing to measure
    const sent = process.hrtime.bigint();
    process.kill(server.child.pid, 'SIGKILL');
    while (kids.some(running)) await sleep(2);
    server.closeStdin();
    return { exitMs: null, treeMs: Number(process.hrtime.bigint() - sent) / 1e6, processes: kids.length + 1 };
  }
  throw new Error(name);
}

const max = (xs) => Math.max(...xs);

async function main() {
  const dir = path.join(benchDir, 'results', 'stop');
  const { fake, peer } = await startComparison(repoRoot, opts.peer, dir);
  fs.mkdirSync(dir, { recursive: true });
  const lone = loneJar(opts.jar, opts.java, path.join(dir, 'jar'));
  // The first start makes the archive; every measured start is a warm one (launcher + child).
  {
    const first = startServer(lone.argv, lone.cwd, { ...lone.env, CINCH_API_KEY: 'k', CINCH_BASE_URL: 'http://127.0.0.1:9' });
    await open(first, 2026);
    first.closeStdin();
    await first.exited;
    await awaitArchive(lone.archives, 120_000);
  }
  const contenders = [
    { name: 'jar', ...lone, era: 2026, busyCode: 'fake:sleep=5000', busyWaitMs: 500 },
    { name: 'peer', argv: [process.execPath, path.join(peer.dir, 'server.mjs')], cwd: peer.dir, env: {}, era: 2025, busyCode: 'fake:sleep=5000', busyWaitMs: 500 },
  ];
  if (opts.local) {
    // Processes of any local sandbox (runsc names the server's state directory), tree or not.
    const sandboxesLeft = () => fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('cinchmcp-local'); } catch { return false; }
    }).length;
    contenders.push({ name: 'jar local', ...lone, era: 2026, extraEnv: { CINCH_BACKEND: 'local' }, busyCode: 'while True:\n    pass', busyWaitMs: 1500, startingWaitMs: opts.startingWait ?? 100, idleWaitMs: 3000, sandboxesLeft });
  }
  if (opts.docker) {
    const extraEnv = { CINCH_BACKEND: 'docker', DOCKER_HOST: opts.docker, CINCH_DOCKER_PYTHON_IMAGE: opts.image, CINCH_DOCKER_NODE_IMAGE: opts.image, CINCH_DOCKER_RUNTIME: 'runsc' };
    // The states of this server's containers (listed until removed), from the engine's API on its
    // socket (the docker CLI takes 100-200 ms a look): their label names the pid of the JVM that runs them.
    const socketPath = opts.docker.replace(/^unix:\/\//, '');
    const query = `/containers/json?all=1&filters=${encodeURIComponent(JSON.stringify({ label: ['dev.cinchmcp.owner'] }))}`;
    const containersOf = (tree) => new Promise((resolve, reject) => {
      http.get({ socketPath, path: query }, (res) => {
        let body = '';
        res.on('data', (d) => { body += d; });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`engine: ${res.statusCode} ${body}`));
          const mine = new RegExp(`/(${tree.join('|')})/`);
          resolve(JSON.parse(body).filter((x) => mine.test(x.Labels['dev.cinchmcp.owner'])).map((x) => x.State));
        });
      }).on('error', reject);
    });
    contenders.push({ name: 'jar docker', ...lone, era: 2026, extraEnv, busyCode: 'while True:\n    pass', busyWaitMs: 500, idleWaitMs: 3000, containersOf });
  }
  const scenarios = ['idle SIGINT', 'idle SIGTERM', 'busy SIGINT', 'starting SIGINT', 'launcher SIGKILL'].filter((s) => !opts.only || opts.only.includes(s));
  if (scenarios.length === 0) throw new Error(`--only names no scenario: ${opts.only}`);
  const results = {};
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      for (const c of contenders) {
        for (const s of scenarios) {
          if (s === 'launcher SIGKILL' && c.name === 'peer') continue;
          const r = await scenario(c, s, fake.port);
          if (r) (results[`${c.name} | ${s}`] ??= []).push(r);
        }
      }
      process.stdout.write(`round ${round}/${opts.rounds} done\n`);
    }
  } finally {
    fake.child.kill();
    peer.remove();
  }
  console.log(`\n${opts.rounds} rounds; medians (max) in ms from the signal. Claude Code sends SIGTERM 100 ms after SIGINT.`);
  console.log(`CPU busy: the time all ${os.cpus().length} cores together spent busy from the signal to the tree's end (10 ms ticks):`);
  console.log('when it is near cores x tree time, the stop waited for the CPU, not for itself.');
  console.log('| contender | scenario | processes | signalled process exits | whole tree ended | within 100 ms | CPU busy | containers (local: sandboxes) gone | left 5 s later |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [key, rs] of Object.entries(results)) {
    const [c, s] = key.split(' | ');
    const exits = rs.map((r) => r.exitMs).filter((x) => x !== null);
    const trees = rs.map((r) => r.treeMs);
    const fmt = (xs) => (xs.length ? `${median(xs).toFixed(0)} (${max(xs).toFixed(0)})` : '-');
    const docker = rs[0].left !== undefined;
    const gone = docker ? fmt(rs.map((r) => r.containersMs)) : '-';
    const left = docker ? rs.reduce((n, r) => n + r.left, 0) : '-';
    const busy = rs.map((r) => r.busyMs).filter((x) => x !== undefined);
    console.log(`| ${c} | ${s} | ${rs[0].processes} | ${fmt(exits)} | ${fmt(trees)} | ${trees.filter((t) => t <= 100).length}/${trees.length} | ${fmt(busy)} | ${gone} | ${left} |`);
  }
  console.log(`load: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  // Every round's figures, with when each process of the tree was seen ended: what the slowest were.
  const rounds = Object.fromEntries(Object.entries(results).map(([k, rs]) => [k, rs.map(({ exitMs, treeMs, busyMs, ended, containersMs, left }) => ({ exitMs, treeMs, busyMs, ended, containersMs, left }))]));
  fs.writeFileSync(path.join(dir, 'rounds.json'), JSON.stringify(rounds, null, 1));
  console.log(`each round: ${path.relative(process.cwd(), path.join(dir, 'rounds.json'))}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
