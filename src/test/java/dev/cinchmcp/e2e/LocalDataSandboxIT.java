package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Data sandboxes through the built jar, with real gVisor and the host's Debian numpy, pandas and
 * matplotlib (.ci/run installs them): a program that imports them gets, once the demand has shown,
 * a sandbox that imported them ahead, under the walls of any other; one that does not gets a plain
 * sandbox. Whether the modules were there before the program's first line is what the program
 * itself sees in {@code sys.modules}.
 */
@Requires(GVISOR)
class LocalDataSandboxIT {

  private static final Duration CALL = Duration.ofSeconds(60);

  /** The server's debug line once a data sandbox waits ("Data sandbox cinchmcp-1-5 ready ..."). */
  private static final Pattern READY = Pattern.compile("Data sandbox \\S+ ready in \\d+ ms");

  private static final String ASK = "import sys\nprint('pandas' in sys.modules)\n";

  private final AtomicInteger ids = new AtomicInteger();

  @BeforeAll
  static void dataPackagesInstalled() {
    assumeTrue(
        Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/pandas"))
            && Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/matplotlib")),
        "Debian's python3-pandas and python3-matplotlib (.ci/run installs them)");
  }

  private static JarProcess server() throws Exception {
    JarProcess jar = JarProcess.start(Map.of("CINCH_LOG_LEVEL", "debug"));
    jar.initialize();
    return jar;
  }

  private JsonNode call(JarProcess jar, String code) throws Exception {
    int id = ids.incrementAndGet();
    jar.send(JarProcess.call(id, code));
    return jar.awaitReply(id, CALL).path("result");
  }

  private static String stdout(JsonNode result) {
    return result.path("structuredContent").path("stdout").asText();
  }

  /** Waits until the {@code n}th data sandbox of this server is ready. */
  private static void awaitDataSandbox(JarProcess jar, int n) {
    Await.until(
        () -> {
          Matcher ready = READY.matcher(jar.stderr());
          int seen = 0;
          while (ready.find()) {
            seen++;
          }
          return seen >= n;
        },
        Duration.ofSeconds(90),
        "data sandbox " + n + " to be ready");
  }

  @Test
  void aProgramThatImportsPandasGetsADataSandboxAndOneThatDoesNotAPlainOne() throws Exception {
    try (JarProcess jar = server()) {
      String pandas = ASK + "import pandas as pd\nprint(pd.DataFrame({'a': [1, 2]}).a.sum())\n";
      JsonNode first = call(jar, pandas);
      assertEquals("False\n3\n", stdout(first), "no data call before: none ahead; " + first);
      awaitDataSandbox(jar, 1);
      assertEquals("True\n3\n", stdout(call(jar, pandas)), "pandas was imported ahead");

      awaitDataSandbox(jar, 2); // the next one is there too; a plain program must not take it
      assertEquals("False\n", stdout(call(jar, ASK)), "no heavy import: a plain sandbox");
      assertEquals(
          "False\n",
          stdout(call(jar, "import numpy\n" + ASK)),
          "numpy alone does not take a sandbox that imported pandas");
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      jar.assertProtocolClean();
    }
  }

  @Test
  void nothingOneProgramDoesIsSeenByTheNext() throws Exception {
    String program =
        """
        import sys
        ahead = 'numpy' in sys.modules
        import numpy, os, subprocess
        sleepers = [p for p in os.listdir('/proc') if p.isdigit()
                    and b'sleep' in open('/proc/%s/cmdline' % p, 'rb').read()]
        print(ahead, hasattr(numpy, 'x'), os.path.exists('/tmp/mark'), len(sleepers))
        numpy.x = 1
        open('/tmp/mark', 'w').write('left')
        subprocess.Popen(['sleep', '60'], start_new_session=True)
        """;
    try (JarProcess jar = server()) {
      assertEquals("False False False 0\n", stdout(call(jar, program)));
      awaitDataSandbox(jar, 1);
      JsonNode second = call(jar, program);
      assertEquals(
          "True False False 0\n",
          stdout(second),
          "in a data sandbox, and nothing of the first program there: " + second);
    }
  }

  @Test
  void theMemoryLimitHoldsWithTheImportsCountedAndTheTimeLimitCountsFromTheHandOver()
      throws Exception {
    try (JarProcess jar = server()) {
      call(jar, "import numpy, pandas\n");
      awaitDataSandbox(jar, 1);
      JsonNode big =
          call(
              jar,
              "import numpy as np, pandas\n"
                  + "blocks = [np.ones(5_000_000) for _ in range(8)]\n" // 8 x 40 MB, written
                  + "print('all', sum(b.nbytes for b in blocks) >> 20, 'MB')\n");
      assertTrue(big.path("isError").asBoolean(), "300 MB must not fit in 256 MB: " + big);
      assertFalse(stdout(big).contains("all"), big.toString());
      assertTrue(
          big.toString().contains("256 MB") || big.toString().contains("MemoryError"),
          "the answer says memory: " + big);

      awaitDataSandbox(jar, 2);
      // It imported for a few seconds before it was ready, and now waits: 9 s from the hand-over
      // fit in 10 s only if the limit counts from there.
      Await.timePasses(Duration.ofSeconds(2), "the data sandbox waits before its call");
      JsonNode slow =
          call(jar, ASK + "import numpy, pandas, time\ntime.sleep(9)\nprint('finished')\n");
      assertEquals("True\nfinished\n", stdout(slow), slow.toString());
    }
  }

  @Test
  void aFigureShownInADataSandboxComesBackAsAPicture() throws Exception {
    String plot =
        ASK.replace("pandas", "matplotlib.pyplot")
            + "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.show()\n"
            + "open('numbers.csv', 'w').write('1,4,9')\n";
    try (JarProcess jar = server()) {
      assertEquals("False\n", stdout(call(jar, plot)));
      awaitDataSandbox(jar, 1);
      JsonNode result = call(jar, plot);
      assertEquals("True\n", stdout(result), "matplotlib.pyplot was imported ahead: " + result);
      JsonNode files = result.path("structuredContent").path("files");
      assertEquals("[figure 1]", files.get(0).path("name").asText(), result.toString());
      assertEquals("figure", files.get(0).path("type").asText());
      assertEquals("numbers.csv", files.get(1).path("name").asText());
      boolean picture = false;
      for (JsonNode item : result.path("content")) {
        picture |= item.path("type").asText().equals("image");
      }
      assertTrue(picture, "an image item: " + result);

      awaitDataSandbox(jar, 2);
      JsonNode failing = call(jar, plot.replace("plt.show()", "raise RuntimeError('late')"));
      String stderr = failing.path("structuredContent").path("stderr").asText();
      assertTrue(
          stderr.startsWith("Traceback (most recent call last):\n  File \"/tmp/program/main.py\""),
          "the traceback starts at the program, as in a cold run: " + stderr);
      assertTrue(stderr.contains("RuntimeError: late"), stderr);
    }
  }
}
