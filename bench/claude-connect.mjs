#!/usr/bin/env node
// How long Claude Code waits for the server to connect, against the Node peer, as Claude Code
// itself reports it: each round runs `claude mcp list` once per contender (alternating, each in its
// own throw-away HOME) and reads the per-server log it writes ("Successfully connected (transport:
// stdio) in N ms", the protocol era it settled on, and whether SIGINT alone stopped the server).
// Then, without Claude Code, what "connected" holds: from spawn to the first answer (the jar: the
// discover Claude Code opens with, which its launcher answers; the peer: initialize) and to the
// tool list, in alternating fresh starts of each.
//
//   node bench/claude-connect.mjs [--rounds 10] [--jar target/cinch-mcp.jar] [--java java]
//                                 [--claude target/real-clients/node_modules/.bin/claude] [--peer DIR]
//
// Claude Code comes from scripts/real-clients.sh's install (target/real-clients), or --claude.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendants, median, routeReplies, startComparison } from './lib.mjs';
import { awaitArchive, loneJar } from './launches.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(benchDir);
const opts = {
  rounds: 10,
  jar: path.join(repoRoot, 'target', 'cinch-mcp.jar'),
  java: 'java',
  claude: path.join(repoRoot, 'target', 'real-clients', 'node_modules', '.bin', 'claude'),
  peer: null,
};
for (let a = process.argv.slice(2), i = 0; i < a.length; i++) {
  const v = () => a[++i];
  switch (a[i]) {
    case '--rounds': opts.rounds = Number(v()); break;
    case '--jar': opts.jar = path.resolve(v()); break;
    case '--java': opts.java = v(); break;
    case '--claude': opts.claude = path.resolve(v()); break;
    case '--peer': opts.peer = path.resolve(v()); break;
    default: console.error('usage: node bench/claude-connect.mjs [--rounds N] [--jar FILE] [--java JAVA] [--claude BIN] [--peer DIR]'); process.exit(2);
  }
}
if (!fs.existsSync(opts.claude)) {
  console.error(`no Claude Code at ${opts.claude}: run scripts/real-clients.sh once (it installs it), or pass --claude`);
  process.exit(2);
}

/** A throw-away Claude Code home with one stdio server named cinch. */
function claudeHome(dir, command, args, env) {
  fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'project'), { recursive: true });
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const r = claude(dir, ['mcp', 'add', '--transport', 'stdio', 'cinch', ...envArgs, '--', command, ...args]);
  if (r.status !== 0) throw new Error(`claude mcp add failed: ${r.stdout}${r.stderr}`);
  return dir;
}

function claude(home, args) {
  return spawnSync(opts.claude, args, {
    cwd: path.join(home, 'project'),
    env: { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    encoding: 'utf8',
    timeout: 90_000,
  });
}

/** One `claude mcp list`: what its newest per-server log says. */
function connectOnce(home) {
  const r = claude(home, ['mcp', 'list']);
  const connected = /cinch: .*✔ Connected/.test(r.stdout);
  const logs = path.join(home, '.cache', 'claude-cli-nodejs');
  const files = fs.readdirSync(logs, { recursive: true })
    .filter((f) => f.includes('mcp-logs-cinch') && f.endsWith('.jsonl'))
    .map((f) => path.join(logs, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const log = fs.readFileSync(files[0], 'utf8');
  fs.rmSync(files[0]);
  const ms = Number((log.match(/Successfully connected \(transport: stdio\) in (\d+)ms/) || [])[1]);
  const era = (log.match(/\\"protocolEra\\":\\"(\w+)\\",\\"negotiatedProtocolVersion\\":\\"([\d-]+)\\"/) || []).slice(1).join(' ');
  return { connected, ms, era, sigintEnough: log.includes('Sending SIGINT') && !log.includes('SIGINT failed') };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.332' },
};

/**
 * One fresh start driven as its client would: the first request written at once after spawn, the
 * tool list asked for as soon as that is answered. Returns both times from spawn, in ms.
 */
async function readyOnce(argv, cwd, env, era) {
  const t0 = process.hrtime.bigint();
  const child = spawn(argv[0], argv.slice(1), { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  routeReplies(child.stdout, waiting);
  const request = (msg) => new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no reply to ${msg.method} within 30 s`)), 30_000);
    waiting.set(msg.id, () => { clearTimeout(t); resolve(Number(process.hrtime.bigint() - t0) / 1e6); });
    child.stdin.write(JSON.stringify(msg) + '\n');
  });
  try {
    if (era === 2026) {
      const first = await request({ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: META } });
      const tools = await request({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: META } });
      return { first, tools };
    }
    const first = await request({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const tools = await request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    return { first, tools };
  } finally {
    // The whole tree, read before its root goes (the fast launch's child would be orphaned).
    for (const pid of [child.pid, ...descendants(child.pid)]) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const dir = path.join(benchDir, 'results', 'claude-connect');
  const { fake, peer } = await startComparison(repoRoot, opts.peer, dir);
  const api = { CINCH_API_KEY: 'bench-key', CINCH_BASE_URL: `http://127.0.0.1:${fake.port}` };
  const lone = loneJar(opts.jar, opts.java, path.join(dir, 'jar'));
  // The jar's HOME is its own (its archive cache); Claude Code's home is another.
  const jarHome = claudeHome(path.join(dir, 'claude-jar'), 'env', [`HOME=${lone.env.HOME}`, `XDG_CACHE_HOME=${lone.env.XDG_CACHE_HOME}`, ...lone.argv], api);
  const peerHome = claudeHome(path.join(dir, 'claude-peer'), process.execPath, [path.join(peer.dir, 'server.mjs')], api);
  const results = { jar: [], peer: [] };
  const ready = { jar: [], peer: [] };
  try {
    connectOnce(jarHome); // the jar's first start: it makes the archive the measured starts use
    await awaitArchive(lone.archives, 120_000);
    connectOnce(peerHome); // the same one uncounted start for the peer
    for (let round = 1; round <= opts.rounds; round++) {
      const order = round % 2 ? [['jar', jarHome], ['peer', peerHome]] : [['peer', peerHome], ['jar', jarHome]];
      for (const [name, home] of order) results[name].push(connectOnce(home));
    }
    const peerArgv = [process.execPath, path.join(peer.dir, 'server.mjs')];
    for (let round = 1; round <= opts.rounds; round++) {
      const jar = () => readyOnce(lone.argv, lone.cwd, { ...lone.env, ...api }, 2026).then((r) => ready.jar.push(r));
      const peerOnce = () => readyOnce(peerArgv, peer.dir, api, 2025).then((r) => ready.peer.push(r));
      for (const run of round % 2 ? [jar, peerOnce] : [peerOnce, jar]) await run();
    }
  } finally {
    fake.child.kill();
    peer.remove();
  }
  console.log(`\n${opts.rounds} rounds of claude mcp list, alternating; Claude Code's own connect time.`);
  console.log('| contender | connected | era | connect p50 | min | max | ended on SIGINT alone |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, rs] of Object.entries(results)) {
    const ms = rs.map((r) => r.ms);
    console.log(`| ${name} | ${rs.filter((r) => r.connected).length}/${rs.length} | ${[...new Set(rs.map((r) => r.era))].join(', ')} | ${median(ms)} ms | ${Math.min(...ms)} | ${Math.max(...ms)} | ${rs.filter((r) => r.sigintEnough).length}/${rs.length} |`);
  }
  console.log(`ratio jar/peer (p50): ${(median(results.jar.map((r) => r.ms)) / median(results.peer.map((r) => r.ms))).toFixed(2)}x`);
  console.log(`\n${opts.rounds} fresh starts each, without Claude Code: ms from spawn (p50, min-max).`);
  console.log('| contender | first answer | tool list |');
  console.log('|---|---|---|');
  const span = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
  for (const [name, rs] of Object.entries(ready)) {
    console.log(`| ${name} | ${span(rs.map((r) => r.first))} | ${span(rs.map((r) => r.tools))} |`);
  }
  const ratio = (key) => (median(ready.jar.map((r) => r[key])) / median(ready.peer.map((r) => r[key]))).toFixed(2);
  console.log(`ratio jar/peer (p50): first answer ${ratio('first')}x, tool list ${ratio('tools')}x`);
  console.log(`load: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
