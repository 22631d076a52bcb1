package dev.cinchmcp.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Base64;
import java.util.Map;

/**
 * What the fast launch's launcher did with stdin's first line (a waiting discover answered, or the
 * bytes read), handed to its child in the environment: the line may hold a program, and any user
 * can read a command line, while the environment is its owner's alone.
 */
public record FirstLineHandOver(boolean isAnswered, byte[] unanswered) {

  public static final String VARIABLE = "CINCH_FASTSTART_FIRST_LINE";
  // nothing read: the child reads stdin from its start
  public static final FirstLineHandOver NONE = new FirstLineHandOver(false, new byte[0]);
  static final int MAX_LAUNCHER_LINE = 16 * 1024; // a discover: ~400; the child reads the rest
  private static final String ANSWERED = "answered";
  private static final String READ = "read:";

  /** In the launcher, before the child starts: answers a first line waiting if a discover. */
  public static FirstLineHandOver answerWaiting(InputStream stdin, OutputStream stdout) {
    try {
      if (stdin.available() <= 0) {
        return NONE;
      }
    } catch (IOException e) {
      return NONE; // not a stream that says: the child reads it all
    }
    ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    try {
      EarlyInput.readLine(stdin, line, MAX_LAUNCHER_LINE);
    } catch (IOException e) {
      return unanswered(line.toByteArray()); // the child meets the same error
    }
    return EarlyInput.answer(line.toByteArray(), stdout)
        ? answered()
        : unanswered(line.toByteArray());
  }

  public static FirstLineHandOver answered() {
    return new FirstLineHandOver(true, new byte[0]);
  }

  public static FirstLineHandOver unanswered(byte[] read) {
    return read.length == 0 ? NONE : new FirstLineHandOver(false, read.clone());
  }

  /** What the launcher handed over, from the child's environment; else {@link #NONE}. */
  public static FirstLineHandOver from(Map<String, String> env) {
    String value = env.getOrDefault(VARIABLE, "");
    try {
      return ANSWERED.equals(value)
          ? answered()
          : value.startsWith(READ)
              ? unanswered(Base64.getDecoder().decode(value.substring(READ.length())))
              : NONE;
    } catch (IllegalArgumentException notBase64) {
      return NONE;
    }
  }

  /** A copy: the bytes stay this value's own (NONE is shared). */
  @Override
  public byte[] unanswered() {
    return unanswered.clone();
  }

  public void putIn(Map<String, String> childEnv) {
    if (isAnswered) {
      childEnv.put(VARIABLE, ANSWERED);
    } else if (unanswered.length > 0) {
      childEnv.put(VARIABLE, READ + Base64.getEncoder().encodeToString(unanswered));
    } else {
      childEnv.remove(VARIABLE);
    }
  }

  @Override
  public String toString() {
    // a client's message: how much, never what
    return isAnswered
        ? "FirstLineHandOver[answered]"
        : "FirstLineHandOver[" + unanswered.length + " bytes unanswered]";
  }
}
