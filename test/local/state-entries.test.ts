/**
 * What the stack counts as its own in a state folder: everything it or its parts write there, so
 * that a folder holding only those is made owner-only without a warning about foreign files.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStatePrivate } from '../../infra/local/state.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a state folder', () => {
  it("holding only cobro's entries (rehearsal logs and webhooks listen's file included) is cobro's", () => {
    dir = mkdtempSync(join(tmpdir(), 'cobro-state-'));
    writeFileSync(join(dir, 'local.json'), '{}');
    writeFileSync(join(dir, 'webhooks-listen.json'), '{}', { mode: 0o644 });
    mkdirSync(join(dir, 'rehearsal', 'logs'), { recursive: true });
    writeFileSync(join(dir, 'rehearsal', 'logs', 'Fn.log'), 'line\n', { mode: 0o644 });
    expect(makeStatePrivate(dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'rehearsal', 'logs', 'Fn.log')).mode & 0o777).toBe(0o600);
  });

  it('holding anything else is not, and only its own entries change', () => {
    dir = mkdtempSync(join(tmpdir(), 'cobro-state-'));
    writeFileSync(join(dir, 'notes.txt'), 'mine', { mode: 0o644 });
    writeFileSync(join(dir, 'local.json'), '{}', { mode: 0o644 });
    expect(makeStatePrivate(dir)).toBe(false);
    expect(statSync(join(dir, 'notes.txt')).mode & 0o777).toBe(0o644);
    expect(statSync(join(dir, 'local.json')).mode & 0o777).toBe(0o600);
  });
});
