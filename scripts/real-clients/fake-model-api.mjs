#!/usr/bin/env node
// A stand-in for the Anthropic Messages API on loopback, so that Claude Code (print mode) can be
// driven through one tool call without a model: it answers the first turn with a call of
// mcp__cinch__execute_code (loading the deferred tool with the built-in ToolSearch first, when
// Claude Code offers it that way), and saves the tool_result of the next request exactly as the
// model would get it.
//
//   FAKE_MODEL_CODE='print(1)' FAKE_MODEL_OUT=DIR node fake-model-api.mjs [port]
//
// Prints "listening on PORT" on stdout. Into DIR it writes:
//   requests.jsonl     every request body, one per line (the record of what Claude Code sent)
//   tool-result.json   the content of the execute_code tool_result the model was handed
//   image-N.png/.jpg   each image in that tool_result, decoded: the picture as the model saw it
// Streams (SSE: message_start, content_block_*, message_delta, message_stop) or answers with one
// JSON message, as the request asks; answers POST /v1/messages/count_tokens too.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TOOL = 'mcp__cinch__execute_code';
const code = process.env.FAKE_MODEL_CODE ?? 'print(6 * 7)';
const out = process.env.FAKE_MODEL_OUT ?? '.';
const port = Number(process.argv[2] || 0);
let ids = 0;

const toolUses = (messages) =>
  messages.filter((m) => m.role === 'assistant' && Array.isArray(m.content))
    .flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));

const toolResult = (messages, id) => {
  for (const m of messages) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    const found = m.content.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
    if (found) return found;
  }
  return undefined;
};

// What to answer: the next step of the one conversation this fake plays.
function reply(body) {
  const tools = (body.tools ?? []).map((t) => t.name);
  const messages = body.messages ?? [];
  const used = toolUses(messages);
  const call = used.find((u) => u.name === TOOL);
  if (call) {
    const result = toolResult(messages, call.id);
    if (result) {
      save(result);
      return { text: 'I looked at the result.' };
    }
  }
  if (!tools.includes(TOOL) && !tools.includes('ToolSearch')) {
    return { text: 'OK.' }; // a side request (a title, a summary): not the conversation
  }
  const offered = (body.tools ?? []).find((t) => t.name === TOOL);
  const loaded = offered && !offered.defer_loading;
  const searched = used.some((u) => u.name === 'ToolSearch');
  if (!loaded && !searched && tools.includes('ToolSearch')) {
    return { tool: 'ToolSearch', input: { query: `select:${TOOL}` } };
  }
  return { tool: TOOL, input: { code, language: 'python' } };
}

function save(result) {
  const content = Array.isArray(result.content)
    ? result.content
    : [{ type: 'text', text: String(result.content ?? '') }];
  fs.writeFileSync(path.join(out, 'tool-result.json'), JSON.stringify(result, null, 2));
  content.filter((b) => b.type === 'image').forEach((b, i) => {
    const ext = b.source?.media_type === 'image/jpeg' ? 'jpg' : 'png';
    fs.writeFileSync(path.join(out, `image-${i + 1}.${ext}`), Buffer.from(b.source?.data ?? '', 'base64'));
  });
}

function message(answer, model) {
  const id = `msg_fake_${++ids}`;
  const block = answer.tool
    ? { type: 'tool_use', id: `toolu_fake_${ids}`, name: answer.tool, input: answer.input }
    : { type: 'text', text: answer.text };
  return {
    id, type: 'message', role: 'assistant', model, content: [block],
    stop_reason: answer.tool ? 'tool_use' : 'end_turn', stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function stream(res, msg) {
  const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const block = msg.content[0];
  send('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  if (block.type === 'tool_use') {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const json = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = req.url.split('?')[0];
    let body = {};
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad JSON' } });
    }
    fs.appendFileSync(path.join(out, 'requests.jsonl'), JSON.stringify({ method: req.method, url, body }) + '\n');
    if (req.method === 'POST' && url === '/v1/messages/count_tokens') return json(200, { input_tokens: 100 });
    if (req.method !== 'POST' || url !== '/v1/messages') {
      return json(404, { type: 'error', error: { type: 'not_found_error', message: `${req.method} ${url}` } });
    }
    const msg = message(reply(body), body.model ?? 'claude-fake');
    if (body.stream) stream(res, msg);
    else json(200, msg);
  });
});
server.listen(port, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
