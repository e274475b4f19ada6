/** Image files for upload tests: real PNG structure, and JPEG-signed bytes. */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** A 1×1 PNG with `seed` in a text chunk: every call other bytes. */
export function png(seed = randomBytes(8).toString('hex')): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from(`seed\0${seed}`)),
    chunk('IDAT', deflateSync(Buffer.from([0, 0, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG-signed file holding every byte value 0–255 (and random ones): byte-exactness shows. */
export const jpeg = () =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    randomBytes(4096),
    Buffer.from([0xff, 0xd9]),
  ]);
