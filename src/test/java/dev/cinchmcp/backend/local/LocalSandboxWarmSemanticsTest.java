package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.InputLauncher;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a program sees in a sandbox started ahead of time is what it sees in a cold one: each test
 * runs the same program both ways and compares what it printed, its stderr and its exit status.
 */
@Requires(GVISOR)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalSandboxWarmSemanticsTest {

  LocalSandboxRunner cold;
  LocalSandboxRunner warm;

  /** The settings of both runners (but for the pool): the defaults, with host cgroups as root. */
  LocalSandboxSettings settings(Path state) {
    return LocalSandboxSettings.defaults().withStateDir(state);
  }

  @BeforeAll
  void start(@TempDir Path state) {
    cold =
        LocalRunners.usable(
            LocalSandboxRunner.start(settings(state.resolve("cold")).withPoolSize(0)));
    warm = LocalRunners.warmRunner(settings(state.resolve("warm")).withPoolSize(1));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      warm.close();
      cold.close();
      LocalRunners.assertNothingLeft(warm);
      LocalRunners.assertNothingLeft(cold);
    } finally {
      warm.close();
      cold.close();
    }
  }

  /** The result of {@code program} cold, then warm (once the pool is full again). */
  private List<RunResult> bothWays(Program program) {
    RunResult coldResult = await(cold.run(program, RunListener.NONE));
    LocalRunners.awaitPoolFull(warm);
    RunResult warmResult = await(LocalRunners.warm(warm, program));
    return List.of(coldResult, warmResult);
  }

  private void assertSame(Program program) {
    List<RunResult> both = bothWays(program);
    RunResult c = both.get(0);
    RunResult w = both.get(1);
    assertEquals(c.stdout().text(), w.stdout().text(), "stdout\ncold: " + describe(c));
    assertEquals(c.stderr().text(), w.stderr().text(), "stderr\ncold: " + describe(c));
    assertEquals(c.exitCode(), w.exitCode(), "exit code");
    assertEquals(c.timedOut(), w.timedOut(), "timedOut");
  }

  @Test
  void aWarmRunIsHeldToTheMemoryLimitAsAColdOne() {
    for (Language language : Language.values()) {
      String program =
          language == Language.PYTHON
              ? "b = bytearray(280 * 2**20)\nprint('280 MB ok')"
              : "const b = Buffer.alloc(280 * 2**20, 1); "
                  + LocalSandboxMemoryTest.HOLD
                  + " console.log('280 MB ok')";
      List<RunResult> both = bothWays(new Program(program, language));
      for (RunResult r : both) {
        assertEquals("", r.stdout().text(), language + ": " + describe(r));
      }
    }
  }

  @Test
  void pythonSeesWhatAColdStartShows() {
    assertSame(
        new Program(
            """
            import os, sys
            print(os.getcwd(), sys.argv, __file__, __name__, os.getpid())
            print(sorted(sys.modules))
            print(sorted(k for k in vars(sys.modules['__main__']) if not k.startswith('__')))
            print(sorted(globals()))
            print(os.listdir('/code'), os.listdir('/tmp'), sorted(os.environ.items()))
            print(repr(sys.stdin.read()), os.fstat(0).st_mode >> 12)
            print(sys.flags.isolated, sys.path[0])
            """,
            Language.PYTHON));
  }

  /** An uncaught error, an exit code, a kill and a syntax error end a warm run as a cold one. */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void tracebacksAndExitCodesAreAColdRunsOnes(Program program) {
    assertSame(program);
  }

  static Stream<Program> tracebacksAndExitCodesAreAColdRunsOnes() {
    Language py = Language.PYTHON;
    Language js = Language.JAVASCRIPT;
    return Stream.of(
        new Program("def f():\n    raise ValueError('x')\nf()", py),
        new Program("import sys\nprint('a')\nsys.exit(3)", py),
        new Program("import os\nos.kill(os.getpid(), 9)", py),
        new Program("print(1 +", py),
        new Program("function f() { throw new Error('x'); }\nf();", js),
        new Program("console.log('a'); process.exit(3);", js),
        new Program("process.kill(process.pid, 'SIGKILL');", js),
        new Program("console.log(1 +", js));
  }

  @Test
  void nodeSeesWhatAColdStartShows() {
    assertSame(
        new Program(
            """
            const fs = require('fs');
            console.log(process.cwd(), process.argv, process.execArgv, __filename, process.pid);
            console.log(Object.keys(require.cache), require.main === module, module.id);
            console.log(process.moduleLoadList.length, process.moduleLoadList.join(','));
            // Sorted: runsc hands the environment over in no fixed order, cold or warm.
            console.log(fs.readdirSync('/code'), fs.readdirSync('/tmp'), Object.entries(process.env).sort());
            console.log(JSON.stringify(fs.readFileSync(0, 'utf8')), process.uptime.name);
            """,
            Language.JAVASCRIPT));
  }

  @Test
  void nodeWorkerThreadsRunAsInAColdRun() {
    assertSame(
        new Program(
            """
            const { Worker, isMainThread, parentPort } = require('worker_threads');
            if (isMainThread) {
              const eval_ = new Worker('require("worker_threads").parentPort.postMessage(1)', {
                eval: true,
              });
              eval_.on('message', (m) => {
                console.log('eval worker says', m);
                // One after the other: two at once answer in either order, cold or warm.
                const file = new Worker(__filename);
                file.on('message', (m) => console.log('file worker says', m));
                file.on('exit', (code) => console.log('file worker exit', code));
              });
            } else {
              parentPort.postMessage(process.argv.slice(1).join(' ') || 'no argv');
            }
            """,
            Language.JAVASCRIPT));
  }

  @Test
  void countersStartAsInAFreshProcess() throws Exception {
    // Let the waiting sandboxes wait 2 s, then look at their counters: with the wait counted,
    // process.uptime() would be over 2 s; without it, what Node's own start took (0.05 s on a quiet
    // machine, some tenths under load, cold as warm) and the program's.
    LocalRunners.awaitPoolFull(warm);
    Await.timePasses(Duration.ofSeconds(2), "the waiting sandboxes wait 2 s: it must not count");
    RunResult js =
        await(
            LocalRunners.warmJavascript(
                warm,
                "const c = process.cpuUsage(); console.log(process.uptime(), c.user + c.system)"));
    String[] node = js.stdout().text().strip().split(" ");
    assertTrue(Double.parseDouble(node[0]) < 1.5, "process.uptime() " + describe(js));
    assertTrue(Long.parseLong(node[1]) < 1_000_000, "process.cpuUsage() " + describe(js));
    LocalRunners.awaitPoolFull(warm);
    RunResult py =
        await(LocalRunners.warmPython(warm, "import time, resource\nprint(time.process_time())"));
    assertTrue(Double.parseDouble(py.stdout().text().strip()) < 0.5, describe(py));
  }

  @Test
  void inputArrivesAsInAColdRun() {
    ProgramInput input =
        new ProgramInput("line one\nline two\n", Map.of("data/a.txt", "A"), List.of("--x", "y z"));
    for (Program program :
        List.of(
            new Program(
                "import os, sys\nprint(sys.argv, os.getcwd(), open('data/a.txt').read(),"
                    + " sys.stdin.read().split())",
                Language.PYTHON),
            new Program(
                "const fs = require('fs');\nconsole.log(process.argv, process.execArgv,"
                    + " process.cwd(), fs.readFileSync('data/a.txt', 'utf8'),"
                    + " fs.readFileSync(0, 'utf8'))",
                Language.JAVASCRIPT))) {
      InputLauncher.Launch launch = InputLauncher.prepare(program, input);
      List<RunResult> both = bothWays(launch.program());
      RunResult c = launch.delivered(both.get(0));
      RunResult w = launch.delivered(both.get(1));
      assertEquals(0, c.exitCode(), describe(c));
      assertEquals(c.stdout().text(), w.stdout().text(), describe(w));
      assertEquals(c.exitCode(), w.exitCode());
    }
  }
}
