#!/usr/bin/env node
// Starts the server the way Claude Desktop starts an installed bundle, using the mcpb package's own
// code: unpack the .mcpb, fill the manifest's mcp_config with ${__dirname} and the user's settings
// (getMcpConfigForManifest), spawn that command, and check that it answers initialize, lists the
// tools the manifest promises, and runs one program at BASE_URL with the key (so the settings reached
// the server through the manifest's env block).
//
// Usage: node scripts/mcpb-launch-check.mjs [--no-java] CLIENTS_DIR BUNDLE.mcpb BASE_URL API_KEY
//   CLIENTS_DIR: where the pinned clients are installed (its node_modules holds @anthropic-ai/mcpb)
//   --no-java: first make sure no `java` runs here (scripts/real-clients.sh hides the JDKs in a
//              private mount namespace), so a pass shows the bundle needs no Java of the computer's.
// Exit 0 when the bundle's server answered; 1 with a message on stderr otherwise. Never prints the key.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const noJava = argv[0] === '--no-java';
const [clientsDir, bundle, baseUrl, apiKey] = noJava ? argv.slice(1) : argv;
if (!apiKey) {
  console.error('usage: mcpb-launch-check.mjs [--no-java] CLIENTS_DIR BUNDLE.mcpb BASE_URL API_KEY');
  process.exit(2);
}
if (noJava) {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (!java.error) {
    console.error(`mcpb-launch-check: --no-java, but a java runs here: ${(java.stderr || '').split('\n')[0]}`);
    process.exit(1);
  }
  for (const dir of ['/usr/lib/jvm', '/Library/Java/JavaVirtualMachines']) {
    try {
      const found = readdirSync(dir);
      if (found.length) {
        console.error(`mcpb-launch-check: --no-java, but ${dir} holds ${found.join(', ')}`);
        process.exit(1);
      }
    } catch { /* absent: good */ }
  }
  console.log('no java here: not on the PATH, no JDK under /usr/lib/jvm');
}
const mcpb = await import(pathToFileURL(join(clientsDir, 'node_modules/@anthropic-ai/mcpb/dist/index.js')).href);
const fail = (message) => {
  console.error(`mcpb-launch-check: ${message.split(apiKey).join('[key]')}`);
  process.exit(1);
};

const dir = mkdtempSync(join(tmpdir(), 'cinch-mcpb-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
if (!(await mcpb.unpackExtension({ mcpbPath: bundle, outputDir: dir, silent: true }))) fail(`cannot unpack ${bundle}`);
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));

// Only the required setting plus the test API's address: the timeout must come from the default.
const config = await mcpb.getMcpConfigForManifest({
  manifest,
  extensionPath: dir,
  systemDirs: {},
  userConfig: { api_key: apiKey, base_url: baseUrl },
  pathSeparator: sep,
});
if (!config) fail('getMcpConfigForManifest gave no config (a required setting missing?)');
const unfilled = JSON.stringify(config).match(/\$\{[^}]*\}/);
if (unfilled) fail(`the launch config still holds ${unfilled[0]} after substitution`);
console.log(`launching: ${config.command} ${config.args.map((a) => a.replace(dir, '<bundle>')).join(' ')}`);

const child = spawn(config.command, config.args, {
  env: { PATH: process.env.PATH, HOME: process.env.HOME, ...config.env },
  stdio: ['pipe', 'pipe', 'pipe'],
});
const timer = setTimeout(() => fail('no answers to initialize, tools/list and tools/call within 20 s'), 20_000);
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
child.on('exit', (code) => fail(`the server exited (${code}) before answering; stderr: ${stderr.slice(0, 500)}`));

const answers = new Map();
let buffered = '';
child.stdout.on('data', (data) => {
  buffered += data;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      fail(`a line on stdout is not JSON: ${line.slice(0, 200)}`);
    }
    if (message.id !== undefined) answers.set(message.id, message);
  }
  if (answers.has(1) && answers.has(2) && answers.has(3)) done();
});

const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcpb-launch-check', version: '1' } } });
send({ method: 'notifications/initialized' });
send({ id: 2, method: 'tools/list' });
send({ id: 3, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'print(6 * 7)' } } });

function done() {
  clearTimeout(timer);
  child.removeAllListeners('exit');
  child.kill();
  const info = answers.get(1).result?.serverInfo;
  if (!info) fail(`initialize was not answered with a result: ${JSON.stringify(answers.get(1)).slice(0, 300)}`);
  if (info.version !== manifest.version) fail(`the bundle's jar is ${info.version}, its manifest says ${manifest.version}`);
  const listed = (answers.get(2).result?.tools ?? []).map((t) => t.name).sort().join(',');
  const promised = manifest.tools.map((t) => t.name).sort().join(',');
  if (listed !== promised) fail(`the server lists tools [${listed}], the manifest promises [${promised}]`);
  const run = answers.get(3).result;
  if (!run || run.isError || run.structuredContent?.exitCode !== 0) {
    fail(`tools/call did not run at ${baseUrl} with the key: ${JSON.stringify(answers.get(3)).slice(0, 400)}`);
  }
  console.log(`ok: ${info.name} ${info.version} from the bundle answered initialize, listed [${listed}] and ran a program`);
  process.exit(0);
}
