package dev.cinchmcp.backend.docker;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection to the engine, carrying one HTTP exchange (or, after an upgrade, the raw stream of
 * an attach). Reads and writes may happen on two threads at once; {@link #close()} from a third
 * ends a blocked read.
 *
 * <p>Unix sockets and TCP go through the JDK's {@link SocketChannel} (unix-domain sockets since
 * Java 16, no native code). A Windows named pipe is a file to the JDK: {@link RandomAccessFile}
 * opens it, and a synchronous pipe handle serves one operation at a time, so on a pipe the attach
 * writes all its input before it reads (which is how {@link ContainerRun} uses it everywhere).
 */
interface EngineConnection extends AutoCloseable {

  InputStream input();

  OutputStream output();

  /** Ends what this side sends (the program's stdin reads end-of-file); a no-op on a pipe. */
  void shutdownOutput() throws IOException;

  @Override
  void close();

  static EngineConnection open(EngineAddress address) throws IOException {
    String target = address.target();
    if (address.kind() == EngineAddress.Kind.NPIPE) {
      return new Pipe(new RandomAccessFile(target, "rw"));
    }
    boolean unix = address.kind() == EngineAddress.Kind.UNIX;
    SocketChannel channel =
        unix ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
    try {
      if (unix) {
        channel.connect(UnixDomainSocketAddress.of(target));
      } else {
        int colon = target.lastIndexOf(':');
        channel
            .socket()
            .connect(
                new InetSocketAddress(
                    target.substring(0, colon), Integer.parseInt(target.substring(colon + 1))),
                5_000);
      }
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new Socket(channel);
  }

  /** What every kind of connection shares: the two streams, made once, and what closing closes. */
  abstract class Streams implements EngineConnection {
    private final InputStream in;
    private final OutputStream out;
    private final Closeable resource;

    Streams(InputStream in, OutputStream out, Closeable resource) {
      this.in = in;
      this.out = out;
      this.resource = resource;
    }

    @Override
    public InputStream input() {
      return in;
    }

    @Override
    public OutputStream output() {
      return out;
    }

    @Override
    public void close() {
      try {
        resource.close();
      } catch (IOException e) {
        // closed either way
      }
    }
  }

  /** A socket: read and write straight on the channel, so that neither holds up the other. */
  final class Socket extends Streams {
    private final SocketChannel channel;

    Socket(SocketChannel channel) {
      super(
          new BlockInput() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              if (len == 0) {
                return 0;
              }
              return channel.read(ByteBuffer.wrap(b, off, len));
            }
          },
          new OutputStream() {
            @Override
            public void write(int b) throws IOException {
              write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
              while (buffer.hasRemaining()) {
                channel.write(buffer);
              }
            }
          },
          channel);
      this.channel = channel;
    }

    @Override
    public void shutdownOutput() throws IOException {
      channel.shutdownOutput();
    }
  }

  /** A Windows named pipe (Docker Desktop's {@code \\.\pipe\docker_engine}). */
  final class Pipe extends Streams {
    Pipe(RandomAccessFile file) {
      super(
          new BlockInput() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              return file.read(b, off, len);
            }
          },
          new OutputStream() {
            @Override
            public void write(int b) throws IOException {
              file.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              file.write(b, off, len);
            }
          },
          file);
    }

    @Override
    public void shutdownOutput() {
      // A pipe cannot be half-closed; the program reads its code by length (ContainerRun).
    }
  }
}
