/**
 * An image's structure, read without decoding a pixel: the file must be one whole PNG or one whole
 * JPEG, well formed from its first byte to its last, and its width and height come from that
 * structure (PNG's IHDR, JPEG's frame header). Nothing is inflated or decoded, so a small file that
 * declares a huge picture (a decompression bomb) costs nothing to refuse, and a file that is an
 * image followed by something else (HTML, a script, an archive) is refused whole.
 *
 * Why not a library: `image-size` and `probe-image-size` read the dimensions from the header and
 * take whatever follows it; decoders (pngjs, jpeg-js) would expand the pixels, the very cost a bomb
 * imposes. Neither checks the container, which is what this does, and it is small.
 */
import { crc32 } from 'node:zlib';

export type ImageType = 'image/png' | 'image/jpeg';

/**
 * The largest picture cobro takes: 40 megapixels, and no side longer than 16,384 pixels. A 48 MP
 * phone photo in full resolution is over the 10 MB file limit anyway; a 20,000 × 20,000 image
 * (400 MP, 1.6 GB once a browser decodes it) is far over.
 */
export const maxImagePixels = 40_000_000;
export const maxImageSide = 16_384;

export type Inspection =
  | { ok: true; type: ImageType; width: number; height: number }
  /** Neither a PNG signature nor a JPEG start of image. */
  | { ok: false; problem: 'unknown_type' }
  /** Starts as `type` but is not a whole, well-formed image of it; `detail` says where it breaks. */
  | { ok: false; problem: 'malformed'; type: ImageType; detail: string }
  /** Well formed, but larger than `maxImagePixels` or `maxImageSide`. */
  | { ok: false; problem: 'too_large'; type: ImageType; width: number; height: number };

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Reads the image's type, structure and dimensions (see the module comment). */
export function inspectImage(bytes: Uint8Array): Inspection {
  if (bytes.length >= pngSignature.length && pngSignature.every((byte, i) => bytes[i] === byte)) {
    return sized('image/png', inspectPng(bytes));
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return sized('image/jpeg', inspectJpeg(bytes));
  }
  return { ok: false, problem: 'unknown_type' };
}

/** Dimensions, or what is wrong with the structure. */
type Walk = { width: number; height: number } | string;

function sized(type: ImageType, walk: Walk): Inspection {
  if (typeof walk === 'string') return { ok: false, problem: 'malformed', type, detail: walk };
  const { width, height } = walk;
  if (width > maxImageSide || height > maxImageSide || width * height > maxImagePixels) {
    return { ok: false, problem: 'too_large', type, width, height };
  }
  return { ok: true, type, width, height };
}

const u32 = (bytes: Uint8Array, at: number) =>
  (((bytes[at] as number) << 24) >>> 0) +
  ((bytes[at + 1] as number) << 16) +
  ((bytes[at + 2] as number) << 8) +
  (bytes[at + 3] as number);
const u16 = (bytes: Uint8Array, at: number) => ((bytes[at] as number) << 8) + (bytes[at + 1] as number);

/** Bit depths each PNG colour type allows (PNG 3rd edition, 11.2.1). */
const pngDepths: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** The critical chunks a PNG may have; any other critical chunk makes it undecodable. */
const pngCritical = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);

/**
 * PNG: the signature, then chunks (length, type, data, CRC) each whole and with its CRC right: IHDR
 * first, a palette where the colour type needs one, consecutive IDATs, and IEND last, with
 * nothing after it.
 */
function inspectPng(bytes: Uint8Array): Walk {
  let at = pngSignature.length;
  let header: { width: number; height: number; colourType: number } | undefined;
  let palette = false;
  let data: 'none' | 'reading' | 'done' = 'none';
  for (;;) {
    if (at + 12 > bytes.length) return header ? 'the file ends before IEND' : 'the file ends before IHDR';
    const length = u32(bytes, at);
    if (length > 0x7fff_ffff) return 'a chunk length is out of range';
    const end = at + 12 + length;
    if (end > bytes.length) return 'a chunk is cut short';
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    // Letters only, and the third one upper case (the reserved bit).
    if (!/^[A-Za-z]{2}[A-Z][A-Za-z]$/.test(type)) return 'a chunk type is not valid';
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== u32(bytes, at + 8 + length)) {
      return `the CRC of a ${type} chunk is wrong`;
    }
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (!header) {
      if (type !== 'IHDR') return 'IHDR is not the first chunk';
      const read = pngHeader(body);
      if (typeof read === 'string') return read;
      header = read;
    } else if (type === 'IHDR') {
      return 'IHDR appears twice';
    } else if (type === 'PLTE') {
      if (palette || data !== 'none') return 'PLTE appears twice or after IDAT';
      if (header.colourType === 0 || header.colourType === 4) return 'a grey image has a PLTE';
      if (length === 0 || length > 768 || length % 3 !== 0) return 'PLTE has a wrong length';
      palette = true;
    } else if (type === 'IDAT') {
      if (data === 'done') return 'IDAT chunks are not consecutive';
      data = 'reading';
    } else if (type === 'IEND') {
      if (length !== 0) return 'IEND carries data';
      if (data === 'none') return 'there is no IDAT chunk';
      if (header.colourType === 3 && !palette) return 'an indexed image has no PLTE';
      if (end !== bytes.length) return 'bytes follow IEND';
      return { width: header.width, height: header.height };
    } else if (!pngCritical.has(type) && type.charCodeAt(0) < 0x61) {
      return `${type} is a critical chunk PNG does not define`;
    }
    if (type !== 'IDAT' && data === 'reading') data = 'done';
    at = end;
  }
}

function pngHeader(body: Uint8Array): { width: number; height: number; colourType: number } | string {
  if (body.length !== 13) return 'IHDR has a wrong length';
  const width = u32(body, 0);
  const height = u32(body, 4);
  const [depth, colourType, compression, filter, interlace] = body.subarray(8);
  if (width === 0 || height === 0 || width > 0x7fff_ffff || height > 0x7fff_ffff) {
    return 'IHDR declares a width or height out of range';
  }
  if (!pngDepths[colourType as number]?.includes(depth as number)) {
    return 'IHDR declares a colour type and bit depth PNG does not have';
  }
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) {
    return 'IHDR declares a compression, filter or interlace method PNG does not have';
  }
  return { width, height, colourType: colourType as number };
}

/** Start-of-frame markers: baseline, extended, progressive and lossless, Huffman or arithmetic. */
const jpegFrames = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const sos = 0xda;
const eoi = 0xd9;

/** Markers with a length-prefixed segment a JPEG may carry besides frames and scans. */
const isJpegSegment = (marker: number) =>
  marker === 0xc4 || // DHT
  marker === 0xcc || // DAC
  marker === 0xdb || // DQT
  marker === 0xdd || // DRI
  (marker >= 0xe0 && marker <= 0xef) || // APPn (JFIF, Exif, ICC …)
  marker === 0xfe; // COM

/**
 * JPEG: SOI, then marker segments each whole, one frame header (SOF) with a width and height,
 * scans (SOS and their entropy-coded data) after it, and EOI last, with nothing after it.
 */
function inspectJpeg(bytes: Uint8Array): Walk {
  let at = 2;
  let frame: { width: number; height: number } | undefined;
  let scans = 0;
  for (;;) {
    if (bytes[at] !== 0xff) return at >= bytes.length ? 'the file ends before EOI' : 'a marker is expected';
    while (bytes[at] === 0xff) at++; // fill bytes may stand before a marker
    if (at >= bytes.length) return 'the file ends before EOI';
    const marker = bytes[at] as number;
    at++;
    if (marker === eoi) {
      if (!frame || scans === 0) return 'EOI comes before a frame and a scan';
      if (at !== bytes.length) return 'bytes follow EOI';
      return frame;
    }
    if (!jpegFrames.has(marker) && marker !== sos && !isJpegSegment(marker)) {
      return `marker 0xFF${marker.toString(16).toUpperCase().padStart(2, '0')} is not expected here`;
    }
    if (at + 2 > bytes.length) return 'a segment is cut short';
    const length = u16(bytes, at);
    if (length < 2 || at + length > bytes.length) return 'a segment is cut short';
    const body = bytes.subarray(at + 2, at + length);
    at += length;
    if (jpegFrames.has(marker)) {
      if (frame) return 'there is more than one frame header (SOF)';
      const components = body[5] ?? 0;
      if (body.length < 6 || components === 0 || body.length !== 6 + 3 * components) {
        return 'the frame header (SOF) has a wrong length';
      }
      const height = u16(body, 1);
      const width = u16(body, 3);
      // A height of 0 defers it to a DNL segment after the first scan: not taken.
      if (width === 0 || height === 0) return 'the frame header (SOF) declares no width or height';
      frame = { width, height };
    } else if (marker === sos) {
      if (!frame) return 'a scan (SOS) comes before the frame header (SOF)';
      const count = body[0] ?? 0;
      if (count === 0 || count > 4 || body.length !== 1 + 2 * count + 3)
        return 'a scan header has a wrong length';
      scans += 1;
      const next = scanEnd(bytes, at);
      if (next === undefined) return 'the scan data ends before EOI';
      at = next;
    }
  }
}

/**
 * Where a scan's entropy-coded data ends: the 0xFF of the next marker. Inside the data an 0xFF is
 * followed by 0x00 (a stuffed byte), a restart marker (0xD0–0xD7) or more 0xFF fill.
 */
function scanEnd(bytes: Uint8Array, from: number): number | undefined {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff === -1 || ff + 1 >= bytes.length) return undefined;
    const next = bytes[ff + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
    else if (next === 0xff) at = ff + 1;
    else return ff;
  }
}
