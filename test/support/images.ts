/**
 * Image files for upload tests, built here byte by byte: PNGs and JPEGs whole to their last byte
 * (every call other bytes), of any declared size, and the hostile ones: an image with HTML after
 * it, a decompression bomb.
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** A PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngOptions {
  width?: number;
  height?: number;
  /** Written in a tEXt chunk, so every call makes other bytes. @default random */
  seed?: string;
  /** Chunks placed between IHDR and IDAT. @default none */
  extra?: Buffer[];
  /** The pixel data's IDAT: @default the zlib stream of all-black rows at 1-bit grey (2 bytes for 1×1 RGB) */
  idat?: Buffer;
}

/**
 * A PNG of `width` × `height` (1×1 RGB by default; larger ones 1-bit grey, all black, so that their
 * true pixel data stays small to build however large the picture).
 */
export function png(options: PngOptions = {}): Buffer {
  const width = options.width ?? 1;
  const height = options.height ?? 1;
  const rgb = width === 1 && height === 1;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = rgb ? 8 : 1; // bit depth
  header[9] = rgb ? 2 : 0; // truecolour, or grey
  const rowBytes = rgb ? 1 + 3 : 1 + Math.ceil(width / 8); // a filter byte, then the row
  const idat = options.idat ?? deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  return Buffer.concat([
    pngSignature,
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from(`seed\0${options.seed ?? randomBytes(8).toString('hex')}`)),
    ...(options.extra ?? []),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG marker segment: 0xFF, the marker, the length (two bytes, counting itself) and the body. */
export function jpegSegment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** Random entropy-coded bytes as a scan carries them: every 0xFF stuffed with 0x00. */
function scanData(size: number): Buffer {
  const out: number[] = [];
  for (const byte of randomBytes(size)) {
    out.push(byte);
    if (byte === 0xff) out.push(0x00);
  }
  return Buffer.from(out);
}

export interface JpegOptions {
  width?: number;
  height?: number;
  /** Frame header marker: 0xC0 baseline, 0xC2 progressive. @default 0xC0 */
  frame?: number;
}

/**
 * A JPEG of `width` × `height` (1×1 by default) whose comment holds every byte value 0–255 and
 * random ones, so byte-exactness shows: SOI, APP0 (JFIF), COM, DQT, SOF, DHT, SOS with stuffed
 * random data, EOI. Its structure is whole; its pixel data is noise (nothing here decodes it).
 */
export function jpeg(options: JpegOptions = {}): Buffer {
  const frame = Buffer.alloc(6 + 3);
  frame[0] = 8; // precision
  frame.writeUInt16BE(options.height ?? 1, 1);
  frame.writeUInt16BE(options.width ?? 1, 3);
  frame[5] = 1; // one component
  frame.set([1, 0x11, 0], 6); // its id, sampling, quantisation table
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(
      0xe0,
      Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0]),
    ),
    jpegSegment(
      0xfe,
      Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]),
    ),
    jpegSegment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    jpegSegment(options.frame ?? 0xc0, frame),
    jpegSegment(0xc4, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(16)])), // a Huffman table
    jpegSegment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    scanData(512),
    Buffer.from([0xff, 0xd0]), // a restart marker inside the scan
    scanData(64),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A page of HTML that runs a script, as a browser would sniff it. */
export const html = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);

/**
 * A real decompression bomb: a valid 20,000 × 20,000 PNG (1-bit grey, all black) of about 50 kB
 * whose pixels decode to 400 megapixels (1.6 GB as a browser holds them).
 */
export const pngBomb = () => png({ width: 20_000, height: 20_000 });
