/**
 * TOTP codes made here, independently of the otpauth package cobro uses: RFC 6238 over RFC 4226's
 * HOTP with HMAC-SHA1 from node:crypto and a base32 decoder of our own, so a test that signs in with
 * these codes checks cobro's second factor against the standard, not against itself.
 */
import { createHmac } from 'node:crypto';

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding needed) to bytes. */
export function base32Bytes(text: string): Buffer {
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = base32Alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let at = 0; at + 8 <= bits.length; at += 8) bytes.push(Number.parseInt(bits.slice(at, at + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP: the `digits`-digit code of `counter` under `key`. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 TOTP with 30-second steps: the code of the step `at` falls in, plus `stepsAhead`. */
export function totpCode(base32Secret: string, at = new Date(), stepsAhead = 0): string {
  const step = Math.floor(at.getTime() / 1000 / 30) + stepsAhead;
  return hotp(base32Bytes(base32Secret), step);
}
