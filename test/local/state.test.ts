/**
 * The persistent stack's secrets live in persistent.json, which an in-memory run never touches; the
 * banner never offers a rotated (dead) key; sent mail survives a restart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { stopCobro } from '../support/global-setup.ts';
import { readInfo, stackHarness } from './harness.ts';

const { running, startIn, tempDir } = stackHarness();

const persistent = (stateDir: string) => readFileSync(join(stateDir, 'persistent.json'), 'utf8');

/** The try: lines of the banner. */
const tryLines = (output: string) => output.split('\n').filter((line) => /curl -u /.test(line));

interface SentMail {
  subject: string;
  destination: { to: string[] };
}

async function sentMail(sesEndpoint: string): Promise<SentMail[]> {
  const store = (await (await fetch(`${sesEndpoint}/store`)).json()) as { emails: SentMail[] };
  return store.emails;
}

describe('local state', () => {
  it('an in-memory run leaves the persistent stack and its keys as they were', {
    timeout: 240_000,
  }, async () => {
    const stateDir = tempDir();
    const first = startIn(stateDir);
    await first.ready;
    const kept = persistent(stateDir);
    const demo = readInfo(stateDir).demo;
    expect(demo?.test_key).toMatch(/^sk_test_/);
    expect(JSON.parse(kept).demo).toEqual(demo);
    expect(await stopCobro(first.child)).toBe(0);

    const throwaway = startIn(stateDir, ['--in-memory']);
    await throwaway.ready;
    const inMemory = readInfo(stateDir);
    expect(inMemory.in_memory).toBe(true);
    expect(inMemory.pid).toBe(throwaway.child.pid);
    expect(inMemory.demo?.test_key).not.toBe(demo?.test_key);
    expect(inMemory.aws_credentials).not.toEqual(JSON.parse(kept).aws_credentials);
    expect(await stopCobro(throwaway.child)).toBe(0);
    expect(persistent(stateDir)).toBe(kept);

    const again = startIn(stateDir);
    const url = await again.ready;
    expect(again.output()).toContain(`test key       ${demo?.test_key}`);
    expect(again.output()).not.toContain('created now');
    expect(readInfo(stateDir).in_memory).toBe(false);
    const keys = await fetch(`${url}/v1/auth/api-keys/`, {
      headers: { Authorization: `Api-Key ${demo?.test_key}` },
    });
    expect(keys.status).toBe(200);
  });

  it('after a rotation the banner offers no dead key, and the mail it sent is still listed', {
    timeout: 240_000,
  }, async () => {
    const { stateDir, started: first, url, info } = await running();
    const demo = info.demo;
    if (!demo) throw new Error('no demo account recorded');
    expect(tryLines(first.output()).join('\n')).toContain(demo.test_key);

    const rotated = await fetch(`${url}/v1/auth/api-keys/`, {
      method: 'PATCH',
      headers: { Authorization: `Api-Key ${demo.live_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'test' }),
    });
    expect(rotated.status).toBe(200);
    const subject = 'Your cobro test API key was rotated';
    await eventually(
      'the rotation e-mail',
      async () =>
        (await sentMail(info.endpoints.ses)).some((mail) => mail.subject === subject) ? true : undefined,
      30_000,
    );
    expect(await stopCobro(first.child)).toBe(0);

    const second = startIn(stateDir);
    await second.ready;
    const lines = tryLines(second.output());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(demo.test_key);
      expect(line).toContain('<your test key>');
    }
    expect(second.output()).toContain(
      "put the key its rotation showed (the API's answer, or the dashboard's API keys page) in place of <your test key>",
    );

    const mail = await sentMail(readInfo(stateDir).endpoints.ses);
    expect(mail.filter((m) => m.subject === subject)).toEqual([
      expect.objectContaining({ subject, destination: expect.objectContaining({ to: [demo.email] }) }),
    ]);
  });
});
