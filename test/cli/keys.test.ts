/**
 * `cobro keys`: the local stack's demo credentials for scripts (`KEY=$(npm run -s cli -- keys)`);
 * a key rotated since the stack recorded it, or no stack, is one line on stderr and exit 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports.ts';
import { cli, cliAt, expectCliRefusal } from '../support/cli.ts';
import { api, apiKey, apiUrl, basic, localInfo, newAccount } from '../support/stack.ts';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A state folder whose local.json describes the test stack, as `info` changes it. */
function stateFolder(info: object): string {
  const folder = mkdtempSync(join(tmpdir(), 'cobro-keys-'));
  folders.push(folder);
  writeFileSync(join(folder, 'local.json'), JSON.stringify(info), { mode: 0o600 });
  return folder;
}

const demo = () => {
  if (!localInfo.demo) throw new Error('the test stack wrote no demo account');
  return localInfo.demo;
};

describe('keys', () => {
  it("prints the demo account's test key alone on stdout, and the key works", async () => {
    const { stdout, stderr } = await cli('keys');
    expect(stdout).toBe(`${demo().test_key}\n`);
    expect(stderr).toBe('');
    const listed = await api('GET', '/v1/auth/api-keys/', { auth: basic(stdout.trim()) });
    expect(listed.status, listed.text).toBe(200);
  });

  it('--live prints the live key; --json every demo credential and the API URL', async () => {
    expect((await cli('keys', '--live')).stdout).toBe(`${demo().live_key}\n`);
    const credentials = JSON.parse((await cli('keys', '--json')).stdout);
    const { developer_id, email, test_key, live_key, client_id, client_secret } = demo();
    expect(credentials).toEqual({
      developer_id,
      email,
      test_key,
      live_key,
      client_id,
      client_secret,
      api_url: apiUrl,
      rotated: [],
    });
    const token = await api('POST', '/authentication/token/', {
      body: { grant_type: 'client_credentials', client_id, client_secret },
    });
    expect(token.status, token.text).toBe(200);
  });

  it('a demo key rotated since the stack recorded it: one line saying so and what to do, exit 1; --json shows it null', async () => {
    // A stack whose recorded demo account is this fresh one, whose test key is then rotated.
    const account = await newAccount('keys-rotated');
    const recorded = {
      developer_id: account.developerId,
      name: 'Test keys-rotated',
      email: account.email,
      test_key: account.testKey,
      live_key: account.liveKey,
      client_id: account.clientId,
      client_secret: account.clientSecret,
    };
    const folder = stateFolder({ ...localInfo, demo: recorded });
    expect((await cliAt(folder, 'keys')).stdout).toBe(`${account.testKey}\n`);
    const rotated = await api('PATCH', '/v1/auth/api-keys/', {
      auth: apiKey(account.liveKey),
      body: { type: 'test' },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const line =
      /^cobro: the demo account's test key was rotated since the stack recorded it[^\n]*API keys page shows it once\)\n$/;
    await expectCliRefusal(['keys'], 1, line, folder);
    await expect(cliAt(folder, 'keys')).rejects.toMatchObject({ stdout: '' });
    // --json keeps what still works (the live key, the client credentials, the URL): the rotated key is null.
    expect(JSON.parse((await cliAt(folder, 'keys', '--json')).stdout)).toMatchObject({
      test_key: null,
      live_key: account.liveKey,
      client_id: account.clientId,
      api_url: apiUrl,
      rotated: ['test'],
    });
    // The live key was not rotated: it is still shown.
    expect((await cliAt(folder, 'keys', '--live')).stdout).toBe(`${account.liveKey}\n`);
  });

  it('no stack running: one line saying to run npm start, exit 1', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cobro-keys-'));
    folders.push(empty);
    await expectCliRefusal(['keys'], 1, /^cobro: no local stack found [^\n]*run npm start first\n$/, empty);
    // A local.json left by a stack that is gone: nothing answers at its URL (a port just free).
    const port = await freePort(0);
    const gone = stateFolder({
      ...localInfo,
      api_url: `http://127.0.0.1:${port}`,
      health_url: `http://127.0.0.1:${port}/health`,
    });
    await expectCliRefusal(
      ['keys'],
      1,
      /^cobro: no local stack answers at [^\n]*start it with npm start\n$/,
      gone,
    );
  });

  it('has its own help, is listed in the global help, and refuses --live with --json', async () => {
    const help = await cli('keys', '--help');
    expect(help.stdout).toMatch(/^usage: npm run -s cli -- keys \[--live \| --json\]/);
    expect(help.stdout).toContain('KEY=$(npm run -s cli -- keys)');
    expect((await cli('--help')).stdout).toContain('  keys [--live | --json]');
    await expectCliRefusal(
      ['keys', '--live', '--json'],
      2,
      /^cobro: --json already shows the live key[^\n]*; see: npm run -s cli -- keys --help\n$/,
    );
    await expectCliRefusal(['keys', '--jsn'], 2, /did you mean "--json"\?/);
  });
});
