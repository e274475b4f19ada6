/**
 * The image structure check: whole PNGs and JPEGs pass with their dimensions; anything cut, changed,
 * extended, out of order or too large is refused, and no input makes it throw.
 */
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html, jpeg, jpegSegment, png, pngBomb, pngChunk, pngSignature } from '../../test/support/images.ts';
import { inspectImage, maxImagePixels, maxImageSide } from './structure.ts';

/** A 1×1 RGBA PNG as a real encoder wrote it (zlib at its own settings, no text chunk). */
const encoderPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** An IDAT that stands for any picture: the check never inflates it. */
const tinyIdat = deflateSync(Buffer.from([0]));

const detailOf = (bytes: Buffer) => {
  const inspected = inspectImage(bytes);
  return inspected.ok || inspected.problem !== 'malformed' ? inspected : inspected.detail;
};

const ihdr = (width: number, height: number, depth = 8, colour = 2) => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = depth;
  header[9] = colour;
  return pngChunk('IHDR', header);
};
const iend = pngChunk('IEND', Buffer.alloc(0));
const idat = pngChunk('IDAT', tinyIdat);
const pngOf = (...chunks: Buffer[]) => Buffer.concat([pngSignature, ...chunks]);

const soi = Buffer.from([0xff, 0xd8]);
const eoi = Buffer.from([0xff, 0xd9]);
const sof = (width: number, height: number) =>
  jpegSegment(0xc0, Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]));
const sos = Buffer.concat([
  jpegSegment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
  Buffer.from([0x12, 0x34]),
]);

describe('inspectImage: whole images pass with their dimensions', () => {
  it('takes PNGs and JPEGs, built here or by an encoder', () => {
    expect(inspectImage(png())).toEqual({ ok: true, type: 'image/png', width: 1, height: 1 });
    expect(inspectImage(encoderPng)).toEqual({ ok: true, type: 'image/png', width: 1, height: 1 });
    expect(inspectImage(png({ width: 640, height: 480 }))).toMatchObject({
      ok: true,
      width: 640,
      height: 480,
    });
    expect(inspectImage(jpeg())).toEqual({ ok: true, type: 'image/jpeg', width: 1, height: 1 });
    expect(inspectImage(jpeg({ width: 1200, height: 800, frame: 0xc2 }))).toEqual({
      ok: true,
      type: 'image/jpeg',
      width: 1200,
      height: 800,
    });
  });

  it('reads any size within the limits from the structure', () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: maxImageSide }),
        fc.integer({ min: 1, max: maxImageSide }),
        (width, height) => {
          fc.pre(width * height <= maxImagePixels);
          expect(inspectImage(png({ width, height, idat: tinyIdat }))).toEqual({
            ok: true,
            type: 'image/png',
            width,
            height,
          });
          expect(inspectImage(jpeg({ width, height }))).toEqual({
            ok: true,
            type: 'image/jpeg',
            width,
            height,
          });
        },
      ),
    ));

  it('takes ancillary chunks, several IDATs in a row, an indexed image with its palette', () => {
    const extra = [pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])), pngChunk('prVt', Buffer.from('mine'))];
    expect(inspectImage(png({ extra }))).toMatchObject({ ok: true });
    expect(inspectImage(pngOf(ihdr(2, 2), idat, idat, idat, iend))).toMatchObject({ ok: true, width: 2 });
    const palette = pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]));
    expect(inspectImage(pngOf(ihdr(4, 4, 8, 3), palette, idat, iend))).toMatchObject({ ok: true });
  });
});

describe('inspectImage: refuses what is not one whole image', () => {
  it('refuses bytes that start as neither type', () => {
    for (const bytes of [
      Buffer.alloc(0),
      html,
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    ]) {
      expect(inspectImage(bytes)).toEqual({ ok: false, problem: 'unknown_type' });
    }
  });

  it('refuses a PNG signature or header followed by HTML, and HTML after a whole image', () => {
    expect(detailOf(Buffer.concat([pngSignature, html]))).toBe('a chunk is cut short');
    expect(detailOf(Buffer.concat([pngSignature, ihdr(1, 1), html]))).toMatch(/cut short|not valid|CRC/);
    expect(detailOf(Buffer.concat([png(), html]))).toBe('bytes follow IEND');
    expect(detailOf(Buffer.concat([soi, Buffer.from([0xff, 0xe0]), html]))).toBe('a segment is cut short');
    expect(detailOf(Buffer.concat([soi, sof(1, 1), html]))).toBe('a marker is expected');
    expect(detailOf(Buffer.concat([jpeg(), html]))).toBe('bytes follow EOI');
  });

  it('refuses every PNG and JPEG cut short, and any byte after the end', () =>
    fc.assert(
      fc.property(
        fc.constantFrom(png(), jpeg(), encoderPng),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        (whole, cut, tail) => {
          expect(inspectImage(whole.subarray(0, cut % whole.length)).ok).toBe(false);
          expect(inspectImage(Buffer.concat([whole, tail])).ok).toBe(false);
        },
      ),
    ));

  it('refuses a PNG with any one byte changed (the signature, a length, a type, data or a CRC)', () =>
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (position, flip) => {
        const changed = Buffer.from(encoderPng);
        const at = position % changed.length;
        changed[at] = (changed[at] as number) ^ flip;
        expect(inspectImage(changed).ok).toBe(false);
      }),
    ));

  it('refuses PNG chunks out of order or unknown to PNG', () => {
    const header = ihdr(1, 1);
    expect(detailOf(pngOf(idat, header, iend))).toBe('IHDR is not the first chunk');
    expect(detailOf(pngOf(header, header, idat, iend))).toBe('IHDR appears twice');
    expect(detailOf(pngOf(header, iend))).toBe('there is no IDAT chunk');
    expect(detailOf(pngOf(header, idat))).toBe('the file ends before IEND');
    const text = pngChunk('tEXt', Buffer.from('a\0b'));
    expect(detailOf(pngOf(header, idat, text, idat, iend))).toBe('IDAT chunks are not consecutive');
    expect(detailOf(pngOf(header, pngChunk('ZZZZ', Buffer.alloc(1)), idat, iend))).toBe(
      'ZZZZ is a critical chunk PNG does not define',
    );
    expect(detailOf(pngOf(header, pngChunk('abcd', Buffer.alloc(1)), idat, iend))).toBe(
      'a chunk type is not valid',
    );
    expect(detailOf(pngOf(header, idat, pngChunk('IEND', Buffer.from('x'))))).toBe('IEND carries data');
    expect(detailOf(pngOf(ihdr(4, 4, 8, 3), idat, iend))).toBe('an indexed image has no PLTE');
    expect(detailOf(pngOf(header, idat, pngChunk('PLTE', Buffer.alloc(3)), iend))).toBe(
      'PLTE appears twice or after IDAT',
    );
  });

  it('refuses an IHDR that PNG does not allow', () => {
    expect(detailOf(pngOf(ihdr(0, 1), idat, iend))).toBe('IHDR declares a width or height out of range');
    expect(detailOf(pngOf(ihdr(1, 2 ** 31), idat, iend))).toBe(
      'IHDR declares a width or height out of range',
    );
    expect(detailOf(pngOf(ihdr(1, 1, 4, 2), idat, iend))).toBe(
      'IHDR declares a colour type and bit depth PNG does not have',
    );
    expect(detailOf(pngOf(pngChunk('IHDR', Buffer.alloc(12)), idat, iend))).toBe('IHDR has a wrong length');
  });

  it('refuses JPEG segments out of order, missing or cut', () => {
    expect(detailOf(Buffer.concat([soi, sof(1, 1), eoi]))).toBe('EOI comes before a frame and a scan');
    expect(detailOf(Buffer.concat([soi, sos, sof(1, 1), eoi]))).toBe(
      'a scan (SOS) comes before the frame header (SOF)',
    );
    expect(detailOf(Buffer.concat([soi, sof(1, 1), sof(1, 1), sos, eoi]))).toBe(
      'there is more than one frame header (SOF)',
    );
    expect(detailOf(Buffer.concat([soi, sof(1, 0), sos, eoi]))).toBe(
      'the frame header (SOF) declares no width or height',
    );
    expect(detailOf(Buffer.concat([soi, sof(1, 1), sos]))).toBe('the scan data ends before EOI');
    expect(detailOf(Buffer.concat([soi, soi, sof(1, 1), sos, eoi]))).toBe(
      'marker 0xFFD8 is not expected here',
    );
    expect(detailOf(Buffer.concat([soi, jpegSegment(0xfe, Buffer.alloc(10)).subarray(0, 8)]))).toBe(
      'a segment is cut short',
    );
    expect(detailOf(Buffer.concat([soi, sof(1, 1), sos, eoi]))).toEqual({
      ok: true,
      type: 'image/jpeg',
      width: 1,
      height: 1,
    });
  });

  it('never throws, whatever the bytes after a signature', () =>
    fc.assert(
      fc.property(
        fc.constantFrom(Buffer.alloc(0), pngSignature, soi, Buffer.concat([pngSignature, ihdr(3, 3)])),
        fc.uint8Array({ maxLength: 300 }),
        (start, rest) => {
          const inspected = inspectImage(Buffer.concat([start, rest]));
          expect(typeof inspected.ok).toBe('boolean');
        },
      ),
      { numRuns: 2000 },
    ));
});

describe('inspectImage: refuses pictures over the limits without decoding them', () => {
  it(`refuses a decompression bomb: 20,000 × 20,000, well formed (over ${maxImagePixels / 1e6} MP)`, () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(100_000);
    expect(inspectImage(bomb)).toEqual({
      ok: false,
      problem: 'too_large',
      type: 'image/png',
      width: 20_000,
      height: 20_000,
    });
    expect(inspectImage(jpeg({ width: 20_000, height: 20_000 }))).toMatchObject({ problem: 'too_large' });
  });

  it('holds the pixel count and the side at their limits exactly', () => {
    const side = Math.floor(Math.sqrt(maxImagePixels));
    expect(inspectImage(png({ width: side, height: side, idat: tinyIdat })).ok).toBe(true);
    expect(inspectImage(png({ width: side + 1, height: side + 1, idat: tinyIdat }))).toMatchObject({
      problem: 'too_large',
    });
    expect(inspectImage(jpeg({ width: maxImageSide, height: 1 })).ok).toBe(true);
    expect(inspectImage(jpeg({ width: maxImageSide + 1, height: 1 }))).toMatchObject({
      problem: 'too_large',
    });
  });
});
