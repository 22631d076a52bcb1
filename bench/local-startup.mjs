// Start-up of the server with the local gVisor backend: spawn -> the stderr ready line, and spawn ->
// the initialize reply (initialize is written at once after spawn). Medians over N fresh processes.
//   node bench/local-startup.mjs [--jar target/cinch-mcp.jar] [--runs 10] [--java java] [--backend local]
// Runs with no CINCH_API_KEY (so the local backend serves) and CINCH_FAST_START=0 (a plain JVM, so
// only the backend's share changes between two jars). --backend cinch gives the floor to compare
// with: the same start with a key (to a closed port; initialize never calls the API).
import { spawn } from 'node:child_process';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const jar = args.jar ?? 'target/cinch-mcp.jar';
const runs = Number(args.runs ?? 10);
const java = args.java ?? 'java';
const backend = args.backend ?? 'local';
const backendEnv = backend === 'cinch'
  ? { CINCH_BACKEND: 'cinch', CINCH_API_KEY: 'bench-key', CINCH_BASE_URL: 'http://127.0.0.1:9' }
  : { CINCH_BACKEND: 'local' };
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) + '\n';

function once() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
    const child = spawn(java, ['-jar', jar], {
      env: { PATH: process.env.PATH, CINCH_FAST_START: '0', ...backendEnv },
      stdio: ['pipe', 'pipe', 'pipe'] });
    const got = {};
    let out = '', err = '';
    const done = () => { if (got.ready !== undefined && got.init !== undefined) { child.stdin.end(); resolve(got); } };
    child.stdout.on('data', d => { out += d; if (got.init === undefined && out.includes('"id":1')) { got.init = ms(); done(); } });
    child.stderr.on('data', d => { err += d; if (got.ready === undefined && err.includes('ready on stdio')) { got.ready = ms(); done(); } });
    child.on('exit', code => { if (got.ready === undefined || got.init === undefined) reject(new Error('exited ' + code + ': ' + err)); });
    child.stdin.write(INIT);
    setTimeout(() => { child.kill('SIGKILL'); reject(new Error('no answer in 30 s: ' + err)); }, 30000).unref();
  });
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const results = [];
await once(); // warm the page cache
for (let i = 0; i < runs; i++) {
  results.push(await once());
  await new Promise(r => setTimeout(r, 300)); // let the previous server's exit settle
}
console.log(`${jar} (${backend}): ${runs} runs, median ready line ${median(results.map(r => r.ready)).toFixed(0)} ms, ` +
  `median initialize answered ${median(results.map(r => r.init)).toFixed(0)} ms`);
console.log('ready: ' + results.map(r => r.ready.toFixed(0)).join(' '));
console.log('init:  ' + results.map(r => r.init.toFixed(0)).join(' '));
