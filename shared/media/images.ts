/**
 * Images given as a field (a plan's `image`): a Base64 data URI is stored in the media bucket,
 * an http(s) URL is kept as the URL parser writes it (shared/core/web-url.ts). The stored object is
 * named by the SHA-256 of its bytes, so the same picture is stored once and a new picture always gets
 * a new URL. Whatever way an image comes (a data URI, a multipart file), only a whole PNG or JPEG
 * within the pixel limits is stored (structure.ts reads it without decoding it).
 */
import { createHash } from 'node:crypto';
import * as rules from '../core/rules.ts';
import { InvalidInput, type Problem } from '../core/validation.ts';
import { parseWebUrl } from '../core/web-url.ts';
import { mediaRules } from './messages.ts';
import { type ImageType, inspectImage, maxImagePixels, maxImageSide } from './structure.ts';

/** Largest image cobro stores (decoded bytes). */
export const maxImageBytes = 10 * 1024 * 1024;

export type { ImageType };

/** What the OpenAPI document says of every stored image beyond its type and size. */
export const imageRule = `a whole image with nothing before or after it, at most ${maxImagePixels / 1_000_000} megapixels and ${maxImageSide} pixels a side`;

/** What a record keeps of its image: an outside URL, or the name of an object in the media bucket. */
export type StoredImage = { url: string } | { media: string };

export type ImageInput =
  | { kind: 'url'; url: string }
  | { kind: 'data'; bytes: Buffer; type: ImageType; name: string };

const extensions: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };
const formats: Record<ImageType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG' };

/**
 * The type of an image by its whole structure (never by its label), or the Problem for `field`:
 * not a PNG or JPEG (or not the `declared` one), not whole and well formed, or over the pixel limits
 * (media/structure.ts).
 */
export function checkImage(bytes: Uint8Array, field: string, declared?: ImageType): ImageType | Problem {
  const inspected = inspectImage(bytes);
  if (!inspected.ok && inspected.problem === 'unknown_type') return { field, rule: mediaRules.image_content };
  if (declared && inspected.type !== declared) return { field, rule: mediaRules.image_content };
  if (inspected.ok) return inspected.type;
  if (inspected.problem === 'malformed') {
    return {
      field,
      rule: mediaRules.image_malformed,
      params: { format: formats[inspected.type], detail: inspected.detail },
    };
  }
  return {
    field,
    rule: mediaRules.image_dimensions,
    params: {
      width: String(inspected.width),
      height: String(inspected.height),
      megapixels: String(maxImagePixels / 1_000_000),
      side: String(maxImageSide),
    },
  };
}

/** The content type of a stored object name, or undefined when the name is not one cobro makes. */
export function typeOfMediaName(name: string): ImageType | undefined {
  const match = /^[0-9a-f]{64}\.(png|jpg)$/.exec(name);
  if (!match) return undefined;
  return match[1] === 'png' ? 'image/png' : 'image/jpeg';
}

const dataUri = /^data:(image\/(?:png|jpeg|jpg));base64,([A-Za-z0-9+/\s]*={0,2}\s*)$/i;

/** Reads an image field; a Problem (for the field named `field`) when it is neither form. */
export function parseImageInput(value: string, field: string): ImageInput | Problem {
  const trimmed = value.trim();
  if (/^data:/i.test(trimmed)) {
    const match = dataUri.exec(trimmed);
    if (!match) return { field, rule: mediaRules.image };
    const declared: ImageType =
      (match[1] as string).toLowerCase() === 'image/png' ? 'image/png' : 'image/jpeg';
    const base64 = (match[2] as string).replace(/\s+/g, '');
    // Checked before decoding: 4 base64 characters carry 3 bytes.
    if (Math.floor((base64.length * 3) / 4) - 2 > maxImageBytes)
      return { field, rule: mediaRules.image_too_large };
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length > maxImageBytes) return { field, rule: mediaRules.image_too_large };
    const checked = checkImage(bytes, field, declared);
    if (typeof checked !== 'string') return checked;
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${extensions[declared]}`;
    return { kind: 'data', bytes, type: declared, name };
  }
  const parsed = parseWebUrl(trimmed);
  if ('problem' in parsed) return { field, rule: mediaRules.image };
  return { kind: 'url', url: parsed.url.href };
}

/** The URL a client loads a stored image from, under the API's own origin. */
export function imageUrl(image: StoredImage, baseUrl: string): string {
  return 'url' in image ? image.url : `${baseUrl}/media/${image.media}`;
}

/** An image field read for storing, or an InvalidInput (400) naming the field. */
export function imageField(value: string, field: string): ImageInput {
  const parsed = parseImageInput(value, field);
  if ('rule' in parsed) throw new InvalidInput([parsed]);
  return parsed;
}

/** What a record keeps of an image input. */
export function storedImageOf(input: ImageInput): StoredImage {
  return input.kind === 'url' ? { url: input.url } : { media: input.name };
}

/**
 * A file uploaded in a multipart form (`{ bytes }`), as an image to store: a whole JPEG or PNG by its
 * content, within the pixel limits, at most `limit.bytes`; an InvalidInput (400) naming `field`
 * otherwise.
 */
export function uploadedImage(
  value: unknown,
  field: string,
  limit: { bytes: number; label: string },
): Extract<ImageInput, { kind: 'data' }> {
  if (!value || typeof value !== 'object' || !('bytes' in value) || !Buffer.isBuffer(value.bytes)) {
    throw new InvalidInput([
      { field, rule: value === undefined ? rules.required : mediaRules.file_required },
    ]);
  }
  const bytes = value.bytes as Buffer;
  if (bytes.length > limit.bytes) {
    throw new InvalidInput([{ field, rule: mediaRules.file_too_large, params: { limit: limit.label } }]);
  }
  const type = checkImage(bytes, field);
  if (typeof type !== 'string') throw new InvalidInput([type]);
  return {
    kind: 'data',
    bytes,
    type,
    name: `${createHash('sha256').update(bytes).digest('hex')}.${extensions[type]}`,
  };
}
