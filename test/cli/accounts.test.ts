/** `cobro accounts create` against the running test stack, then its credentials through the API. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot, readLocalInfo, writeLocalInfo } from '../../infra/local/stack.ts';
import { api, apiKey, stateDir } from '../support/stack.ts';

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, [join(projectRoot, 'bin/cli.ts'), ...args, '--state-dir', stateDir], {
    cwd: projectRoot,
    env: { ...process.env, TABLE_NAME: '' },
  });

describe('accounts create', () => {
  const email = `cli-${process.pid}-${Date.now()}@example.com`;

  it('prints one JSON object whose credentials work', async () => {
    const { stdout } = await cli('accounts', 'create', '--name', 'CLI Shop', '--email', email, '--json');
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(
      ['client_id', 'client_secret', 'developer_id', 'email', 'live_key', 'name', 'test_key'].sort(),
    );
    expect(Number.isInteger(created.developer_id)).toBe(true);
    expect(created).toMatchObject({ name: 'CLI Shop', email });
    const keys = await api('GET', '/v1/auth/api-keys/', { auth: apiKey(created.live_key) });
    expect(keys.status).toBe(200);
    const token = await api('POST', '/authentication/token/', {
      body: {
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
      },
    });
    expect(token.status).toBe(200);
  });

  it('refuses an e-mail already taken, and bad input, with a message and a non-zero exit', async () => {
    await expect(
      cli('accounts', 'create', '--name', 'Again', '--email', email.toUpperCase()),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already exists'),
    });
    await expect(cli('accounts', 'create', '--name', 'X', '--email', 'not-an-email')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not a valid e-mail'),
    });
    await expect(cli('accounts', 'create', '--email', 'a@b.co')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('name is required'),
    });
  });

  it('refuses to write when the stack local.json describes is not running', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'cobro-stale-'));
    try {
      const info = readLocalInfo(stateDir);
      writeLocalInfo(stale, {
        ...info,
        api_url: 'http://127.0.0.1:9',
        health_url: 'http://127.0.0.1:9/health',
      });
      const run = promisify(execFile)(
        process.execPath,
        [
          join(projectRoot, 'bin/cli.ts'),
          'accounts',
          'create',
          '--name',
          'X',
          '--email',
          'stale@example.com',
          '--state-dir',
          stale,
        ],
        { cwd: projectRoot, env: { ...process.env, TABLE_NAME: '' } },
      );
      await expect(run).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('no local stack answers'),
      });
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });
});
