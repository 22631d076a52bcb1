package dev.cinchmcp.launch;

import dev.cinchmcp.mcp2026.ServerInfo;
import dev.cinchmcp.transport.EarlyInput;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * In the fast launch's launcher: answers a {@code server/discover} already waiting on stdin before
 * the child is started. Claude Code opens every server with one and counts the server as connected
 * once it is answered; the launcher's JVM is up well before the child's, which then starts while
 * the client goes on to its next request.
 *
 * <p>Nothing is waited for: with no input waiting, the child reads all of stdin itself. A waiting
 * line is read a byte at a time, so nothing after it is taken, and up to {@link #MAX_LINE} bytes; a
 * line not answered here (a 2025 client's {@code initialize}, anything else) is handed to the child
 * to read first ({@link FirstLineHandOver}). The answer is written before the child exists, so no
 * two processes ever write to stdout at once.
 */
final class LauncherDiscover {

  /** A discover is ~400 bytes; a longer first line is handed on, and the child reads the rest. */
  static final int MAX_LINE = 16 * 1024;

  private LauncherDiscover() {}

  /** Answers the first line of {@code stdin} on {@code stdout} if it is waiting and a discover. */
  static FirstLineHandOver answerWaiting(InputStream stdin, OutputStream stdout) {
    try {
      if (stdin.available() <= 0) {
        return FirstLineHandOver.NONE;
      }
    } catch (IOException e) {
      return FirstLineHandOver.NONE; // not a stream that says: the child reads it all
    }
    ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    try {
      EarlyInput.readLine(stdin, line, MAX_LINE);
    } catch (IOException e) {
      return FirstLineHandOver.unanswered(line.toByteArray()); // the child meets the same error
    }
    // Anything else (a 2025 client's initialize) is handed on without loading the early answer's
    // classes: in this JVM, with no archive, they cost the 2025 start 20-100 ms.
    if (!line.toString(StandardCharsets.ISO_8859_1).contains("\"server/discover\"")) {
      return FirstLineHandOver.unanswered(line.toByteArray());
    }
    byte[] answer = ServerInfo.earlyDiscover().answerLine(line.toByteArray());
    if (answer == null) {
      return FirstLineHandOver.unanswered(line.toByteArray());
    }
    try {
      stdout.write(answer);
      stdout.flush();
    } catch (IOException e) {
      // the client is gone: the child finds stdin at its end
    }
    return FirstLineHandOver.answered();
  }
}
