import { describe, expect, it } from 'vitest';
import { isHostName } from './host-name.ts';

const hostOf = (url: string) => new URL(url).hostname;

describe('isHostName', () => {
  it.each([
    'https://shop.example.com/',
    'https://localhost:3000/',
    'https://EXAMPLE.com./',
    'https://münchen.example/',
    'http://127.0.0.1:8080/',
    'http://0x7f.1/',
    'https://[::1]:8443/',
    'https://a-b.c0.example/',
  ])('takes the host of %s', (url) => {
    expect(isHostName(hostOf(url))).toBe(true);
  });

  it.each([
    'https://evil.com;script-src/',
    "https://evil.com'/",
    'https://a,b.example/',
    'https://a=b.example/',
    'https://*.example.com/',
    'https://shop_1.example.com/',
    'https://-shop.example.com/',
    'https://shop-.example.com/',
    'https://a..b.example/',
    `https://${'a'.repeat(64)}.example/`,
  ])('refuses the host of %s', (url) => {
    expect(isHostName(hostOf(url))).toBe(false);
  });
});
