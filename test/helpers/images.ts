import { crc32, deflateSync } from 'node:zlib';

/**
 * Small images built byte by byte, declaring whatever size a test asks for: what the photo
 * checks (shared/blobs/image-dimensions.ts) read is the header, so the pixels need not match.
 */

const u16le = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff]);
const u16be = (n: number) => Buffer.from([(n >>> 8) & 0xff, n & 0xff]);
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u24le = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff]);

const pngChunk = (type: string, data: Buffer) => {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), typed, u32be(crc32(typed))]);
};

/** A PNG (8-bit greyscale) declaring width × height; its pixel data is one row, whatever it claims. */
export const png = (width: number, height: number, { totalBytes }: { totalBytes?: number } = {}) => {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 0, 0, 0, 0])]);
  const head = Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(Math.min(width, 64) + 1))),
  ]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  // A tEXt chunk pads the file to an exact length (12 bytes of framing, a keyword, a NUL).
  const pad = totalBytes === undefined ? 0 : totalBytes - head.length - end.length - 12;
  if (totalBytes !== undefined && pad < 2) throw new Error(`a PNG cannot be ${totalBytes} bytes`);
  const text =
    pad > 0 ? [pngChunk('tEXt', Buffer.concat([Buffer.from('c\0'), Buffer.alloc(pad - 2, 0x61)]))] : [];
  return Buffer.concat([head, ...text, end]);
};

/** A baseline JPEG's headers: SOI, an APP0 (JFIF) segment, then the frame header declaring the size. */
export const jpeg = (width: number, height: number) =>
  Buffer.concat([
    Buffer.from('ffd8', 'hex'),
    Buffer.from('ffe000104a46494600010100000100010000', 'hex'),
    Buffer.from('ffc0000b08', 'hex'),
    u16be(height),
    u16be(width),
    Buffer.from('01011100', 'hex'),
    Buffer.from('ffd9', 'hex'),
  ]);

export interface GifFrame {
  left?: number;
  top?: number;
  width: number;
  height: number;
}

/**
 * A GIF89a of a logical screen and frames (each one pixel of LZW data, whatever it declares),
 * with an optional comment extension before the first frame.
 */
export const gif = (
  width: number,
  height: number,
  { frames = [{ width, height }], comment }: { frames?: GifFrame[]; comment?: string } = {},
) => {
  const parts = [
    Buffer.from('GIF89a', 'latin1'),
    u16le(width),
    u16le(height),
    // A global color table of two entries (black, white), background 0, no aspect ratio.
    Buffer.from([0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]),
  ];
  if (comment !== undefined) {
    const text = Buffer.from(comment, 'utf8');
    parts.push(Buffer.from([0x21, 0xfe]));
    for (let i = 0; i < text.length; i += 255) {
      const block = text.subarray(i, i + 255);
      parts.push(Buffer.from([block.length]), block);
    }
    parts.push(Buffer.from([0]));
  }
  for (const f of frames) {
    parts.push(
      Buffer.from([0x2c]),
      u16le(f.left ?? 0),
      u16le(f.top ?? 0),
      u16le(f.width),
      u16le(f.height),
      Buffer.from([0]),
      // LZW minimum code size 2, one sub-block coding one pixel, the block terminator.
      Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]),
    );
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
};

const riff = (fourcc: string, data: Buffer) => {
  const chunk = Buffer.concat([Buffer.from(fourcc, 'latin1'), Buffer.alloc(4), data]);
  chunk.writeUInt32LE(data.length, 4);
  const file = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'), chunk]);
  file.writeUInt32LE(file.length - 8, 4);
  return file;
};

/** WebP of each bitstream: lossy (VP8, sizes up to 16383), lossless (VP8L, up to 16384), extended (VP8X, up to 2^24). */
export const webp = {
  lossy: (width: number, height: number) =>
    riff(
      'VP8 ',
      Buffer.concat([
        Buffer.from('100200', 'hex'),
        Buffer.from('9d012a', 'hex'),
        u16le(width),
        u16le(height),
      ]),
    ),
  lossless: (width: number, height: number) => {
    const bits = Buffer.alloc(4);
    bits.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14));
    return riff('VP8L', Buffer.concat([Buffer.from([0x2f]), bits, Buffer.alloc(4)]));
  },
  extended: (width: number, height: number) =>
    riff('VP8X', Buffer.concat([Buffer.alloc(4), u24le(width - 1), u24le(height - 1)])),
};
