/**
 * Request bodies as handlers see them: JSON with exact numbers, `application/x-www-form-urlencoded`
 * with bracketed keys for nested values and `multipart/form-data`, each bounded in size and depth. Pure
 * functions; the middleware in ./middlewares.ts picks one by Content-Type.
 */
import { parse as parseQuery } from 'picoquery';
import { maxBodyBytes } from '../core/limits.ts';
import { InvalidBody, PayloadTooLarge, UnreadableBody } from './errors.ts';
import { httpMessages } from './messages.ts';

// `customers[0][email]=…` nests, `x[]=1&x[]=2` is an array, as form-posting client libraries send them.
const formSyntax = {
  nesting: true,
  nestingSyntax: 'index',
  arrayRepeat: true,
  arrayRepeatSyntax: 'bracket',
} as const;

/** The deepest nesting a body may have: far beyond any real request, far short of a stack overflow. */
export const maxNesting = 32;

const tooDeep = () => new UnreadableBody(httpMessages.body_too_deep, { limit: String(maxNesting) });

/** Whether JSON text nests deeper than `max` (brackets inside strings do not count). */
function jsonNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether a form key (`a[b][c]=…`) nests deeper than `max`. */
function formNestsDeeper(text: string, max: number): boolean {
  for (const field of text.split('&')) {
    const key = field.split('=', 1)[0] ?? '';
    let depth = 0;
    for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 0x5b && ++depth > max) return true;
  }
  return false;
}

/** Whether a body reads as JSON whatever its label (an object or an array). */
export const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

/**
 * A form body. An index such as `a[99999999]=x` would make a 28-byte body an array of a hundred
 * million slots, so no array may be longer than the body has fields.
 */
export function parseForm(text: string): Record<string, unknown> {
  // Clients percent-encode the brackets (`items%5B0%5D=…`, as URLSearchParams does); they nest all the same.
  const bracketed = text.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  // The parser recurses once per level: thousands of levels would overflow its stack.
  if (formNestsDeeper(bracketed, maxNesting)) throw tooDeep();
  const parsed = parseQuery(bracketed, formSyntax) as Record<string, unknown>;
  const fields = text.split('&').length;
  const check = (value: unknown): void => {
    if (Array.isArray(value)) {
      if (value.length > fields)
        throw new InvalidBody('An array index in the form is larger than its number of fields.');
      for (const item of value) check(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) check(item);
    }
  };
  check(parsed);
  return parsed;
}

/**
 * The body as text: decoded from base64 when API Gateway encoded it; 413 above `maxBytes` (the
 * Lambda request limit unless the route takes less). The limit is checked on the raw size first,
 * so an oversize body is refused before it is decoded.
 */
export function bodyText(raw: string | null, isBase64Encoded: boolean, maxBytes = maxBodyBytes): string {
  if (raw === null || raw === '') return '';
  // base64 carries 3 bytes in 4 characters; a UTF-8 string at least one byte per character.
  const leastBytes = isBase64Encoded ? Math.floor((raw.length * 3) / 4) - 2 : raw.length;
  if (leastBytes > maxBytes) throw new PayloadTooLarge(maxBytes);
  const text = isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text) > maxBytes) throw new PayloadTooLarge(maxBytes);
  return text;
}

/**
 * Floats never touch money: a JSON number that is not a plain safe integer reaches handlers
 * as its exact source text (`10.50` arrives as "10.50"), so amounts are parsed from their digits.
 */
function exactNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return Number.isSafeInteger(value) && /^-?\d+$/.test(context.source) ? value : context.source;
}

function parseJson(text: string): unknown {
  // Parsing, validation and fingerprints recurse once per level: bound the depth before any of them.
  if (jsonNestsDeeper(text, maxNesting)) throw tooDeep();
  try {
    return JSON.parse(text, exactNumbers);
  } catch {
    throw new UnreadableBody(httpMessages.malformed_json);
  }
}

/**
 * JSON and `application/x-www-form-urlencoded` bodies (bracketed keys nest). A form-labelled
 * body that is really JSON is read as JSON, as older clients send it that way.
 */
export function parseBody(
  raw: string | null,
  isBase64Encoded: boolean,
  contentType: string | undefined,
  maxBytes = maxBodyBytes,
): unknown {
  const text = bodyText(raw, isBase64Encoded, maxBytes);
  if (text === '') return undefined;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(text);
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    if (looksLikeJson(text)) return parseJson(text);
    return parseForm(text);
  }
  return text;
}

/** A file field of a multipart body. */
export interface UploadedFile {
  filename: string;
  type: string;
  bytes: Buffer;
}

/**
 * A `multipart/form-data` body as fields (text, or UploadedFile for files), parsed by the
 * platform's own Fetch implementation; a repeated field becomes an array.
 */
export async function parseMultipart(
  raw: string | null,
  isBase64Encoded: boolean,
  contentType: string,
  maxBytes = maxBodyBytes,
): Promise<Record<string, unknown>> {
  const bytes = raw ? Buffer.from(raw, isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (bytes.length > maxBytes) throw new PayloadTooLarge(maxBytes);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new UnreadableBody(httpMessages.malformed_form);
  }
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    const parsed: unknown =
      typeof value === 'string'
        ? value
        : ({
            filename: value.name,
            type: value.type,
            bytes: Buffer.from(await value.arrayBuffer()),
          } satisfies UploadedFile);
    const previous = fields[name];
    fields[name] = previous === undefined ? parsed : [previous, parsed].flat();
  }
  return fields;
}
