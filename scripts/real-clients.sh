#!/usr/bin/env bash
# Drives the built jar with real third-party MCP clients, against the local fake Cinch API
# (scripts/fake-cinch-api.mjs), so nothing leaves this machine but the npm install:
#   - MCP Inspector CLI: tools/list, a successful tools/call (it checks structuredContent against the
#     outputSchema), a cut one (the same check), a failing one (exit status 5), and one with a key
#     the API refuses;
#   - the TypeScript SDK's clients: v2 in the 2026-07-28 era (pinned, and auto-probing) and v1 in the
#     2025 one (scripts/real-clients/sdk-clients.mjs);
#   - Claude Code CLI: `claude mcp add` + `claude mcp list` in a throw-away HOME must say "Connected",
#     and its per-server log must show the 2026 era and a server that ended on SIGINT alone;
#   - Claude Code hands the model a picture: print mode against a fake Messages API on loopback
#     (scripts/real-clients/fake-model-api.mjs) that calls execute_code and keeps the tool_result
#     the model gets; once with a stand-in server that always returns an image (the control,
#     scripts/real-clients/picture-server.mjs), once with the jar running a Python program that
#     writes a PNG with the standard library (a second fake Cinch API that really runs programs);
#     the pictures as the model saw them are kept in target/real-clients-pictures/;
#   - the Claude Desktop bundle: `mcpb validate` on its manifest, then the server started from the
#     unpacked target/cinch-mcp-<os>-<arch>.mcpb exactly as the mcpb package computes the launch
#     command, once as it is and once where no Java is installed (the JDKs hidden in a private mount
#     namespace: as root with unshare, else skipped with a note);
#   - the jar's own `--check` against the fake API, with a good key and a refused one.
#
# Usage: scripts/real-clients.sh   (after ./mvnw -B package or verify; needs java, node, npm)
# The pinned clients (scripts/real-clients/package.json and its lock file) are installed into
# target/real-clients. Exit 0 only when every check passed; the last line says "N passed, N failed".
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="$ROOT/target/cinch-mcp.jar"
BUNDLE="$(ls "$ROOT"/target/cinch-mcp-*.mcpb 2>/dev/null | head -n 1)"
MANIFEST="$(ls "$ROOT"/target/bundle/cinch-mcp-*/manifest.json 2>/dev/null | head -n 1)"
CLIENTS="$ROOT/target/real-clients"
KEY="cinch_test_real_clients_0123456789" # the fake API accepts only this key (FAKE_CINCH_KEY)
CLIENT_TIMEOUT=90                         # seconds for any one client command; the Inspector's own limit is 60

die() {
  echo "real-clients: FATAL: $*" >&2
  exit 2
}

for tool in java node npm timeout; do
  command -v "$tool" >/dev/null || die "$tool is not on the PATH"
done
[[ -f "$JAR" ]] || die "run ./mvnw -B package first (no $JAR)"
# The bundle needs a JDK 25+ at build time; a build without one makes the jar alone (it says why
# in target/bundle/bundle.properties). Its checks are then skipped, unless CINCH_REQUIRE_BUNDLE=1.
if [[ ! -f "$BUNDLE" || ! -f "$MANIFEST" ]]; then
  [[ "${CINCH_REQUIRE_BUNDLE:-}" == 1 ]] && die "no bundle in target/: $(cat "$ROOT/target/bundle/bundle.properties" 2>/dev/null)"
  BUNDLE=""
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/cinch-real-clients.XXXXXX")"
FAKE_PID=""
MORE_PIDS=() # the fake API that really runs programs, a fake model
cleanup() {
  for pid in "$FAKE_PID" "${MORE_PIDS[@]}"; do
    if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- install the pinned clients (skipped when target/real-clients already has this lock file) ---
mkdir -p "$CLIENTS"
if ! cmp -s "$ROOT/scripts/real-clients/package-lock.json" "$CLIENTS/package-lock.json" \
    || [[ ! -x "$CLIENTS/node_modules/.bin/claude" ]]; then
  echo "Installing the pinned clients into target/real-clients (npm install from the lock file)..."
  cp "$ROOT/scripts/real-clients/package.json" "$ROOT/scripts/real-clients/package-lock.json" "$CLIENTS/"
  # `npm install` with the lock file, not `npm ci`: vite (inside the Inspector) names an optional
  # dependency that is not on the registry, so the lock cannot list it and `npm ci` refuses the lock.
  if ! (cd "$CLIENTS" && timeout 600 npm install --no-audit --no-fund --loglevel=error >"$WORK/npm.log" 2>&1); then
    tail -n 30 "$WORK/npm.log" >&2
    rm -f "$CLIENTS/package-lock.json" # so the next run tries again
    die "could not install the pinned MCP clients with npm (see above); these checks need the npm registry"
  fi
fi
BIN="$CLIENTS/node_modules/.bin"
for tool in mcp-inspector claude mcpb; do
  [[ -x "$BIN/$tool" ]] || die "$tool is missing from $BIN after npm install"
done
echo "Clients: Inspector $(node -p "require('$CLIENTS/node_modules/@modelcontextprotocol/inspector/package.json').version")," \
  "Claude Code $(node -p "require('$CLIENTS/node_modules/@anthropic-ai/claude-code/package.json').version")," \
  "mcpb $(node -p "require('$CLIENTS/node_modules/@anthropic-ai/mcpb/package.json').version"); Java: $(java -version 2>&1 | head -n 1)"

# Waits for a fake's "listening on PORT" line in FILE and prints the port.
port_of() {
  for _ in $(seq 1 100); do
    grep -q '^listening on ' "$1" 2>/dev/null && break
    sleep 0.1
  done
  sed -n 's/^listening on \([0-9]*\)$/\1/p' "$1"
}

# --- the fake Cinch API, on a free port ---
FAKE_CINCH_KEY="$KEY" node "$ROOT/scripts/fake-cinch-api.mjs" 0 >"$WORK/fake.out" 2>"$WORK/fake.err" &
FAKE_PID=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$WORK/fake.out" 2>/dev/null && break
  sleep 0.1
done
PORT="$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$WORK/fake.out")"
[[ -n "$PORT" ]] || die "the fake Cinch API did not start: $(cat "$WORK/fake.err")"
API="http://127.0.0.1:$PORT"
echo "Fake Cinch API at $API"

# --- checks ---
PASSED=0
FAILED=0
OUT="" # the output of the last client run, for the assertions
pass() { PASSED=$((PASSED + 1)); echo "PASS  $1"; }
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL  $1"
  [[ -n "${2:-}" ]] && printf '%s\n' "$2" | head -c 2000 | sed 's/^/      /'
}
# Runs a client with a timeout, keeping stdout+stderr in $OUT and the exit status in $STATUS.
run() {
  OUT="$(timeout "$CLIENT_TIMEOUT" "$@" 2>&1)"
  STATUS=$?
  printf '%s\n' "$OUT" >>"$WORK/all-output.txt"
}
# Asserts on the JSON in $OUT with a JavaScript expression over `r` (the parsed answer).
json_ok() {
  printf '%s' "$OUT" | CHECK="$1" node -e '
    const text = require("fs").readFileSync(0, "utf8");
    const r = JSON.parse(text.slice(text.indexOf("{")));
    process.exit(new Function("r", "return (" + process.env.CHECK + ");")(r) ? 0 : 1);'
}

inspector() {
  run "$BIN/mcp-inspector" --cli -q --format json -e CINCH_API_KEY="${INSPECTOR_KEY:-$KEY}" -e CINCH_BASE_URL="$API" \
    "$@" -- java -jar "$JAR"
}

inspector --method tools/list
if [[ $STATUS -eq 0 ]] && json_ok 'r.result.tools.length === 1 && r.result.tools[0].name === "execute_code" && r.result.tools[0].outputSchema'; then
  pass "Inspector: tools/list shows execute_code with an outputSchema"
else
  fail "Inspector: tools/list (exit $STATUS)" "$OUT"
fi

inspector --method tools/call --tool-name execute_code --tool-args-json '{"code":"print(6 * 7)"}'
if [[ $STATUS -eq 0 ]] && json_ok 'r.result.isError === false && r.result.structuredContent.exitCode === 0 && r.result.structuredContent.stdout === "42\n"'; then
  pass "Inspector: a successful tools/call, structuredContent valid against the outputSchema"
else
  fail "Inspector: successful tools/call (exit $STATUS)" "$OUT"
fi

# A cut success: the Inspector checks the structuredContent (marker inside stdout, summary in words)
# against the outputSchema and exits 1 on a mismatch.
inspector --method tools/call --tool-name execute_code --tool-args-json '{"code":"fake:stdout=50000"}'
if [[ $STATUS -eq 0 ]] && json_ok 'r.result.isError === false && r.result.structuredContent.stdoutTruncated === true && r.result.structuredContent.stdoutLength === 50000 && r.result.structuredContent.stdout.includes("left out here") && r.result.structuredContent.summary.includes("50,000 characters")'; then
  pass "Inspector: a cut success (50,000 characters) still passes the outputSchema, with its marker and summary"
else
  fail "Inspector: cut success (exit $STATUS)" "$OUT"
fi

inspector --method tools/call --tool-name execute_code --tool-args-json '{"code":"fake:exit=3","language":"javascript"}'
if [[ $STATUS -eq 5 ]]; then
  pass "Inspector: a program exiting 3 is an isError result (exit status 5)"
else
  fail "Inspector: failing tools/call should exit 5, exited $STATUS" "$OUT"
fi

INSPECTOR_KEY="not-the-right-key" inspector --method tools/call --tool-name execute_code --tool-args-json '{"code":"print(1)"}'
if [[ $STATUS -eq 5 ]] && grep -q 'refused the API key' <<<"$OUT"; then
  pass "Inspector: a refused key is an isError result that says so"
else
  fail "Inspector: refused key should exit 5 and say so, exited $STATUS" "$OUT"
fi

# The TypeScript SDK's clients: v2 in the 2026 era (pinned, and auto-probing), v1 in the 2025 one.
run env HOME="$WORK" node "$ROOT/scripts/real-clients/sdk-clients.mjs" "$CLIENTS" "$JAR" "$API" "$KEY"
for client in "ts-sdk-v2 pinned 2026-07-28" "ts-sdk-v2 auto" "ts-sdk-v1 (2025)"; do
  if grep -F "\"client\":\"$client\"" <<<"$OUT" | grep -q '"passed":true'; then
    pass "TypeScript SDK: $client connects, lists, calls and gets a failure as isError"
  else
    fail "TypeScript SDK: $client (exit $STATUS)" "$OUT"
  fi
done

# Claude Code keeps its configuration under HOME / CLAUDE_CONFIG_DIR: a throw-away one, no login.
CLAUDE_HOME="$WORK/claude-home"
mkdir -p "$CLAUDE_HOME/.claude" "$CLAUDE_HOME/project"
claude() {
  (cd "$CLAUDE_HOME/project" && HOME="$CLAUDE_HOME" CLAUDE_CONFIG_DIR="$CLAUDE_HOME/.claude" \
    DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    timeout "$CLIENT_TIMEOUT" "$BIN/claude" "$@" 2>&1)
}
if OUT="$(claude mcp add --transport stdio cinch -e CINCH_API_KEY="$KEY" -e CINCH_BASE_URL="$API" -- java -jar "$JAR")"; then
  # `claude mcp list` exits 0 even when a server fails to start: the line must say Connected.
  OUT="$(claude mcp list)"
  printf '%s\n' "$OUT" >>"$WORK/all-output.txt"
  if grep -q '^cinch: .*✔ Connected' <<<"$OUT"; then
    pass "Claude Code: claude mcp list shows cinch ✔ Connected"
  else
    fail "Claude Code: claude mcp list does not show cinch connected" "$OUT"
  fi
  # Its per-server log says which era it settled on and how the server stopped.
  LOG="$(ls -t "$CLAUDE_HOME"/.cache/claude-cli-nodejs/*/mcp-logs-cinch/*.jsonl 2>/dev/null | head -n 1)"
  if [[ -n "$LOG" ]] && grep -q '\\"protocolEra\\":\\"modern\\",\\"negotiatedProtocolVersion\\":\\"2026-07-28\\"' "$LOG"; then
    pass "Claude Code: connected in the 2026 era (protocolEra modern, 2026-07-28)"
  else
    fail "Claude Code: did not settle on 2026-07-28" "$(cat "$LOG" 2>/dev/null)"
  fi
  if [[ -n "$LOG" ]] && grep -q 'Sending SIGINT' "$LOG" && ! grep -q 'SIGINT failed' "$LOG"; then
    pass "Claude Code: the server ended on its SIGINT (no SIGTERM needed)"
  else
    fail "Claude Code: the server did not end on SIGINT alone" "$(grep -o '"debug":"[^"]*' "$LOG" 2>/dev/null)"
  fi
else
  fail "Claude Code: claude mcp add failed" "$OUT"
fi

# --- Claude Code hands the model a picture from a tool result ---
# A fake Messages API plays the model: it calls mcp__cinch__execute_code (through ToolSearch, as MCP
# tools are deferred) and keeps the tool_result of the next request, as the model gets it, with
# each image decoded to a file. Print mode, with only the given MCP configuration.
PICTURES="$ROOT/target/real-clients-pictures"
mkdir -p "$PICTURES"
claude_picture() { # NAME MCP_CONFIG CODE; leaves the fake's files in $WORK/picture-NAME
  local dir="$WORK/picture-$1" port pid
  mkdir -p "$dir"
  FAKE_MODEL_OUT="$dir" FAKE_MODEL_CODE="$3" node "$ROOT/scripts/real-clients/fake-model-api.mjs" 0 \
    >"$dir/fake.out" 2>"$dir/fake.err" &
  pid=$!
  MORE_PIDS+=("$pid")
  port="$(port_of "$dir/fake.out")"
  (cd "$CLAUDE_HOME/project" && HOME="$CLAUDE_HOME" CLAUDE_CONFIG_DIR="$CLAUDE_HOME/.claude" \
    DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=sk-ant-fake-model \
    timeout "$CLIENT_TIMEOUT" "$BIN/claude" -p "Draw a small chart." --output-format stream-json --verbose \
    --mcp-config "$2" --strict-mcp-config --allowedTools mcp__cinch__execute_code \
    >"$dir/stream.jsonl" 2>"$dir/claude.err")
  STATUS=$?
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  cat "$dir/stream.jsonl" "$dir/claude.err" >>"$WORK/all-output.txt"
  OUT="$(cat "$dir/claude.err"; tail -c 1500 "$dir/stream.jsonl"; head -c 1500 "$dir/tool-result.json" 2>/dev/null)"
}
# Prints WIDTHxHEIGHT of a PNG file, or nothing when it is not one.
png_size() {
  node -e 'const b = require("fs").readFileSync(process.argv[1]);
    if (b.subarray(1, 4).toString() === "PNG" && b.subarray(12, 16).toString() === "IHDR")
      console.log(b.readUInt32BE(16) + "x" + b.readUInt32BE(20));' "$1" 2>/dev/null
}

# The control: a stand-in server whose every result holds one 24x16 PNG. If it fails too, the
# harness or Claude Code changed, not the jar.
printf '{"mcpServers": {"cinch": {"type": "stdio", "command": "node", "args": ["%s", "%s"]}}}\n' \
  "$ROOT/scripts/real-clients/picture-server.mjs" "$WORK/picture-control-sent.png" >"$WORK/picture-control.json"
claude_picture control "$WORK/picture-control.json" "print(1)"
CONTROL="$WORK/picture-control/image-1.png"
if [[ $STATUS -eq 0 && -f "$CONTROL" && "$(png_size "$CONTROL")" == 24x16 ]] && cmp -s "$CONTROL" "$WORK/picture-control-sent.png"; then
  cp "$CONTROL" "$PICTURES/control.png"
  pass "Claude Code (control): the model is handed a stand-in server's picture, byte for byte"
else
  fail "Claude Code (control): no picture reached the fake model (exit $STATUS)" "$OUT"
fi

# The jar: a Python program writes a 32x20 PNG with the standard library into its working
# directory; a second fake Cinch API runs it for real.
FAKE_CINCH_KEY="$KEY" FAKE_CINCH_RUN=1 node "$ROOT/scripts/fake-cinch-api.mjs" 0 >"$WORK/fake-run.out" 2>"$WORK/fake-run.err" &
MORE_PIDS+=("$!")
RUN_PORT="$(port_of "$WORK/fake-run.out")"
[[ -n "$RUN_PORT" ]] || die "the fake Cinch API that runs programs did not start: $(cat "$WORK/fake-run.err")"
printf '{"mcpServers": {"cinch": {"type": "stdio", "command": "java", "args": ["-jar", "%s"], "env": {"CINCH_API_KEY": "%s", "CINCH_BASE_URL": "http://127.0.0.1:%s"}}}}\n' \
  "$JAR" "$KEY" "$RUN_PORT" >"$WORK/picture-jar.json"
PNG_PROGRAM="import struct, zlib
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
width, height = 32, 20
rows = b''.join(b'\\x00' + b''.join(bytes((x * 8, 60 + y * 8, 255 - x * 8)) for x in range(width))
                for y in range(height))
png = (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
       + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
with open('chart.png', 'wb') as f:
    f.write(png)
print('wrote chart.png,', len(png), 'bytes')"
claude_picture jar "$WORK/picture-jar.json" "$PNG_PROGRAM"
JAR_PICTURE="$WORK/picture-jar/image-1.png"
if [[ $STATUS -eq 0 && -f "$JAR_PICTURE" && "$(png_size "$JAR_PICTURE")" == 32x20 ]]; then
  cp "$JAR_PICTURE" "$PICTURES/jar-chart.png"
  pass "Claude Code: the model is handed the PNG a program wrote, as an image (target/real-clients-pictures/jar-chart.png)"
elif [[ $STATUS -eq 0 && -f "$WORK/picture-jar/tool-result.json" ]]; then
  fail "Claude Code: the jar's result reached the model without an image (is issue 22's picture pipeline in this build?)" "$OUT"
else
  fail "Claude Code: the jar's picture run did not reach the model (exit $STATUS)" "$OUT"
fi

if [[ -n "$BUNDLE" ]]; then
  run "$BIN/mcpb" validate "$MANIFEST"
  if [[ $STATUS -eq 0 ]] && grep -q 'Manifest schema validation passes' <<<"$OUT"; then
    pass "mcpb validate: the bundle's manifest matches the MCP Bundle schema"
  else
    fail "mcpb validate (exit $STATUS)" "$OUT"
  fi

  run node "$ROOT/scripts/mcpb-launch-check.mjs" "$CLIENTS" "$BUNDLE" "$API" "$KEY"
  if [[ $STATUS -eq 0 ]]; then
    pass "Bundle: the server in the unpacked .mcpb, launched as its manifest says, initializes and runs a program"
  else
    fail "Bundle: launching the server from the .mcpb (exit $STATUS)" "$OUT"
  fi

  # The same where no Java is installed: /usr/lib/jvm replaced by an empty directory (so /usr/bin/java,
  # which points into it, is gone too) in a private mount namespace, and a PATH without any java.
  if [[ "$(id -u)" == 0 ]] && command -v unshare >/dev/null && [[ -d /usr/lib/jvm ]]; then
    mkdir -p "$WORK/no-jvm"
    NODE="$(command -v node)"
    run unshare -m sh -c 'mount --bind "$1" /usr/lib/jvm && shift && PATH=/usr/local/bin:/usr/bin:/bin exec "$@"' \
      sh "$WORK/no-jvm" "$NODE" "$ROOT/scripts/mcpb-launch-check.mjs" --no-java "$CLIENTS" "$BUNDLE" "$API" "$KEY"
    if [[ $STATUS -eq 0 ]]; then
      pass "Bundle without Java: no java on the machine, the bundle's own runtime answers and runs a program"
    else
      fail "Bundle without Java (exit $STATUS)" "$OUT"
    fi
  else
    echo "NOTE  bundle without Java not checked: needs root, unshare and /usr/lib/jvm"
  fi
else
  echo "NOTE  bundle checks skipped: the build made no bundle (no JDK 25+)"
fi

run env CINCH_API_KEY="$KEY" CINCH_BASE_URL="$API" java -jar "$JAR" --check
if [[ $STATUS -eq 0 ]] && grep -q '^OK: ' <<<"$OUT"; then
  pass "--check: OK against the fake API (exit 0)"
else
  fail "--check against the fake API should exit 0, exited $STATUS" "$OUT"
fi

run env CINCH_API_KEY="not-the-right-key" CINCH_BASE_URL="$API" java -jar "$JAR" --check
if [[ $STATUS -eq 1 ]] && grep -q 'API key  *REFUSED' <<<"$OUT"; then
  pass "--check: a refused key fails (exit 1) and says so"
else
  fail "--check with a refused key should exit 1, exited $STATUS" "$OUT"
fi

if grep -qF "$KEY" "$WORK/all-output.txt"; then
  fail "the API key appears in a client's output" "$(grep -nF "$KEY" "$WORK/all-output.txt" | head -n 3)"
else
  pass "the API key appears in no client's output"
fi

echo "$PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
