package dev.cinchmcp.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Base64;
import java.util.Map;

/**
 * What the fast launch's launcher did with stdin's first line before it started its child, handed
 * to the child in an environment variable: a {@code server/discover} already waiting is answered
 * ({@link #answerWaiting}), so the client has its answer while the child's JVM starts; a line read
 * and not answered is read first by the child, as if it came from stdin ({@link EarlyInput}).
 *
 * <p>In the environment, not on the command line: the line may hold a program, and every user of
 * the machine can read a process's command line, while its environment is its owner's alone.
 */
public final class FirstLineHandOver {

  /** The variable the launcher sets in its child's environment. */
  public static final String VARIABLE = "CINCH_FASTSTART_FIRST_LINE";

  /** Nothing read: the child reads stdin from its start. */
  public static final FirstLineHandOver NONE = new FirstLineHandOver(false, new byte[0]);

  /** A discover is ~400 bytes; a longer first line is handed on, and the child reads the rest. */
  static final int MAX_LAUNCHER_LINE = 16 * 1024;

  private static final String ANSWERED = "answered";
  private static final String READ = "read:";

  private final boolean answered;
  private final byte[] unanswered;

  private FirstLineHandOver(boolean answered, byte[] unanswered) {
    this.answered = answered;
    this.unanswered = unanswered;
  }

  /**
   * In the launcher, before the child is started (so no two processes ever write to stdout at
   * once): answers the first line of {@code stdin} if it is already waiting and a discover. Nothing
   * is waited for: with no input waiting, the child reads all of stdin itself.
   */
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

  /** The first line was a discover, and the launcher has answered it. */
  public static FirstLineHandOver answered() {
    return new FirstLineHandOver(true, new byte[0]);
  }

  /** The launcher read these bytes from stdin and answered nothing: they are read first. */
  public static FirstLineHandOver unanswered(byte[] read) {
    return read.length == 0 ? NONE : new FirstLineHandOver(false, read.clone());
  }

  /**
   * What the launcher handed over, read from the child's environment; {@link #NONE} when the
   * variable is not set, or set to something no launcher writes.
   */
  public static FirstLineHandOver from(Map<String, String> env) {
    String value = env.get(VARIABLE);
    if (ANSWERED.equals(value)) {
      return answered();
    }
    if (value != null && value.startsWith(READ)) {
      try {
        return unanswered(Base64.getDecoder().decode(value.substring(READ.length())));
      } catch (IllegalArgumentException notBase64) {
        return NONE;
      }
    }
    return NONE;
  }

  /** Sets the variable in a child's environment, or removes it when nothing was read. */
  public void putIn(Map<String, String> childEnv) {
    if (answered) {
      childEnv.put(VARIABLE, ANSWERED);
    } else if (unanswered.length > 0) {
      childEnv.put(VARIABLE, READ + Base64.getEncoder().encodeToString(unanswered));
    } else {
      childEnv.remove(VARIABLE);
    }
  }

  /** Whether the client has had its answer to the first line already. */
  public boolean isAnswered() {
    return answered;
  }

  /** The bytes read from stdin and not answered, to be read before the rest of it. */
  byte[] unanswered() {
    return unanswered.clone();
  }

  @Override
  public String toString() {
    // What was read is a client's message: say how much, never what.
    return answered
        ? "FirstLineHandOver[answered]"
        : "FirstLineHandOver[" + unanswered.length + " bytes unanswered]";
  }
}
