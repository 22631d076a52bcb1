package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.LocalRunners.javascript;
import static dev.cinchmcp.testkit.LocalRunners.python;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.LocalClassRunner;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Ordinary programs in the local sandbox: output, exit codes, errors, stdin, unicode. */
@Requires(GVISOR)
class LocalSandboxRunnerTest {

  @TempDir static Path state;
  @RegisterExtension static final LocalClassRunner local = new LocalClassRunner(() -> state);

  @Test
  void reportsTheVersionsInsideTheSandbox() {
    assertEquals("local", runner().name());
    assertTrue(
        runner().versions().version(Language.PYTHON).orElseThrow().matches("3\\.\\d+\\.\\d+"),
        runner().versions().describe());
    assertTrue(
        runner()
            .versions()
            .version(Language.JAVASCRIPT)
            .orElseThrow()
            .matches("\\d+\\.\\d+\\.\\d+"),
        runner().versions().describe());
    assertTrue(
        runner().versions().describe().startsWith("Python 3."), runner().versions().describe());
  }

  @Test
  void pythonHello() {
    RunResult result = await(python(runner(), "print('hello', 2 + 2)"));
    assertEquals("hello 4\n", result.stdout().text(), describe(result));
    assertEquals("", result.stderr().text());
    assertEquals(0, result.exitCode());
    assertTrue(result.succeeded());
    assertEquals("local", result.backend());
    assertTrue(result.durationMs() != null && result.durationMs() > 0);
  }

  @Test
  void javascriptHello() {
    RunResult result = await(javascript(runner(), "console.log('hello', 2 + 2)"));
    assertEquals("hello 4\n", result.stdout().text(), describe(result));
    assertEquals(0, result.exitCode());
  }

  @Test
  void nonZeroExitIsPassedThrough() {
    assertEquals(3, await(python(runner(), "import sys; print('bye'); sys.exit(3)")).exitCode());
    assertEquals(7, await(javascript(runner(), "process.exit(7)")).exitCode());
    // 128 is also runsc's own failure status: a program's 128 must not be mistaken for one.
    assertEquals(128, await(python(runner(), "import sys; sys.exit(128)")).exitCode());
  }

  @Test
  void exceptionsGoToStderr() {
    RunResult py = await(python(runner(), "print('before')\nraise ValueError('boom')"));
    assertEquals(1, py.exitCode());
    assertEquals("before\n", py.stdout().text());
    assertTrue(py.stderr().text().contains("ValueError: boom"), describe(py));
    // The traceback reads as if the file had been run directly: no frame of the bootstrap.
    assertTrue(
        py.stderr()
            .text()
            .startsWith(
                "Traceback (most recent call last):\n  File \"/code/main.py\", line 2, in <module>\n"),
        describe(py));
    assertFalse(py.stderr().text().contains("<string>"), describe(py));
    RunResult syntax = await(python(runner(), "print('ok')\nprint(("));
    assertEquals(1, syntax.exitCode());
    assertTrue(syntax.stderr().text().contains("SyntaxError"), describe(syntax));
    assertFalse(syntax.stderr().text().contains("<string>"), describe(syntax));
    RunResult main = await(python(runner(), "import sys\nprint(__name__, __file__, sys.argv)"));
    assertEquals(
        "__main__ /code/main.py ['/code/main.py']\n", main.stdout().text(), describe(main));

    RunResult js = await(javascript(runner(), "console.log('before'); throw new Error('boom')"));
    assertEquals(1, js.exitCode());
    assertTrue(js.stderr().text().contains("Error: boom"), describe(js));
  }

  @Test
  void stdinIsClosed() {
    RunResult py = await(python(runner(), "import sys; print(repr(sys.stdin.read()))"));
    assertEquals("''\n", py.stdout().text(), describe(py));
    RunResult js =
        await(
            javascript(
                runner(), "console.log(JSON.stringify(require('fs').readFileSync(0, 'utf8')))"));
    assertEquals("\"\"\n", js.stdout().text(), describe(js));
  }

  @Test
  void unicodeSurvivesBothWays() {
    String text = "héllo wörld — 日本語 😀";
    RunResult py =
        await(
            python(
                runner(),
                "import sys\nprint('" + text + "')\nprint('" + text + "', file=sys.stderr)"));
    assertEquals(text + "\n", py.stdout().text(), describe(py));
    assertEquals(text + "\n", py.stderr().text(), describe(py));
    RunResult js =
        await(
            javascript(
                runner(), "console.log('" + text + "'); console.log('" + text + "'.length)"));
    assertEquals(text + "\n" + text.length() + "\n", js.stdout().text(), describe(js));
  }

  @Test
  void threadsWork() {
    // Thread pools are ordinary Python; a limit on address space would allow only ~5 threads.
    RunResult result =
        await(
            python(
                runner(),
                """
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(24) as pool:
            print(sum(pool.map(lambda x: x * x, range(100))))
        """));
    assertEquals("328350\n", result.stdout().text(), describe(result));
  }

  @Test
  void runsStartFreshEveryTime() {
    await(python(runner(), "open('/tmp/left-behind', 'w').write('x')"));
    RunResult second =
        await(python(runner(), "import os; print(os.path.exists('/tmp/left-behind'))"));
    assertEquals("False\n", second.stdout().text(), describe(second));
    assertFalse(second.timedOut());
  }

  private static LocalSandboxRunner runner() {
    return local.runner();
  }
}
