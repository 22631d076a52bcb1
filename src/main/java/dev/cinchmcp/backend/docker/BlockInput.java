package dev.cinchmcp.backend.docker;

import java.io.IOException;
import java.io.InputStream;

/** An input stream that reads in blocks: a one-byte read is a block read of one byte. */
abstract class BlockInput extends InputStream {

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public abstract int read(byte[] b, int off, int len) throws IOException;
}
