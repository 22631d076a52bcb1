package dev.cinchmcp.transport;

import java.util.Base64;
import java.util.Map;

/**
 * What the fast launch's launcher did with stdin's first line before it started its child, handed
 * to the child in an environment variable. The launcher answers a first {@code server/discover}
 * already waiting on stdin, so the client has its answer while the child's JVM starts; the child
 * then reads stdin from the next line on. A line the launcher read and did not answer is handed on
 * and read first, as if it came from stdin ({@link EarlyInput}).
 *
 * <p>In the environment, not on the command line: the line may hold a program, and every user of
 * the machine can read a process's command line, while its environment is its owner's alone.
 */
public final class FirstLineHandOver {

  /** The variable the launcher sets in its child's environment. */
  public static final String VARIABLE = "CINCH_FASTSTART_FIRST_LINE";

  /** Nothing read: the child reads stdin from its start. */
  public static final FirstLineHandOver NONE = new FirstLineHandOver(false, new byte[0]);

  private static final String ANSWERED = "answered";
  private static final String READ = "read:";

  private final boolean answered;
  private final byte[] unanswered;

  private FirstLineHandOver(boolean answered, byte[] unanswered) {
    this.answered = answered;
    this.unanswered = unanswered;
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
