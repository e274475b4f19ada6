/**
 * The README's quick start, run as a newcomer runs it: its one shell block, taken from README.md as
 * it stands, pasted into bash beside a fresh `npm start`, and again. So the block cannot drift from
 * what cobro does: every line must still work, and its output show the payment made, the
 * subscription active and the signed webhook received.
 */
import { describe, expect, it } from 'vitest';
import { stackHarness } from './harness.ts';
import { runBash, shellBlockUnder } from './shell-blocks.ts';

const { running } = stackHarness();

/** The first ```sh block of the README's section `heading` (`## Quick start`). */
const readmeBlock = (heading: string) => shellBlockUnder('README.md', heading);

const quickStartBlock = () => readmeBlock('## Quick start');

describe('the README quick start', () => {
  it('runs as written on a fresh npm start, and again: paid through the checkout and its 3-D Secure challenge, active, webhook received', {
    timeout: 600_000,
  }, async () => {
    const block = quickStartBlock();
    const { stateDir, info } = await running(['--in-memory']);
    const subscriptions: string[] = [];
    for (const run of ['first', 'second']) {
      const { code, stdout, stderr, leftOver } = await runBash(block, stateDir);
      const shown = `${run} run, stdout:\n${stdout}\nstderr:\n${stderr}`;
      expect(code, shown).toBe(0);
      expect(stderr, shown).toBe('');
      // The card asked for 3-D Secure; passing the challenge paid, sending the payer back.
      expect(stdout, shown).toContain('Complete authentication');
      expect(stdout, shown).toMatch(/^HTTP\/1\.1 303 See Other\r?$/m);
      const location = /^Location: http:\/\/localhost:8080\/welcome\?subscription_id=(sub_\w+)\r?$/m.exec(
        stdout,
      );
      expect(location, shown).not.toBeNull();
      subscriptions.push(location?.[1] as string);
      expect(stdout, shown).toMatch(/^"status":"active"$/m);
      // The webhook came to the receiver, signed, and the receiver stopped by itself.
      expect(stdout, shown).toMatch(
        /^\S+ {2}subscription\.activated {2}evt_\w+ {2}\[200\] {2}signature ok$/m,
      );
      expect(stdout, shown).toMatch(/^Disabled endpoint we_\w+ /m);
      expect(leftOver, `${shown}\nsomething it started was still running`).toBe(false);
    }
    expect(new Set(subscriptions).size).toBe(2);

    // What the output said is what the stack holds: each subscription active, its charge made.
    const auth = `Api-Key ${info.demo?.test_key}`;
    for (const id of subscriptions) {
      const view = await fetch(`${info.api_url}/v1/subscriptions/${id}`, {
        headers: { Authorization: auth },
      });
      expect(view.status).toBe(200);
      expect(await view.json()).toMatchObject({ subscription_id: id, status: 'active' });
    }
    const charges = await fetch(`${info.api_url}/v1/payments/`, { headers: { Authorization: auth } });
    const paid = ((await charges.json()) as { subscription_id: string | null; amount: number }[]).filter(
      (charge) => charge.subscription_id !== null && subscriptions.includes(charge.subscription_id),
    );
    expect(paid.map((charge) => charge.amount)).toEqual([9.9, 9.9]);
  });
});

describe('the README\'s live payment through the Stripe stand-in ("Going live")', () => {
  it("runs as written on a fresh npm start: connected, a page with no card field, Stripe's page, paid", {
    timeout: 300_000,
  }, async () => {
    const block = readmeBlock('### Trying it locally, with Stripe stood in');
    const { stateDir } = await running(['--in-memory']);
    const { code, stdout, stderr, leftOver } = await runBash(block, stateDir);
    const shown = `stdout:\n${stdout}\nstderr:\n${stderr}`;
    expect(code, shown).toBe(0);
    expect(stderr, shown).toBe('');
    expect(stdout, shown).toMatch(
      /^account 1 live mode: connected to Stripe account acct_\w+ \(Demo Merchant\), key sk_live_…\w{4}$/m,
    );
    expect(stdout, shown).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_live_\w+$/m);
    expect(stdout, shown).toMatch(/^HTTP\/1\.1 303 See Other\r?$/m);
    expect(stdout, shown).toMatch(/^Location: https:\/\/shop\.example\/thanks\?id_payment=pay_\w+\r?$/m);
    expect(stdout, shown).toMatch(/^"status":"completed"$/m);
    expect(leftOver).toBe(false);
  });
});
