package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.PRIVATE_TMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.CodeRunningApi;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hosted API cuts stdout somewhere (its limit is not on record): a frame that arrives cut is
 * dropped with a note that says so, and the program's own output is intact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Requires(PRIVATE_TMP)
class PicturesCinchCutIT {

  @RegisterExtension static final CodeRunningApi api = new CodeRunningApi().cuttingStdoutAt(50_000);

  private JarProcess jar;

  @BeforeAll
  void start() throws Exception {
    jar = JarProcess.start(JarProcess.envFor(api.baseUrl()));
    jar.initialize();
  }

  @AfterAll
  void stop() throws Exception {
    if (jar != null) {
      jar.closeCleanly();
    }
  }

  @Test
  void aFrameCutByTheApiIsDroppedWithANoteAndTheStreamsStayIntact() throws Exception {
    String code =
        "import os\nprint('before')\n"
            + "open('noise.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + os.urandom(200000))\n"
            + "print('after')\n";
    jar.send(JarProcess.call(1, code));
    JsonNode result = jar.awaitReply(1, PictureCases.ANSWER).path("result");
    assertFalse(result.path("isError").asBoolean(true), PictureCases.brief(result));
    JsonNode structured = result.path("structuredContent");
    assertEquals("before\nafter\n", structured.path("stdout").asText());
    assertEquals(0, structured.path("files").size());
    String summary = structured.path("summary").asText();
    assertTrue(summary.contains("could not be brought back"), summary);
    assertTrue(summary.contains("was cut"), summary);
    assertTrue(summary.contains("Cinch API's output limit"), summary);
    assertEquals(1, result.path("content").size(), "no image");
  }
}
