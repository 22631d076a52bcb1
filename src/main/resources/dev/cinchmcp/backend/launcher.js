'use strict';
// cinch-mcp's input launcher. It writes the program and its files, runs the program as a child
// process with the given stdin and arguments (its output goes straight to this process's stdout and
// stderr), and ends with the program's exit status. A failure of its own is one stderr line that
// starts with the marker below, so the server tells it apart from anything the program prints.
// When asked ("out"), it then hands back the files the program wrote, in a frame at the end of
// stdout that the server takes out (the server's OutFrame describes it).
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

const out = given.out;
let before = new Map();
if (out) {
  try {
    before = scan(out);
  } catch (e) {
    fail("could not prepare the files' return", e);
  }
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
  if (out) {
    handBack(out, before, () => end(code, signal));
  } else {
    end(code, signal);
  }
});

function end(code, signal) {
  if (signal) {
    // Killed by a signal: end the same way, so the sandbox reports what it saw.
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
}

const PICTURE_MAGIC = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0xff, 0xd8, 0xff]),
  Buffer.from('GIF87a'),
  Buffer.from('GIF89a'),
];

// Regular files under the writable root, path -> [size, mtime]: hidden ones and the launcher's own
// folder left out, symbolic links not followed, at most out.maxSeen entries.
function scan(out) {
  const found = new Map();
  let budget = out.maxSeen;
  const walk = (folder, depth) => {
    let entries;
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch (e) {
      return;
    }
    for (const entry of entries) {
      if (budget-- <= 0) return;
      const full = path.join(folder, entry.name);
      if (entry.name.startsWith('.') || full === out.skip) continue;
      try {
        if (entry.isFile()) {
          const st = fs.lstatSync(full, { bigint: true });
          found.set(full, [Number(st.size), st.mtimeNs]);
        } else if (entry.isDirectory() && depth < 16) {
          walk(full, depth + 1);
        }
      } catch (e) {
        // gone or unreadable: not handed back
      }
    }
  };
  walk(out.root, 0);
  return found;
}

// Writes the frame: one line per file, in the order they were made; a failure of its own is one
// line too (the program has run: its output and status stay as they are).
function handBack(out, before, then) {
  let lines = [];
  try {
    const made = [];
    for (const [file, [size, mtime]] of scan(out)) {
      const old = before.get(file);
      if (!old || old[0] !== size || old[1] !== mtime) made.push([mtime, file, size]);
    }
    made.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
    let pictures = 0;
    let total = 0;
    let texts = 0;
    let more = 0;
    let moreBytes = 0;
    const work = out.work + '/';
    for (const [, file, listedSize] of made) {
      let size = listedSize;
      if (lines.length >= out.maxListed) {
        more++;
        moreBytes += size;
        continue;
      }
      const fd = fs.openSync(file, 'r');
      let data = '-';
      let kind = 'f';
      try {
        const head = Buffer.alloc(12);
        const got = fs.readSync(fd, head, 0, 12, 0);
        const start = head.subarray(0, got);
        const picture =
          PICTURE_MAGIC.some((m) => got >= m.length && start.subarray(0, m.length).equals(m)) ||
          (got === 12 && start.toString('latin1', 0, 4) === 'RIFF' && start.toString('latin1', 8) === 'WEBP');
        if (picture && size > out.maxFileBytes) kind = 'P';
        else if (picture && (pictures >= out.maxPictures || total + size > out.maxTotalBytes)) kind = 'C';
        else if (picture) kind = 'p';
        else if (size <= out.maxTextBytes && texts < out.maxTexts) kind = 't';
        if (kind === 'p' || kind === 't') {
          const content = Buffer.alloc(size);
          const n = size === 0 ? 0 : fs.readSync(fd, content, 0, size, 0);
          size = n;
          if (kind === 'p') {
            pictures++;
            total += size;
          } else {
            texts++;
          }
          data = content.subarray(0, n).toString('base64');
        }
      } finally {
        fs.closeSync(fd);
      }
      const name = file.startsWith(work) ? file.slice(work.length) : file;
      const name64 = Buffer.from(name).subarray(0, 1024).toString('base64');
      lines.push(kind + ' ' + size + ' ' + name64 + ' ' + data + '\n');
    }
    if (more) lines.push('m ' + more + ' ' + moreBytes + '\n');
  } catch (e) {
    const detail = Buffer.from(e && e.message ? e.message : String(e)).subarray(0, 300);
    lines = ['! 0 ' + detail.toString('base64') + ' -\n'];
  }
  const frame = out.open + '\n' + lines.join('') + out.close + ' ' + lines.length + '\n';
  process.stdout.on('error', () => then());
  process.stdout.write(frame, 'latin1', () => then());
}
