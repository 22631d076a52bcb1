package dev.cinchmcp.tool;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;

/**
 * Makes one picture fit what a client takes: as it is, scaled with ImageIO, or left out with the
 * reason. Never an exhausted heap: the size is read from the header first, the decoder subsamples
 * to at most {@link #MAX_DECODED_PIXELS}, one picture at a time. Measured: a 20,000 × 20,000 PNG
 * (1.2 MB of zlib) decodes in ~3 s within a 64 MB heap.
 */
final class PictureFit {

  /** A picture is sent as it is up to this many bytes (Claude Code scales to ~512 KB itself). */
  static final int MAX_BYTES = 2 * 1024 * 1024;

  /** ...and up to this many pixels on its longer side (the Messages API refuses above 8,000). */
  static final int MAX_SIDE = 4096;

  static final int TARGET_SIDE = 2048;
  static final int SMALLEST_SIDE = 256;

  /** Pixels decoded at most (4 bytes each): ~32 MB of heap, held by one call at a time. */
  static final long MAX_DECODED_PIXELS = 8_000_000;

  /** Larger pictures are not decoded at all: inflating their rows would take many seconds. */
  static final long MAX_SOURCE_PIXELS = 400_000_000;

  private static final Object ONE_AT_A_TIME = new Object();

  static {
    // No display, no Dock icon on macOS: the codecs never need one.
    System.setProperty("java.awt.headless", "true");
  }

  private PictureFit() {}

  record Outcome(byte[] data, String mimeType, int width, int height, String change) {
    static Outcome leftOut(String why) {
      return new Outcome(null, null, 0, 0, why);
    }

    boolean sent() {
      return data != null;
    }
  }

  static String mimeType(byte[] data) {
    if (startsWith(data, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
      return "image/png";
    }
    if (startsWith(data, 0xFF, 0xD8, 0xFF)) {
      return "image/jpeg";
    }
    if (startsWith(data, 'G', 'I', 'F', '8')) {
      return "image/gif";
    }
    if (startsWith(data, 'R', 'I', 'F', 'F', -1, -1, -1, -1, 'W', 'E', 'B', 'P')) {
      return "image/webp";
    }
    return null;
  }

  static Outcome fit(byte[] data, int budget) {
    String type = mimeType(data);
    if (type == null) {
      return Outcome.leftOut("not a PNG, JPEG, GIF or WebP picture after all");
    }
    int limit = Math.min(budget, MAX_BYTES);
    if (type.equals("image/webp")) {
      return data.length <= limit
          ? new Outcome(data, type, 0, 0, null)
          : Outcome.leftOut(
              "a WebP of "
                  + ResultFiles.bytes(data.length)
                  + ", too large to send, and the server's codecs cannot scale WebP: save it as"
                  + " PNG or JPEG instead");
    }
    synchronized (ONE_AT_A_TIME) {
      try {
        return fitDecodable(data, type, limit);
      } catch (IOException | RuntimeException e) {
        return Outcome.leftOut("it could not be read as a picture (" + e.getMessage() + ")");
      }
    }
  }

  private static Outcome fitDecodable(byte[] data, String type, int limit) throws IOException {
    ImageIO.setUseCache(false); // in memory, never a temporary file
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(data))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        return Outcome.leftOut("no decoder for " + type);
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        int width = reader.getWidth(0);
        int height = reader.getHeight(0);
        if (data.length <= limit && Math.max(width, height) <= MAX_SIDE) {
          return new Outcome(data, type, width, height, null);
        }
        if ((long) width * height > MAX_SOURCE_PIXELS) {
          return Outcome.leftOut(
              width + " × " + height + " pixels, too large to scale: draw it smaller");
        }
        ImageReadParam param = reader.getDefaultReadParam();
        int step = subsampling(width, height);
        param.setSourceSubsampling(step, step, 0, 0);
        BufferedImage decoded = reader.read(0, param);
        return encodeWithin(decoded, limit, width, height);
      } finally {
        reader.dispose();
      }
    }
  }

  static int subsampling(int width, int height) {
    int bySide = (int) Math.ceil(Math.max(width, height) / (2.0 * TARGET_SIDE));
    int byPixels = (int) Math.ceil(Math.sqrt((double) width * height / MAX_DECODED_PIXELS));
    return Math.max(1, Math.max(bySide, byPixels));
  }

  private static Outcome encodeWithin(BufferedImage image, int limit, int width, int height)
      throws IOException {
    for (int side = TARGET_SIDE; side >= SMALLEST_SIDE; side /= 2) {
      BufferedImage scaled = scaled(image, side);
      byte[] png = encode(scaled, "png");
      int w = scaled.getWidth();
      int h = scaled.getHeight();
      String change =
          String.format(Locale.ROOT, "scaled from %d × %d to %d × %d", width, height, w, h);
      if (png.length <= limit) {
        return new Outcome(png, "image/png", w, h, change);
      }
      byte[] jpeg = encode(redraw(scaled, w, h, false), "jpeg"); // JPEG has no transparency
      if (jpeg.length <= limit) {
        return new Outcome(jpeg, "image/jpeg", w, h, change + " (as JPEG)");
      }
    }
    return Outcome.leftOut(
        "even scaled to " + SMALLEST_SIDE + " pixels it did not fit in the room left");
  }

  private static BufferedImage scaled(BufferedImage image, int side) {
    double factor = Math.min(1.0, (double) side / Math.max(image.getWidth(), image.getHeight()));
    int w = Math.max(1, (int) Math.round(image.getWidth() * factor));
    int h = Math.max(1, (int) Math.round(image.getHeight() * factor));
    return redraw(image, w, h, image.getColorModel().hasAlpha());
  }

  /**
   * Drawn at {@code w × h}; without alpha, transparent parts become white, as a page shows them.
   */
  private static BufferedImage redraw(BufferedImage image, int w, int h, boolean alpha) {
    BufferedImage out =
        new BufferedImage(w, h, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      if (!alpha) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
      }
      g.drawImage(image, 0, 0, w, h, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  private static byte[] encode(BufferedImage image, String format) throws IOException {
    ImageWriter writer = ImageIO.getImageWritersByFormatName(format).next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      if (format.equals("jpeg")) {
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.85f);
      }
      writer.write(null, new IIOImage(image, null, null), param);
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }

  /** -1 in {@code prefix} matches any byte. */
  private static boolean startsWith(byte[] data, int... prefix) {
    if (data.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (prefix[i] != -1 && (data[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
