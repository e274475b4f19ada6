import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import type { Scope } from '../core/account.ts';
import { NotFound } from '../core/errors.ts';
import { makeDeps } from '../db/deps.ts';
import { actOnce, isFormKey, newFormKey } from './form-once.ts';
import { dashboardKeys } from './keys.ts';
import type { SessionKeys } from './session.ts';

describe('a dashboard form acting once, against the local table', () => {
  useLocalEnvironment();
  const base = makeDeps();
  let now = new Date('2026-11-26T12:00:00.000Z');
  const deps = { ...base, clock: () => now };
  const keys: SessionKeys = { sign: async () => 'k'.repeat(32), lookup: async () => ['k'.repeat(32)] };
  const scope = (): Scope => ({ developerId: 800_000 + Math.floor(Math.random() * 99_999), mode: 'test' });
  const counted = <T>(value: T) => {
    let runs = 0;
    return {
      act: async () => {
        runs += 1;
        return value;
      },
      runs: () => runs,
    };
  };

  it('makes keys that it accepts, and refuses others', () => {
    expect(isFormKey(newFormKey())).toBe(true);
    expect(isFormKey('short')).toBe(false);
    expect(isFormKey(`${'a'.repeat(31)}-`)).toBe(false);
  });

  it('acts once for two racing submits; a later submit gets what the first kept, not all it made', async () => {
    const account = scope();
    const form = { key: newFormKey(), purpose: 'create-endpoint' };
    const made = counted({ id: 'we_1', secret: 'whsec_shown_once' });
    const keep = (value: { id: string }) => ({ id: value.id });
    const both = await Promise.all([
      actOnce(deps, keys, account, form, made.act, keep),
      actOnce(deps, keys, account, form, made.act, keep),
    ]);
    expect(made.runs()).toBe(1);
    expect(both.filter((once) => once.kind === 'first')).toEqual([
      { kind: 'first', value: { id: 'we_1', secret: 'whsec_shown_once' } },
    ]);
    // The other found the claim: running still (busy) or done (what was kept).
    expect(['busy', 'again']).toContain(both.find((once) => once.kind !== 'first')?.kind);
    expect(await actOnce(deps, keys, account, form, made.act, keep)).toEqual({
      kind: 'again',
      kept: { id: 'we_1' },
    });
    expect(made.runs()).toBe(1);
    // What is kept is sealed: the table holds neither the secret nor the id in clear.
    const { Item } = await base.db.send(
      new GetCommand({
        TableName: base.table,
        Key: dashboardKeys.form(account.developerId, account.mode, form.key),
      }),
    );
    expect(JSON.stringify(Item)).not.toContain('whsec_');
    expect(JSON.stringify(Item)).not.toContain('we_1');
  });

  it('acts on nothing when the key is posted for another purpose, or is another account’s', async () => {
    const account = scope();
    const key = newFormKey();
    const made = counted('link_1');
    await actOnce(deps, keys, account, { key, purpose: 'portal:cus_1' }, made.act);
    expect(await actOnce(deps, keys, account, { key, purpose: 'portal:cus_2' }, made.act)).toEqual({
      kind: 'busy',
    });
    expect(made.runs()).toBe(1);
    // The same key in another account or mode is another form.
    expect((await actOnce(deps, keys, scope(), { key, purpose: 'portal:cus_1' }, made.act)).kind).toBe(
      'first',
    );
    expect(
      (await actOnce(deps, keys, { ...account, mode: 'live' }, { key, purpose: 'portal:cus_1' }, made.act))
        .kind,
    ).toBe('first');
    expect(made.runs()).toBe(3);
  });

  it('frees the key after a refusal of the domain; any other failure holds it until the claim lapses', async () => {
    const account = scope();
    const form = { key: newFormKey(), purpose: 'create:plans' };
    const refused = () => Promise.reject(new NotFound());
    await expect(actOnce(deps, keys, account, form, refused)).rejects.toBeInstanceOf(NotFound);
    expect(await actOnce(deps, keys, account, form, async () => 'plan_1')).toEqual({
      kind: 'first',
      value: 'plan_1',
    });

    const other = { key: newFormKey(), purpose: 'create:plans' };
    const crashed = () => Promise.reject(new Error('the function timed out'));
    await expect(actOnce(deps, keys, account, other, crashed)).rejects.toThrow('timed out');
    const made = counted('plan_2');
    expect(await actOnce(deps, keys, account, other, made.act)).toEqual({ kind: 'busy' });
    expect(made.runs()).toBe(0);
    now = new Date(now.getTime() + 61_000);
    expect(await actOnce(deps, keys, account, other, made.act)).toEqual({ kind: 'first', value: 'plan_2' });
  });

  it('opens what it kept after the fingerprint secret rotated', async () => {
    const account = scope();
    const form = { key: newFormKey(), purpose: 'redeliver:we_1:evt_1' };
    await actOnce(deps, keys, account, form, async () => 3);
    const rotated: SessionKeys = {
      sign: async () => 'n'.repeat(32),
      lookup: async () => ['n'.repeat(32), 'k'.repeat(32)],
    };
    expect(await actOnce(deps, rotated, account, form, async () => 4)).toEqual({ kind: 'again', kept: 3 });
  });
});
