#!/usr/bin/env node
// A local stand-in for the Cinch API (POST /run), for the benchmark and the real-client checks.
// It runs nothing: directives in the program text choose the answer, so one fake serves every case.
//
//   fake:sleep=MS     answer after MS milliseconds
//   fake:stdout=N     stdout of N characters ('x' repeated) instead of "42\n"
//   fake:stderr=TEXT  stderr text (up to the end of the line)
//   fake:exit=N       exit code N
//   fake:status=CODE  answer with this HTTP status and a JSON error body (402 speaks of credits)
//
// With FAKE_CINCH_RUN=1 it runs the program instead, for real and NOT sandboxed (python3 or node
// on this machine, with a /tmp of its own as working directory, killed after 10 s): only for the
// real-client checks' own programs, on loopback; never point a server with other code at it.
//
// Usage: node scripts/fake-cinch-api.mjs [port]   (port 0 or none: any free port)
// It prints one line, "listening on PORT", on stdout, and serves 127.0.0.1 only.
// With FAKE_CINCH_KEY set, any other bearer token gets 401.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const expectedKey = process.env.FAKE_CINCH_KEY;
const port = Number(process.argv[2] || 0);
const runForReal = process.env.FAKE_CINCH_RUN === '1';

// Each run gets a /tmp of its own, as the service's sandbox has: a tmpfs in a mount namespace of its
// own (unshare -rm, where user namespaces are allowed), so that a launcher working in /tmp/work
// touches nothing of this machine's /tmp and two runs never share it. The program lives beside it,
// in /mnt (a second tmpfs), so it is not among the files the run wrote.
const isolated = runForReal && spawnSync('unshare', ['-rm', 'true']).status === 0;
if (runForReal && !isolated) {
  console.error('fake-cinch-api: no user namespaces here; programs run in a temporary directory of the shared /tmp');
}
const IN_OWN_TMP =
  'exec 3<"$1"; mount -t tmpfs -o size=64m tmpfs /tmp && mount -t tmpfs -o size=8m tmpfs /mnt' +
  ' && cat <&3 >"/mnt/$3" && exec 3<&- && cd /tmp && exec "$2" "/mnt/$3"';

// Runs the program as the service would, and answers as the service does.
function run(code, language, answer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cinch-run-'));
  const name = language === 'javascript' ? 'main.js' : 'main.py';
  const file = path.join(dir, name);
  fs.writeFileSync(file, code);
  const interpreter = language === 'javascript' ? 'node' : 'python3';
  const [command, args, cwd] = isolated
    ? ['unshare', ['-rm', 'sh', '-c', IN_OWN_TMP, 'sh', file, interpreter, name], '/']
    : [interpreter, [file], dir];
  const started = Date.now();
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: isolated ? '/tmp' : dir, LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  const err = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, 10_000);
  child.on('close', (status) => {
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
    answer({
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
      exitCode: timedOut ? null : status,
      timedOut,
      durationMs: Date.now() - started,
    });
  });
}

const directive = (code, name) => {
  const m = code.match(new RegExp(`fake:${name}=([^\\n]*)`));
  return m ? m[1].trim() : undefined;
};

const errorBodies = {
  400: { error: 'invalid request: code must be a non-empty string' },
  401: { error: 'invalid API key' },
  402: { error: 'insufficient credits: your balance is $0.00' },
  403: { error: 'forbidden' },
  413: { error: 'code too large' },
  422: { error: 'unsupported language' },
  429: { error: 'rate limit exceeded' },
  500: { error: 'internal error' },
  503: { error: 'service unavailable' },
};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const send = (status, body, headers = {}) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    if (req.method !== 'POST' || req.url !== '/run') return send(404, { error: 'not found' });
    if (expectedKey && req.headers.authorization !== `Bearer ${expectedKey}`) return send(401, errorBodies[401]);
    let program;
    try {
      program = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, errorBodies[400]);
    }
    const code = String(program.code ?? '');
    if (runForReal) return run(code, program.language, (result) => send(200, result));
    const answer = () => {
      const status = Number(directive(code, 'status') || 200);
      if (status !== 200) {
        return send(status, errorBodies[status] ?? { error: `status ${status}` }, status === 429 ? { 'Retry-After': '0' } : {});
      }
      const size = directive(code, 'stdout');
      send(200, {
        stdout: size ? 'x'.repeat(Number(size)) : '42\n',
        stderr: directive(code, 'stderr') ?? '',
        exitCode: Number(directive(code, 'exit') || 0),
        timedOut: false,
        durationMs: 5,
      });
    };
    const sleep = Number(directive(code, 'sleep') || 0);
    if (sleep > 0) setTimeout(answer, sleep);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
