package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the launcher hands its child about stdin's first line, through the child's environment. */
class FirstLineHandOverTest {

  private static Map<String, String> childEnv(FirstLineHandOver handOver) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", "/usr/bin");
    handOver.putIn(env);
    return env;
  }

  @Test
  void anAnswerGivenInTheLauncherReachesTheChild() {
    FirstLineHandOver child = FirstLineHandOver.from(childEnv(FirstLineHandOver.answered()));
    assertTrue(child.isAnswered());
    assertEquals(0, child.unanswered().length);
  }

  @Test
  void bytesReadAndNotAnsweredReachTheChildExactly() {
    byte[] read = new byte[256];
    for (int i = 0; i < read.length; i++) {
      read[i] = (byte) i; // any byte, not only text: the client may write anything
    }
    FirstLineHandOver child = FirstLineHandOver.from(childEnv(FirstLineHandOver.unanswered(read)));
    assertFalse(child.isAnswered());
    assertArrayEquals(read, child.unanswered());
  }

  @Test
  void nothingReadRemovesAVariableTheLauncherInherited() {
    Map<String, String> env = new HashMap<>();
    env.put(FirstLineHandOver.VARIABLE, "answered");
    FirstLineHandOver.NONE.putIn(env);
    assertFalse(env.containsKey(FirstLineHandOver.VARIABLE));
    assertSame(FirstLineHandOver.NONE, FirstLineHandOver.unanswered(new byte[0]));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "yes", "read:", "read:not base64!", "ANSWERED"})
  void aValueNoLauncherWritesCountsAsNothingRead(String value) {
    FirstLineHandOver read = FirstLineHandOver.from(Map.of(FirstLineHandOver.VARIABLE, value));
    assertSame(FirstLineHandOver.NONE, read);
  }

  @Test
  void noVariableIsNothingRead() {
    assertSame(FirstLineHandOver.NONE, FirstLineHandOver.from(Map.of()));
  }

  @Test
  void itsTextSaysHowMuchWasReadNeverWhat() {
    byte[] secret = "print('a private program')\n".getBytes(StandardCharsets.UTF_8);
    String text = FirstLineHandOver.unanswered(secret).toString();
    assertFalse(text.contains("private"), text);
    assertTrue(text.contains(secret.length + " bytes"), text);
  }
}
