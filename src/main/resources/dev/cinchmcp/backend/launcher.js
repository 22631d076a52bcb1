'use strict';
// cinch-mcp's input launcher. It writes the program and its files, runs the program as a child
// process with the given stdin and arguments (its output goes straight to this process's stdout and
// stderr), and ends with the program's exit status. A failure of its own is one stderr line that
// starts with the marker below, so the server tells it apart from anything the program prints.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const MARKER = '@MARKER@';

function fail(what, error) {
  const detail = error && error.message ? error.message : String(error);
  process.stderr.write(MARKER + ' ' + what + ': ' + detail + '\n');
  process.exit(1);
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

let given;
try {
  given = JSON.parse(Buffer.from('@PAYLOAD@', 'base64').toString('utf8'));
} catch (e) {
  fail('could not read its input', e);
}
const { program, workDir } = given;
let where = program;
try {
  write(program, given.code);
  fs.mkdirSync(workDir, { recursive: true });
  for (const [name, text] of given.files) {
    where = name;
    write(path.join(workDir, name), text);
  }
} catch (e) {
  fail('could not write ' + where, e);
}

let child;
try {
  // The interpreter's own options (the local sandbox's heap limit) apply to the program too.
  child = spawn(process.execPath, [...process.execArgv, program, ...given.args], {
    cwd: workDir,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
} catch (e) {
  fail('could not start the program', e);
}
child.on('error', (e) => fail('could not start the program', e));
child.stdin.on('error', () => {}); // a program that stops reading early is fine
child.stdin.end(given.stdin === null ? '' : given.stdin);
given = null;
child.on('exit', (code, signal) => {
  if (signal) {
    // Killed by a signal: end the same way, so the sandbox reports what it saw.
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
