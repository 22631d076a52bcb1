package dev.cinchmcp.transport;

import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.mcp2026.ServerInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stdin, its first line read before the server is built so that a {@code server/discover} is
 * answered at once ({@link #answer}: the one place, here and in the launcher). The line is read a
 * byte at a time; one not answered is read back first. No logging: a first logger costs more.
 */
public final class EarlyInput extends InputStream {

  static final int MAX_EARLY_LINE = 64 * 1024; // longer are not answered early (a discover: ~400)
  static final long FIRST_MESSAGE_WAIT_MS = 50; // waited for before the server is built

  private final InputStream in;
  private final ByteArrayOutputStream first = new ByteArrayOutputStream(512);
  // Counted down when the first line is read or stdin closed: a blocked read need not end on
  // close (a pipe's does not).
  private final CountDownLatch settled = new CountDownLatch(1);
  private volatile boolean closed;
  private volatile IOException failed;
  private byte[] pending; // read and not answered, served before the rest of stdin
  private int pendingPos;
  private volatile boolean answered;

  /** Answers a first {@code server/discover} on {@code out} at once, or takes the launcher's. */
  public static EarlyInput answerEarly(
      InputStream in, OutputStream out, FirstLineHandOver handedOver) {
    EarlyInput input = new EarlyInput(in, handedOver);
    input.answerFirst(out, FIRST_MESSAGE_WAIT_MS);
    return input;
  }

  EarlyInput(InputStream in) {
    this(in, FirstLineHandOver.NONE);
  }

  /** After the launcher: its answer counts as this one's, what it read comes first. */
  EarlyInput(InputStream in, FirstLineHandOver handedOver) {
    this.in = in;
    if (handedOver.isAnswered()) {
      pending = new byte[0];
      answered = true;
      settled.countDown();
      return;
    }
    byte[] read = handedOver.unanswered();
    first.write(read, 0, read.length);
    if (read.length > 0 && read[read.length - 1] == '\n') {
      settled.countDown();
      return;
    }
    DaemonThreads.start("cinch-stdin-first", new FirstLine());
  }

  /** A class, not a lambda: a lambda's first use costs the start ms. */
  private final class FirstLine implements Runnable {
    @Override
    public void run() {
      try {
        readLine(in, first, MAX_EARLY_LINE);
      } catch (IOException e) {
        failed = e;
      } finally {
        settled.countDown();
      }
    }
  }

  /** Reads a byte at a time up to a newline, the end or {@code max} bytes: nothing after it. */
  static void readLine(InputStream in, ByteArrayOutputStream line, int max) throws IOException {
    int b;
    while (line.size() < max && (b = in.read()) >= 0) {
      line.write(b);
      if (b == '\n') {
        return;
      }
    }
  }

  /** Writes the answer to a first line that is a discover answered early; else false. */
  static boolean answer(byte[] line, OutputStream out) {
    // Anything else is left without loading the early answer's classes: in the launcher's JVM,
    // with no archive, they cost 20-100 ms.
    if (!new String(line, StandardCharsets.ISO_8859_1)
        .contains("\"" + ServerInfo.DISCOVER + "\"")) {
      return false;
    }
    byte[] answer = ServerInfo.earlyDiscover().answerLine(line);
    if (answer == null) {
      return false;
    }
    try {
      out.write(answer);
      out.flush();
    } catch (IOException e) {
      // the client is gone: the server finds stdin at its end
    }
    return true;
  }

  /** Answers the first line if it came within {@code waitMillis} and is a discover. */
  public boolean answerFirst(OutputStream out, long waitMillis) {
    if (answered) {
      return true;
    }
    try {
      if (!settled.await(waitMillis, TimeUnit.MILLISECONDS)) {
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    if (closed || failed != null || !answer(first.toByteArray(), out)) {
      return false;
    }
    pending = new byte[0];
    answered = true;
    return true;
  }

  public boolean answeredFirst() {
    return answered;
  }

  /** Whether a first line came and was left for the server (a 2025 {@code initialize}). */
  public boolean firstLineLeft() {
    return !answered && settled.getCount() == 0 && !closed && failed == null && first.size() > 0;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (pending == null) {
      awaitFirstLine();
    }
    if (pendingPos < pending.length) {
      int n = Math.min(len, pending.length - pendingPos);
      System.arraycopy(pending, pendingPos, b, off, n);
      pendingPos += n;
      return n;
    }
    return in.read(b, off, len);
  }

  private void awaitFirstLine() throws IOException {
    try {
      settled.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading stdin");
    }
    if (closed) {
      throw new IOException("stdin is closed");
    }
    pending = first.toByteArray();
    if (pending.length == 0 && failed != null) {
      throw failed;
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    settled.countDown();
    in.close();
  }
}
