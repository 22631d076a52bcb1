// The launches the benchmark measures, set up the way users get them:
//   - loneJar: the jar copied alone into an empty folder, with a fresh HOME, started as plain
//     `java -jar cinch-mcp.jar`: its first start makes the archive it uses from then on;
//   - bundleLaunch: the Claude Desktop bundle unpacked (execute bits kept) and started with the
//     command and arguments of its manifest, ${__dirname} filled in as Claude Desktop does.
// Both live under bench/results/launches (not /tmp: the jar refuses a cache below a directory
// that everyone can write).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function loneJar(jar, java, dir) {
  const download = path.join(dir, 'download');
  const home = path.join(dir, 'home');
  fs.mkdirSync(download, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  const copy = path.join(download, 'cinch-mcp.jar');
  fs.copyFileSync(jar, copy);
  return {
    argv: [java, '-jar', copy],
    cwd: download,
    env: { HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') },
    archives: path.join(home, '.cache', 'cinch-mcp', 'archives'),
  };
}

export function bundleLaunch(bundle, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('unzip', ['-q', '-o', bundle, '-d', dir], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`unzip ${bundle} failed (is unzip installed?)`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const fill = (s) => s.replaceAll('${__dirname}', dir);
  const { command, args } = manifest.server.mcp_config;
  return { argv: [fill(command), ...args.map(fill)], cwd: dir, env: {} };
}

/** Waits until the lone jar's training process has put an archive into place. */
export async function awaitArchive(dir, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dir) && fs.readdirSync(dir).some((f) => /\.(jsa|aot)$/.test(f))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no archive in ${dir} after ${timeoutMs} ms`);
}
