package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Pictures kept, scaled or left out, within the bounds, whatever their size. */
class PictureFitTest {

  static byte[] png(BufferedImage image) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return out.toByteArray();
  }

  /** A PNG of one colour, written row by row as a program would: huge, yet small as a file. */
  static byte[] plainPng(int width, int height) throws IOException {
    ByteArrayOutputStream idat = new ByteArrayOutputStream();
    byte[] row = new byte[1 + 3 * width];
    for (int x = 0; x < width; x++) {
      row[1 + 3 * x] = (byte) 200;
    }
    try (DeflaterOutputStream z = new DeflaterOutputStream(idat)) {
      for (int y = 0; y < height; y++) {
        z.write(row);
      }
    }
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    png.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
    chunk(
        png,
        "IHDR",
        ByteBuffer.allocate(13)
            .putInt(width)
            .putInt(height)
            .put(new byte[] {8, 2, 0, 0, 0})
            .array());
    chunk(png, "IDAT", idat.toByteArray());
    chunk(png, "IEND", new byte[0]);
    return png.toByteArray();
  }

  private static void chunk(ByteArrayOutputStream png, String type, byte[] data)
      throws IOException {
    png.write(ByteBuffer.allocate(4).putInt(data.length).array());
    byte[] typeBytes = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    png.write(typeBytes);
    png.write(data);
    CRC32 crc = new CRC32();
    crc.update(typeBytes);
    crc.update(data);
    png.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  private static BufferedImage decode(byte[] data) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(data));
  }

  @Test
  void aSmallPictureIsSentAsItIs() throws IOException {
    byte[] data = png(new BufferedImage(640, 480, BufferedImage.TYPE_INT_RGB));
    PictureFit.Outcome fitted = PictureFit.fit(data, Integer.MAX_VALUE);
    assertArrayEquals(data, fitted.data());
    assertEquals("image/png", fitted.mimeType());
    assertEquals(640, fitted.width());
    assertNull(fitted.change());
  }

  @Test
  void aTwentyThousandPixelSquareIsScaledFromEveryEighthPixel() throws IOException {
    assertEquals(8, PictureFit.subsampling(20_000, 20_000), "6.25 million pixels decoded");
    byte[] data = plainPng(20_000, 20_000);
    PictureFit.Outcome fitted = PictureFit.fit(data, Integer.MAX_VALUE);
    assertTrue(fitted.sent(), fitted.change());
    BufferedImage image = decode(fitted.data());
    assertEquals(2048, image.getWidth());
    assertEquals(2048, image.getHeight());
    assertEquals(200, (image.getRGB(100, 100) >> 16) & 0xff, "its own colour");
    assertEquals("scaled from 20000 × 20000 to 2048 × 2048", fitted.change());
  }

  @Test
  void subsamplingKeepsTheDecodedPixelsBounded() {
    for (int[] size : new int[][] {{20_000, 20_000}, {100_000, 3}, {5_000, 5_000}, {9_000, 1}}) {
      int step = PictureFit.subsampling(size[0], size[1]);
      long decoded = (long) ceilDiv(size[0], step) * ceilDiv(size[1], step);
      assertTrue(decoded <= PictureFit.MAX_DECODED_PIXELS, size[0] + "x" + size[1]);
      assertTrue(ceilDiv(Math.max(size[0], size[1]), step) <= 2 * PictureFit.TARGET_SIDE);
    }
  }

  @Test
  void aPictureTooLargeToDecodeIsLeftOutUnread() throws IOException {
    byte[] header = plainPng(30_000, 20_000); // 600 million pixels, declared in its header
    PictureFit.Outcome fitted = PictureFit.fit(header, Integer.MAX_VALUE);
    assertFalse(fitted.sent());
    assertTrue(fitted.change().startsWith("30000 × 20000 pixels, too large"), fitted.change());
  }

  @Test
  void aNoisyPictureBecomesAJpegWithinTheBound() throws IOException {
    BufferedImage noise = new BufferedImage(2500, 2500, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(7);
    for (int y = 0; y < 2500; y++) {
      for (int x = 0; x < 2500; x++) {
        noise.setRGB(x, y, random.nextInt());
      }
    }
    PictureFit.Outcome fitted = PictureFit.fit(png(noise), Integer.MAX_VALUE);
    assertTrue(fitted.sent(), fitted.change());
    assertTrue(fitted.data().length <= PictureFit.MAX_BYTES, "" + fitted.data().length);
    assertEquals("image/jpeg", fitted.mimeType());
    assertTrue(fitted.change().endsWith("(as JPEG)"), fitted.change());
    assertEquals(fitted.width(), decode(fitted.data()).getWidth());
  }

  @Test
  void theRoomLeftInTheResultBoundsAPictureToo() throws IOException {
    byte[] data = png(new BufferedImage(300, 300, BufferedImage.TYPE_INT_RGB));
    PictureFit.Outcome fitted = PictureFit.fit(data, 100);
    assertFalse(fitted.sent());
    assertTrue(fitted.change().contains("did not fit"), fitted.change());
  }

  @Test
  void aWebpIsSentAsItIsOrLeftOutBecauseTheJdkCannotScaleIt() {
    byte[] small = webp(1_000);
    assertEquals("image/webp", PictureFit.fit(small, Integer.MAX_VALUE).mimeType());
    PictureFit.Outcome large = PictureFit.fit(webp(PictureFit.MAX_BYTES + 1), Integer.MAX_VALUE);
    assertFalse(large.sent());
    assertTrue(large.change().contains("cannot scale WebP"), large.change());
  }

  @Test
  void aDamagedPictureIsLeftOutWithTheReason() {
    byte[] data = new byte[5_000_000];
    System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10}, 0, data, 0, 8);
    PictureFit.Outcome fitted = PictureFit.fit(data, Integer.MAX_VALUE);
    assertFalse(fitted.sent());
    assertTrue(fitted.change().startsWith("it could not be read as a picture"), fitted.change());
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  private static byte[] webp(int size) {
    byte[] data = new byte[size];
    byte[] head = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'};
    System.arraycopy(head, 0, data, 0, head.length);
    return data;
  }
}
