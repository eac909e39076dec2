import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../../shared/blobs/image-dimensions';
import { decodePhoto, PHOTO_MAX_SIDE } from '../../shared/blobs/photos';
import { InvalidInput, LimitExceeded } from '../../shared/store/errors';
import { gif, jpeg, png, webp } from '../helpers/images';

/**
 * Photos are refused past 4096 × 4096 declared pixels, or when their header cannot be read
 * (shared/blobs/image-dimensions.ts, photos.ts): generated headers of every format, sizes
 * around the bound, and cut or corrupted headers that must be refused as input, never thrown
 * as anything else.
 */

/** A side: mostly near the bound, sometimes anywhere the format can say. */
const side = (max: number) =>
  fc.oneof(
    fc.integer({ min: PHOTO_MAX_SIDE - 3, max: PHOTO_MAX_SIDE + 3 }),
    fc.integer({ min: 1, max: 8 }),
    fc.integer({ min: 1, max }),
  );

/** Each builder, the largest side its format can declare, and the bytes up to the end of the size. */
const FORMATS = [
  { type: 'image/png', build: png, max: 0x7fffffff, header: 33 },
  { type: 'image/jpeg', build: jpeg, max: 0xffff, header: 29 },
  { type: 'image/gif', build: (w: number, h: number) => gif(w, h), max: 0xffff, header: 29 },
  { type: 'image/webp', build: webp.lossy, max: 0x3fff, header: 30 },
  { type: 'image/webp', build: webp.lossless, max: 0x4000, header: 25 },
  { type: 'image/webp', build: webp.extended, max: 0x1000000, header: 30 },
] as const;

const format = fc.constantFrom(...FORMATS);

/** What decoding the photo does: its type, or the refusal's class and message. */
const outcome = (bytes: Buffer) => {
  try {
    return { type: decodePhoto(bytes.toString('base64')).contentType };
  } catch (error) {
    if (error instanceof InvalidInput) {
      expect(error.errors?.map((e) => e.path)).toEqual(['profilePhotoBlob']);
      return { refused: error.errors?.[0]?.message as string };
    }
    if (error instanceof LimitExceeded) return { tooLarge: true };
    throw error;
  }
};

describe('imageDimensions', () => {
  it('reads the size every format declares', () => {
    fc.assert(
      fc.property(
        format,
        fc.integer({ min: 1, max: 0x1000000 }),
        fc.integer({ min: 1, max: 0x1000000 }),
        (f, w, h) => {
          const width = Math.min(w, f.max);
          const height = Math.min(h, f.max);
          expect(imageDimensions(f.build(width, height), f.type)).toEqual({ width, height });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("takes a GIF's size as the largest extent of its screen and every frame", () => {
    const frame = fc.record({
      left: fc.integer({ min: 0, max: 0xffff }),
      top: fc.integer({ min: 0, max: 0xffff }),
      width: fc.integer({ min: 0, max: 0xffff }),
      height: fc.integer({ min: 0, max: 0xffff }),
    });
    fc.assert(
      fc.property(
        side(0xffff),
        side(0xffff),
        fc.array(frame, { minLength: 1, maxLength: 5 }),
        (w, h, frames) => {
          const width = Math.max(w, ...frames.map((f) => f.left + f.width));
          const height = Math.max(h, ...frames.map((f) => f.top + f.height));
          expect(imageDimensions(gif(w, h, { frames, comment: 'x'.repeat(300) }), 'image/gif')).toEqual({
            width,
            height,
          });
        },
      ),
    );
  });
});

describe('decodePhoto', () => {
  it(`accepts a photo exactly when it declares at most ${PHOTO_MAX_SIDE} × ${PHOTO_MAX_SIDE} pixels`, () => {
    fc.assert(
      fc.property(format, side(0x1000000), side(0x1000000), (f, w, h) => {
        const width = Math.min(w, f.max);
        const height = Math.min(h, f.max);
        const result = outcome(f.build(width, height));
        if (width <= PHOTO_MAX_SIDE && height <= PHOTO_MAX_SIDE) expect(result).toEqual({ type: f.type });
        else expect(result.refused).toContain(`declares ${width} × ${height} pixels`);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a header cut short as input, and nothing else goes wrong with any byte changed', () => {
    fc.assert(
      fc.property(
        format,
        side(0xffff),
        side(0xffff),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        (f, w, h, cut, changes) => {
          const whole = f.build(Math.min(w, f.max), Math.min(h, f.max));
          const short = whole.subarray(0, cut % f.header);
          const result = outcome(short);
          if ('type' in result) throw new Error(`accepted a cut header: ${short.toString('hex')}`);
          const changed = Buffer.from(whole);
          for (const [at, value] of changes) changed[at % changed.length] = value;
          outcome(changed);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses the 141-byte PNG claiming 65,535 × 65,535 pixels', () => {
    const bomb = png(65_535, 65_535, { totalBytes: 141 });
    expect(bomb).toHaveLength(141);
    expect(outcome(bomb)).toEqual({
      refused: `the PNG image declares 65535 × 65535 pixels: it must be at least 1 × 1 and at most 4096 × 4096 pixels`,
    });
  });

  it('reads a JPEG past fill bytes and segments of any length before its frame header', () => {
    const [soi, rest] = [jpeg(300, 200).subarray(0, 2), jpeg(300, 200).subarray(2)];
    const comment = Buffer.concat([
      Buffer.from('fffe', 'hex'),
      Buffer.from([0x01, 0x02]),
      Buffer.alloc(0x100),
    ]);
    const padded = Buffer.concat([soi, Buffer.from('ffff', 'hex'), comment, rest]);
    expect(imageDimensions(padded, 'image/jpeg')).toEqual({ width: 300, height: 200 });
  });
});
