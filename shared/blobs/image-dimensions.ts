/**
 * The pixel size an image declares in its header, which is what a decoder allocates for: a
 * 141-byte PNG can claim 65,535 × 65,535 (16 GiB of RGBA). Read for the four photo formats
 * only, without decoding anything; `undefined` when the header is not there to read.
 *
 * Written here rather than taken from `image-size` (small, pure JS, well kept): that package
 * registers twenty formats (all of them would be bundled), reads a GIF's logical screen
 * only (a frame may declare more, and decoders grow the canvas to it), and reads fixed offsets
 * of short or malformed headers where we want a refusal. These readers are short enough to
 * prove with generated headers (test/unit/image-dimensions.test.ts).
 */
export interface Dimensions {
  width: number;
  height: number;
}

type Reader = (b: Buffer) => Dimensions | undefined;

/** The signature, then IHDR, which the PNG specification requires first: 13 bytes of data and a CRC. */
const png: Reader = (b) => {
  if (b.length < 33 || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
};

/** Frame headers: SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Segments from SOI to the first frame header; a scan (or the end) before it is unreadable. */
const jpeg: Reader = (b) => {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      // Fill bytes may precede a marker.
      i += 1;
    } else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      // TEM, RSTn and SOI stand alone.
      i += 2;
    } else if (marker === 0xd9 || marker === 0xda) {
      return undefined;
    } else {
      const length = b.readUInt16BE(i + 2);
      if (length < 2) return undefined;
      if (isFrameHeader(marker)) {
        // Length, sample precision, then height and width.
        if (length < 8 || i + 9 > b.length) return undefined;
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return undefined;
};

const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Past a chain of data sub-blocks (a length byte, that many bytes; a zero length ends it). */
const skipSubBlocks = (b: Buffer, from: number): number => {
  let i = from;
  while (i < b.length) {
    const length = b[i] as number;
    i += 1 + length;
    if (length === 0) break;
  }
  return i;
};

/**
 * The logical screen and every frame (image descriptor) that follows it: decoders grow the
 * canvas to a frame that reaches past the screen, so the size is the largest extent of all.
 * A file cut short after its first frame is read as far as it goes (decoders show it so).
 */
const gif: Reader = (b) => {
  if (b.length < 13) return undefined;
  let width = b.readUInt16LE(6);
  let height = b.readUInt16LE(8);
  let frames = 0;
  let i = 13 + colorTableBytes(b[10] as number);
  while (i < b.length && b[i] !== 0x3b) {
    if (b[i] === 0x2c) {
      if (i + 10 > b.length) return undefined;
      width = Math.max(width, b.readUInt16LE(i + 1) + b.readUInt16LE(i + 5));
      height = Math.max(height, b.readUInt16LE(i + 3) + b.readUInt16LE(i + 7));
      frames += 1;
      // The local color table, the LZW minimum code size, then the image data.
      i = skipSubBlocks(b, i + 10 + colorTableBytes(b[i + 9] as number) + 1);
    } else if (b[i] === 0x21) {
      // An extension: introducer, label, then its sub-blocks.
      i = skipSubBlocks(b, i + 2);
    } else {
      return undefined;
    }
  }
  return frames > 0 ? { width, height } : undefined;
};

/** The first chunk after `RIFF<size>WEBP`: a lossy (VP8), lossless (VP8L) or extended (VP8X) header. */
const webp: Reader = (b) => {
  const at = 20;
  if (b.length < at) return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // A key frame's tag (3 bytes, bit 0 clear), its start code, then 14-bit width and height.
    if (b.length < at + 10 || (b[at] as number) & 1 || b.readUIntBE(at + 3, 3) !== 0x9d012a) return undefined;
    return { width: b.readUInt16LE(at + 6) & 0x3fff, height: b.readUInt16LE(at + 8) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // Signature 0x2f, then width − 1 and height − 1 in 14 bits each.
    if (b.length < at + 5 || b[at] !== 0x2f) return undefined;
    const bits = b.readUInt32LE(at + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    // Flags and reserved bytes, then the canvas: width − 1 and height − 1 in 24 bits each.
    if (b.length < at + 10) return undefined;
    return { width: b.readUIntLE(at + 4, 3) + 1, height: b.readUIntLE(at + 7, 3) + 1 };
  }
  return undefined;
};

const READERS: Record<string, Reader> = {
  'image/png': png,
  'image/jpeg': jpeg,
  'image/gif': gif,
  'image/webp': webp,
};

/** What the header of an image of `contentType` (told by its signature) declares. */
export const imageDimensions = (bytes: Buffer, contentType: string): Dimensions | undefined =>
  READERS[contentType]?.(bytes);
