# What a client receives for two hostile runs (issue 10): a failing run with 30,000 characters on
# each stream, and a flood of 30,000 control characters on each. For each: the answer's size on
# the wire and what Claude Code hands the model (structuredContent on a success; the error text,
# cut to 5,000 + 5,000 above 11,024 characters, on an error).
# Usage: python3 bench/wire-size.py target/cinch-mcp.jar cinch   (a fake API of its own)
#        python3 bench/wire-size.py target/cinch-mcp.jar local   (real gVisor; root and runsc)
import json, subprocess, sys, threading, http.server, os
CASES = {
    "failing-30000+30000": {
        "python": "import sys\nsys.stdout.write('x' * 30000)\nsys.stderr.write('w' * 29900 + '\\n')\nraise ValueError('the line that matters')\n",
        "answer": {"stdout": "x" * 30000, "stderr": "w" * 29900 + "\nTraceback (most recent call last):\n  File \"<string>\", line 4, in <module>\nValueError: the line that matters\n", "exitCode": 1, "timedOut": False, "durationMs": 40}},
    "control-flood-30000+30000": {
        "python": "import sys\nsys.stdout.write('\\x01' * 30000)\nsys.stderr.write('\\x01' * 30000)\n",
        "answer": {"stdout": "\u0001" * 30000, "stderr": "\u0001" * 30000, "exitCode": 0, "timedOut": False, "durationMs": 40}},
}
class Fake(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        out = json.dumps(next(c for c in CASES.values() if c["python"] == body["code"])["answer"]).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
def run(jar, backend):
    env = dict(os.environ)
    if backend == "cinch":
        srv = http.server.HTTPServer(("127.0.0.1", 0), Fake); threading.Thread(target=srv.serve_forever, daemon=True).start()
        env.update(CINCH_API_KEY="cinch_test_measure_0123456789", CINCH_BASE_URL="http://127.0.0.1:%d" % srv.server_port, CINCH_BACKEND="cinch")
    else:
        env.pop("CINCH_API_KEY", None); env["CINCH_BACKEND"] = "local"
    names = list(CASES)
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "m", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "execute_code", "arguments": {"code": CASES[n]["python"]}}} for i, n in enumerate(names, 1)]
    p = subprocess.run(["java", "-jar", jar], input="\n".join(map(json.dumps, lines)) + "\n", capture_output=True, text=True, env=env, timeout=120, encoding="utf-8")
    replies = {m["id"]: (len(l.encode()) + 1, m["result"]) for l in p.stdout.splitlines() for m in [json.loads(l)] if m.get("id") and "result" in m}
    for i, n in enumerate(names, 1):
        size, r = replies[i]
        text = "".join(c["text"] for c in r["content"] if c["type"] == "text")
        if r.get("isError"):
            seen = text if len(text) <= 11024 else text[:5000] + text[-5000:]
            what = "error text %d chars" % len(text)
        else:
            seen = json.dumps(r["structuredContent"], separators=(",", ":"), ensure_ascii=False)
            what = "JSON.stringify(structuredContent) %d chars" % len(seen)
        print("%-26s %-6s wire %7d B; %s; ValueError line seen: %s" % (n, backend, size, what, "ValueError: the line" in seen))
run(sys.argv[1], sys.argv[2])
