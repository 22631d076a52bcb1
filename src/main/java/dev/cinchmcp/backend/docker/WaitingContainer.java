package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.StartedSandbox;
import dev.cinchmcp.backend.WarmPool;
import dev.cinchmcp.config.DockerOptions;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A container started ahead, its interpreter waiting ({@link ContainerSpec#MARK}) for one program
 * down its open attach. Unused, it ends when its attach closes (here, or by the kernel when the
 * server dies); where an engine keeps stdin open, its PID 1 {@code timeout} ends it at {@link
 * #BUDGET}.
 */
final class WaitingContainer implements StartedSandbox {

  /** How long after the last call the waiting containers are removed: an idle server holds none. */
  static final Duration IDLE_LIMIT = Duration.ofMinutes(10);

  /** How long one may wait for its program before its own backstop ends it. */
  static final Duration BUDGET = IDLE_LIMIT.plusMinutes(5);

  /** The oldest one may be when it is handed a program: well within its budget. */
  static final Duration MAX_AGE = IDLE_LIMIT.plusMinutes(2);

  /** How long a call waits for a start under way (gVisor: ~0.3-1 s) rather than go cold. */
  static final Duration START_WAIT = Duration.ofSeconds(3);

  /** How long a close waits for a start under way (runc ~0.1-0.3 s here, runsc ~0.3-1 s). */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

  /** How long a start may take before it is given up (runsc here: ~0.5-1.5 s). */
  private static final long READY_TIMEOUT_SECONDS = 30;

  private final ContainerRun.Parts parts;
  final String name;
  final String id;
  final Engine.Attached attached;
  private final long startedNanos = System.nanoTime();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  private volatile boolean gone;

  private WaitingContainer(
      ContainerRun.Parts parts, String name, String id, Engine.Attached attached) {
    this.parts = parts;
    this.name = name;
    this.id = id;
    this.attached = attached;
  }

  /** Creates and starts one (see {@link #awaitReady()}); throws, leaving nothing. Never pulls. */
  static WaitingContainer start(Language language, ContainerRun.Parts parts) throws IOException {
    String image = parts.settings().image(language);
    if (!parts.images().present(image)) {
      throw new IOException("the image " + image + " is not here yet (its first call pulls it)");
    }
    Engine engine = parts.engine();
    String name = parts.labels().nextName();
    String id = null;
    Engine.Attached attached = null;
    try {
      id = engine.create(name, ContainerSpec.waiting(parts, language, BUDGET));
      attached = engine.attachAndStart(id, parts.streams());
      WaitingContainer started = new WaitingContainer(parts, name, id, attached);
      parts.streams().execute(started::watch);
      return started;
    } catch (IOException | RuntimeException e) {
      if (attached != null) {
        attached.close(); // its launcher reads end-of-file, and exits
      }
      if (id != null && Thread.currentThread().isInterrupted()) {
        engine.killQuietly(id, name, true); // the pool stops: the process is about to end
      } else if (id != null) {
        engine.removeInBackground(id, name, parts.streams());
      }
      throw e;
    }
  }

  /** {@code perLanguage} containers per language, started from images the engine has. */
  static WarmPool<WaitingContainer> pool(int perLanguage, ContainerRun.Parts parts) {
    Map<Language, Integer> sizes =
        Map.of(Language.PYTHON, perLanguage, Language.JAVASCRIPT, perLanguage);
    return new WarmPool<>(
        sizes, IDLE_LIMIT, language -> start(language, parts), "cinchmcp-engine-pool");
  }

  /** For the ready line and {@code --check}: the containers started ahead of time. */
  static String describePool(int poolSize, boolean gvisor) {
    if (poolSize == 0) {
      return "no containers started ahead of time (" + DockerOptions.POOL + "=0)";
    }
    return poolSize
        + (poolSize == 1 ? " container" : " containers")
        + " per language started ahead of time (~"
        + (gvisor ? "17-20 MB" : "3-6 MB")
        + " each while idle, as the engine counts it, no CPU; removed after "
        + IDLE_LIMIT.toMinutes()
        + " idle minutes; "
        + DockerOptions.POOL
        + "=0 turns this off)";
  }

  /** On a stream thread: reads frames up to stdout's first byte, the mark (stderr: what failed). */
  private void watch() {
    InputStream in = attached.attach().input();
    StringBuilder said = new StringBuilder();
    byte[] head = new byte[8];
    try {
      while (!ready.isDone()) {
        if (in.readNBytes(head, 0, 8) < 8) {
          throw new EOFException(
              "the container ended before its interpreter was up"
                  + (said.isEmpty() ? "" : ": " + said.toString().strip()));
        }
        int length = ByteBuffer.wrap(head, 4, 4).getInt();
        byte[] payload = in.readNBytes(Math.min(length, 64 * 1024));
        in.skipNBytes(length - payload.length);
        if (head[0] == 1 && payload.length > 0) {
          if ((payload[0] & 0xff) != ContainerSpec.MARK || payload.length > 1) {
            throw new IOException("the launcher wrote something else than its ready mark");
          }
          ready.complete(null);
        } else if (said.length() < 2000) {
          said.append(new String(payload, StandardCharsets.UTF_8));
        }
      }
    } catch (IOException | RuntimeException e) {
      gone = true;
      ready.completeExceptionally(e);
    }
  }

  @Override
  public void awaitReady() throws IOException, InterruptedException {
    try {
      ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException(
          "container " + name + " was not ready within " + READY_TIMEOUT_SECONDS + " s");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  @Override
  public boolean usable() {
    return !gone
        && !attached.exit().isDone() // it ended, or the engine's wait broke off (a restart)
        && System.nanoTime() - startedNanos < MAX_AGE.toNanos();
  }

  /** Writes the program on stdin and ends it; throws when the container is gone (nothing ran). */
  void handOver(byte[] code, String token) throws IOException {
    if (gone || attached.exit().isDone()) {
      throw new IOException("container " + name + " ended while it waited");
    }
    attached.attach().output().write(ContainerSpec.handOver(code, token));
    attached.attach().shutdownOutput();
  }

  /** Ends it without waiting, for a pool that stops with the process. No lambda: runs cold. */
  @Override
  public void kill() {
    gone = true;
    attached.close();
    parts.engine().killQuietly(id, name, true);
  }

  /** Closes its attach and removes it in the background (the engine may be why it is discarded). */
  @Override
  public void discard() {
    gone = true;
    attached.close();
    parts.engine().removeInBackground(id, name, parts.streams());
  }
}
