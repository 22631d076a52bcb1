#!/usr/bin/env node
// The stdio limits the server advertises, sent for real: one line of almost 8 MiB (a tools/call
// whose code is that long), 64 calls of 1 MB of code running at once, and 64 running plus 1,024
// waiting. Every request must be answered (a result, or "busy" for what exceeds the queue), and the
// server must still be alive and exit 0 at the end. Prints the peak resident memory and, with
// --heap, the largest heap in use after a collection (from the JVM's GC log).
//
//   node bench/big-inputs.mjs [--jar target/cinch-mcp.jar] [--java java] [-- JVM options...]
//
// Without JVM options it runs `java -jar` as a user would (the fast launch from its second start);
// with them, `java OPTIONS -jar` (for example -Xmx128m to find the smallest heap that holds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFake, treeMemory } from './lib.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes < 0 ? args : args.slice(0, dashes);
const jvm = dashes < 0 ? [] : args.slice(dashes + 1);
const opt = (name, dflt) => { const i = own.indexOf(name); return i < 0 ? dflt : own[i + 1]; };
const jar = path.resolve(opt('--jar', path.join(repoRoot, 'target', 'cinch-mcp.jar')));
const java = opt('--java', 'java');
const gcLog = path.join(os.tmpdir(), `cinch-big-gc-${process.pid}.log`);

const fake = await startFake(repoRoot);
const env = { ...process.env, CINCH_API_KEY: 'bench-key', CINCH_BASE_URL: `http://127.0.0.1:${fake.port}`, CINCH_TIMEOUT_MS: '60000' };
const argv = [...jvm, ...(jvm.length ? [`-Xlog:gc:file=${gcLog}`] : []), '-jar', jar];
const child = spawn(java, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; });
child.stdin.on('error', (e) => { stderr += `[bench] stdin: ${e.message}\n`; });
const pending = new Map();
let buf = '';
let peakKb = 0;
const sample = setInterval(() => { peakKb = Math.max(peakKb, treeMemory(child.pid).hwmKb ?? 0); }, 50);
child.stdout.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\n')) >= 0; ) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  }
});
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
let nextId = 1;
const send = (method, params) => new Promise((resolve) => {
  const id = nextId++;
  pending.set(id, resolve);
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
const call = (code) => send('tools/call', { name: 'execute_code', arguments: { code } });
const ok = (m) => m.result && !m.result.isError;
const busy = (m) => m.error && /busy/i.test(m.error.message);
const pad = (n) => '#' + 'x'.repeat(n);
const fail = (why) => { console.log(`FAIL: ${why}\nstderr: ${stderr.slice(-1500)}`); child.kill('SIGKILL'); process.exit(1); };

const results = [];
let step = 'start';
exited.then((e) => { if (step !== 'done') fail(`${step}: the server exited (${e.code ?? e.signal})`); });
const t = async (name, fn) => {
  step = name;
  const t0 = Date.now();
  results.push(`${name}: ${await fn()} in ${Date.now() - t0} ms`);
};
await send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'big', version: '1' } });
child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
await t('one line of 8 MiB minus 200 bytes', async () => {
  const m = await call('print(42)\n' + pad(8 * 1024 * 1024 - 220));
  if (!ok(m)) fail(`the 8 MiB call: ${JSON.stringify(m).slice(0, 300)}`);
  return 'answered';
});
await t('64 calls of 1 MB at once', async () => {
  const ms = await Promise.all(Array.from({ length: 64 }, () => call('fake:sleep=1000\nprint(42)\n' + pad(1_000_000))));
  const good = ms.filter(ok).length;
  if (good !== 64) fail(`64 x 1 MB: ${good} ok; e.g. ${JSON.stringify(ms.find((m) => !ok(m))).slice(0, 300)}`);
  return `${good} ok`;
});
await t('64 running + 1,024 waiting (16 KB each)', async () => {
  const ms = await Promise.all(Array.from({ length: 64 + 1024 }, () => call('fake:sleep=500\nprint(42)\n' + pad(16_000))));
  const good = ms.filter(ok).length, refused = ms.filter(busy).length;
  if (good + refused !== ms.length) fail(`queue: ${good} ok, ${refused} busy of ${ms.length}`);
  return `${good} ok, ${refused} busy`;
});
step = 'done';
child.stdin.end();
const end = await exited;
clearInterval(sample);
fake.child.kill();
let heap = '';
if (fs.existsSync(gcLog)) {
  const after = [...fs.readFileSync(gcLog, 'utf8').matchAll(/->(\d+)M\(/g)].map((m) => Number(m[1]));
  heap = `; largest heap after a collection ${Math.max(0, ...after)} MB`;
  fs.rmSync(gcLog);
}
for (const r of results) console.log(r);
console.log(`exit ${end.code ?? end.signal}; peak memory of the process tree ${(peakKb / 1024).toFixed(0)} MB${heap}`);
if (end.code !== 0) fail(`exit status ${end.code ?? end.signal}`);
