// What the bench scripts share: the local fake Cinch API, and memory summed over a process tree.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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
