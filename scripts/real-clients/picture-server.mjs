#!/usr/bin/env node
// The control for real-clients.sh's picture check: a tiny MCP server (stdio, newline-delimited
// JSON-RPC, no dependencies) whose one tool, execute_code, answers every call with a text block and
// an `image` block, a 24x16 PNG made here with zlib. If Claude Code hands the model this server's
// picture but not the jar's, the fault is the jar's; if not even this one's, the harness or Claude
// Code changed. It speaks the 2025 handshake only: Claude Code's 2026 `server/discover` probe gets
// "method not found", and it falls back to `initialize`.
//
//   node picture-server.mjs [PNG_COPY]   (PNG_COPY: where to write the picture it sends)
import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';

const WIDTH = 24;
const HEIGHT = 16;

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A red-to-blue gradient with a white diagonal: easy to recognise when saved. */
function png() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(WIDTH, 0);
  ihdr.writeUInt32BE(HEIGHT, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < HEIGHT; y++) {
    const row = [0]; // filter: none
    for (let x = 0; x < WIDTH; x++) {
      const diagonal = Math.abs(x - (y * WIDTH) / HEIGHT) < 1;
      row.push(diagonal ? 255 : Math.round((255 * x) / WIDTH), diagonal ? 255 : 40, diagonal ? 255 : 255 - Math.round((255 * x) / WIDTH));
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const picture = png();
if (process.argv[2]) fs.writeFileSync(process.argv[2], picture);

const tool = {
  name: 'execute_code',
  description: 'Runs a program (a stand-in: it always answers with one picture).',
  inputSchema: {
    type: 'object',
    properties: { code: { type: 'string' }, language: { type: 'string' } },
    required: ['code'],
  },
};

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'picture-control', version: '1.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: [tool] };
    case 'tools/call':
      return {
        content: [
          { type: 'text', text: 'chart.png (24x16) drawn' },
          { type: 'image', data: picture.toString('base64'), mimeType: 'image/png' },
        ],
        isError: false,
      };
    default:
      return undefined;
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (request.id === undefined) return; // a notification
  const result = answer(request);
  if (result === undefined) {
    send({ id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } });
  } else {
    send({ id: request.id, result });
  }
});
process.stdin.on('end', () => process.exit(0));
