import { afterEach, describe, expect, it } from 'vitest';
import { envNames } from '../core/config.ts';
import { publicBaseUrl } from './base-url.ts';

const before = process.env[envNames.publicBaseUrl];
afterEach(() => {
  if (before === undefined) delete process.env[envNames.publicBaseUrl];
  else process.env[envNames.publicBaseUrl] = before;
});

const baseUrlOf = (value: string) => {
  process.env[envNames.publicBaseUrl] = value;
  return publicBaseUrl();
};

describe('the public base URL (PUBLIC_BASE_URL)', () => {
  it.each([
    ['https://pay.example.com', 'https://pay.example.com'],
    ['https://pay.example.com/cobro/', 'https://pay.example.com/cobro'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    [
      'https://abc.execute-api.eu-west-1.amazonaws.com/dev',
      'https://abc.execute-api.eu-west-1.amazonaws.com/dev',
    ],
  ])('takes %s as %s: origin and path, no trailing slash', (value, expected) => {
    expect(baseUrlOf(value)).toBe(expected);
  });

  it.each([
    'ftp://pay.example.com',
    'javascript:alert(1)',
    'pay.example.com',
    'https://user:pw@pay.example.com',
    'https://pay.example.com/?stage=dev',
    'https://pay.example.com/#top',
  ])('refuses %s: configuration, never a request, says where cobro is', (value) => {
    expect(() => baseUrlOf(value)).toThrow(`${envNames.publicBaseUrl} must be an absolute http(s) URL`);
  });

  it('refuses to start without it', () => {
    delete process.env[envNames.publicBaseUrl];
    expect(() => publicBaseUrl()).toThrow(`${envNames.publicBaseUrl} is not set`);
  });
});
