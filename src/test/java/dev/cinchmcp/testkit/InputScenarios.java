package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.InputLauncher;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a program given stdin, files and args sees, on a real backend: each subclass supplies one
 * (the Cinch runner against an API that really runs the code, the local gVisor sandbox), and every
 * scenario here runs on both. Programs print what they received; the tests compare it exactly.
 */
public abstract class InputScenarios {

  /** Text with two-, three- and four-byte UTF-8, quotes, a backslash and a tab. */
  protected static final String UNICODE = "héllo wörld — 日本語 😀 \"q\" 'a' \\ \t end";

  /** The backend under test. */
  protected abstract CodeRunner runner();

  protected RunResult run(Language language, String code, ProgramInput input) {
    InputLauncher.Launch launch = InputLauncher.prepare(new Program(code, language), input);
    try {
      RunResult run = runner().run(launch.program(), RunListener.NONE).get(60, TimeUnit.SECONDS);
      return launch.delivered(run);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("the run failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the run did not finish", e);
    }
  }

  protected RunResult python(String code, ProgramInput input) {
    return run(Language.PYTHON, code, input);
  }

  protected RunResult javascript(String code, ProgramInput input) {
    return run(Language.JAVASCRIPT, code, input);
  }

  protected static ProgramInput stdin(String text) {
    return new ProgramInput(text, Map.of(), List.of());
  }

  protected static ProgramInput files(Map<String, String> files) {
    return new ProgramInput(null, files, List.of());
  }

  protected static ProgramInput args(String... args) {
    return new ProgramInput(null, Map.of(), List.of(args));
  }

  protected static String describe(RunResult run) {
    return "exit="
        + run.exitCode()
        + "\nstdout: "
        + run.stdout().text()
        + "\nstderr: "
        + run.stderr().text();
  }

  private static void assertOut(String expected, RunResult run) {
    assertEquals(expected, run.stdout().text(), describe(run));
    assertEquals(0, run.exitCode(), describe(run));
  }

  @Test
  void stdinIsReadWhole() {
    String text = "first line\n" + UNICODE + "\n\nlast, no newline";
    // Python counts code points, JavaScript UTF-16 units (the emoji is one, or two).
    assertOut(
        text.codePointCount(0, text.length()) + "|" + text + "|\n",
        python("import sys\nd = sys.stdin.read()\nprint(f'{len(d)}|{d}|')", stdin(text)));
    assertOut(
        text.length() + "|" + text + "|\n",
        javascript(
            "const d = require('fs').readFileSync(0, 'utf8');\nconsole.log(`${d.length}|${d}|`);",
            stdin(text)));
  }

  @Test
  void inputAfterTheLastLineSeesEndOfFile() {
    assertOut(
        "got " + UNICODE + "\nEOF\n",
        python(
            "print('got', input())\ntry:\n    input()\nexcept EOFError:\n    print('EOF')",
            stdin(UNICODE + "\n")));
    assertOut(
        "2 0\n",
        javascript(
            "const fs = require('fs');\nconst a = fs.readFileSync(0, 'utf8');\n"
                + "const b = fs.readFileSync(0, 'utf8');\nconsole.log(a.length, b.length);",
            stdin("x\n")));
  }

  @Test
  void aFileIsReadBackFromTheWorkingDirectory() {
    ProgramInput input = files(Map.of("notes.txt", UNICODE + "\nline two\n"));
    assertOut(
        "/tmp/work\n" + UNICODE + "\nline two\n\n",
        python(
            "import os\nprint(os.getcwd())\nprint(open('notes.txt', encoding='utf-8').read())",
            input));
    assertOut(
        "/tmp/work\n" + UNICODE + "\nline two\n\n",
        javascript(
            "console.log(process.cwd());\nconsole.log(require('fs').readFileSync('notes.txt', 'utf8'));",
            input));
  }

  @Test
  void nestedPathsBecomeFolders() {
    Map<String, String> given =
        GivenFiles.of(
            "a/b/c/deep.txt",
            "deep",
            "a/top.txt",
            "top",
            "ünï/文件 with space.csv",
            "x,y",
            "empty.txt",
            "");
    String py =
        "import os\n"
            + "for root, dirs, names in sorted(os.walk('.')):\n"
            + "    for n in sorted(names):\n"
            + "        p = os.path.join(root, n)[2:]\n"
            + "        print(p, repr(open(p, encoding='utf-8').read()))";
    assertOut(
        "empty.txt ''\na/top.txt 'top'\na/b/c/deep.txt 'deep'\nünï/文件 with space.csv 'x,y'\n",
        python(py, files(given)));
  }

  @Test
  void argumentsArriveExactlyWithSpacesQuotesAndUnicode() {
    ProgramInput input =
        args("two words", "it's \"quoted\"", UNICODE, "", "--flag=a b", "$HOME", "*");
    String expected =
        "[\"two words\",\"it's \\\"quoted\\\"\",\""
            + UNICODE.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t")
            + "\",\"\",\"--flag=a b\",\"$HOME\",\"*\"]\n";
    RunResult py =
        python(
            "import json, sys\nassert sys.argv[0] == '/tmp/program/main.py', sys.argv[0]\n"
                + "print(json.dumps(sys.argv[1:], ensure_ascii=False, separators=(',', ':')))",
            input);
    assertOut(expected, py);
    RunResult js =
        javascript(
            "if (process.argv[1] !== '/tmp/program/main.js') throw new Error(process.argv[1]);\n"
                + "console.log(JSON.stringify(process.argv.slice(2)));",
            input);
    assertOut(expected, js);
  }

  @Test
  void aTracebackNamesTheProgramsOwnFileAndLine() {
    RunResult py = python("import sys\nprint('before')\nraise ValueError('boom')\n", stdin("x"));
    assertEquals(1, py.exitCode(), describe(py));
    assertEquals("before\n", py.stdout().text());
    String trace = py.stderr().text();
    assertTrue(trace.contains("File \"/tmp/program/main.py\", line 3, in <module>"), trace);
    assertTrue(trace.endsWith("ValueError: boom\n"), trace);
    assertFalse(trace.contains("<string>") || trace.contains("launcher"), trace);

    RunResult js = javascript("console.log('before');\n\nthrow new Error('boom');\n", args("a"));
    assertEquals(1, js.exitCode(), describe(js));
    assertTrue(js.stderr().text().contains("/tmp/program/main.js:3"), js.stderr().text());
    assertFalse(js.stderr().text().contains("launcher"), js.stderr().text());
  }

  @Test
  void exitCodesAndBothStreamsAreThePrograms() {
    RunResult py =
        python("import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.exit(3)", args("x"));
    assertEquals(3, py.exitCode(), describe(py));
    assertEquals("out\n", py.stdout().text());
    assertEquals("err\n", py.stderr().text());
    RunResult js =
        javascript("console.log('out'); console.error('err'); process.exit(7);", stdin("y"));
    assertEquals(7, js.exitCode(), describe(js));
    assertEquals("out\n", js.stdout().text());
    assertEquals("err\n", js.stderr().text());
  }

  @Test
  void aProgramKilledByASignalEndsAsItWouldWithoutTheLauncher() {
    String code = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)";
    RunResult direct = python(code, ProgramInput.NONE);
    RunResult launched = python(code, args("x"));
    assertEquals(direct.exitCode(), launched.exitCode(), describe(launched));
    String js = "process.kill(process.pid, 'SIGKILL');";
    RunResult jsDirect = javascript(js, ProgramInput.NONE);
    RunResult jsLaunched = javascript(js, args("x"));
    assertEquals(jsDirect.exitCode(), jsLaunched.exitCode(), describe(jsLaunched));
  }

  @Test
  void aProgramThatIgnoresItsStdinStillEnds() {
    String big = "x".repeat(1_000_000);
    assertOut("no read\n", python("print('no read')", stdin(big)));
    assertOut("no read\n", javascript("console.log('no read')", stdin(big)));
  }

  /** About 1 MB of CSV: an id, a name with Unicode and a quoted comma, a value. */
  protected static String megabyteCsv() {
    StringBuilder sb = new StringBuilder("id,name,value\n");
    for (int i = 0; sb.length() < 1_000_000; i++) {
      sb.append(i).append(",\"ünï, ").append(i % 97).append("\",").append(i % 1000).append('\n');
    }
    return sb.toString();
  }

  private static String csvFacts(String csv) {
    List<String> rows = csv.lines().skip(1).toList();
    long sum =
        rows.stream().mapToLong(r -> Long.parseLong(r.substring(r.lastIndexOf(',') + 1))).sum();
    return rows.size() + " " + sum + " " + csv.length() + "\n";
  }

  @Test
  void aMegabyteCsvReachesAPythonProgramAsAFileAndOnStdin() {
    String csv = megabyteCsv();
    String count =
        "import csv, io, sys\ntext = SOURCE\n"
            + "rows = list(csv.reader(io.StringIO(text, newline='')))[1:]\n"
            + "print(len(rows), sum(int(r[2]) for r in rows), len(text))";
    assertOut(
        csvFacts(csv),
        python(
            count.replace("SOURCE", "open('data/input.csv', encoding='utf-8', newline='').read()"),
            files(Map.of("data/input.csv", csv))));
    assertOut(csvFacts(csv), python(count.replace("SOURCE", "sys.stdin.read()"), stdin(csv)));
  }

  @Test
  void aMegabyteCsvReachesAJavascriptProgramAsAFile() {
    String csv = megabyteCsv();
    assertOut(
        csvFacts(csv),
        javascript(
            "const text = require('fs').readFileSync(process.argv[2], 'utf8');\n"
                + "const rows = text.split('\\n').slice(1).filter((r) => r);\n"
                + "const sum = rows.reduce((s, r) => s + Number(r.slice(r.lastIndexOf(',') + 1)), 0);\n"
                + "console.log(rows.length, sum, text.length);",
            new ProgramInput(null, Map.of("data/input.csv", csv), List.of("data/input.csv"))));
  }
}
