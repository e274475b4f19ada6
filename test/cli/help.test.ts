/**
 * The command line itself, as a newcomer meets it: each command's own help, one-line usage errors
 * that point to the right help, and the nearest command or option for a typo.
 */
import { describe, expect, it } from 'vitest';
import { cli, expectCliRefusal } from '../support/cli.ts';

/** Asserts the CLI run with `args` exits 2 with exactly one line on stderr, matching `line`. */
async function expectOneLine(args: string[], line: RegExp) {
  await expectCliRefusal(args, 2, /^cobro: [^\n]+\n$/);
  await expectCliRefusal(args, 2, line);
}

describe('help', () => {
  it('--help alone lists every command, one line each, and says how to get a command help', async () => {
    const { stdout } = await cli('--help');
    for (const command of ['accounts create', 'accounts rotate-client-secret', 'billing run', 'reconcile'])
      expect(stdout).toContain(`  ${command}`);
    expect(stdout).toContain('npm run -s cli -- <command> --help');
    // One line per command: the descriptions are in the commands' own help.
    expect(stdout).not.toContain('runs every recurring-billing step');
  });

  it('a command has its own help, and a group lists its subcommands', async () => {
    const billing = await cli('billing', 'run', '--help');
    expect(billing.stdout).toMatch(/^usage: npm run -s cli -- billing run \[--now ISO8601\]/);
    expect(billing.stdout).toContain('runs every recurring-billing step');
    expect(billing.stdout).not.toContain('accounts create');

    const reconcile = await cli('reconcile', '-h');
    expect(reconcile.stdout).toMatch(/^usage: npm run -s cli -- reconcile /);
    expect(reconcile.stdout).not.toContain('billing run');

    const accounts = await cli('accounts', '--help');
    for (const sub of ['accounts create', 'accounts update', 'accounts rotate-client-secret'])
      expect(accounts.stdout).toContain(sub);
    expect(accounts.stdout).not.toContain('billing run');
  });
});

describe('usage errors', () => {
  it('no command: one line pointing to the help', async () => {
    await expectOneLine([], /^cobro: no command given; see: npm run -s cli -- --help$/m);
  });

  it('an unknown command or subcommand names the nearest one', async () => {
    await expectOneLine(
      ['acounts', 'create'],
      /^cobro: unknown command "acounts"; did you mean "accounts"\? see: npm run -s cli -- --help$/m,
    );
    await expectOneLine(
      ['accounts', 'creat', '--name', 'X'],
      /^cobro: unknown command "accounts creat"; did you mean "accounts create"\? see: npm run -s cli -- accounts --help$/m,
    );
    await expectOneLine(['biling', 'run'], /did you mean "billing"\?/);
    // Nothing near: no guess, still the pointer to the help.
    await expectOneLine(
      ['frobnicate'],
      /^cobro: unknown command "frobnicate"; see: npm run -s cli -- --help$/m,
    );
  });

  it('a group without its subcommand names them', async () => {
    await expectOneLine(
      ['accounts'],
      /^cobro: "accounts" needs a subcommand: create, update, rotate-client-secret, connect; see: npm run -s cli -- accounts --help$/m,
    );
  });

  it("a command's own mistakes point to its help; an unknown option names the nearest", async () => {
    await expectOneLine(
      ['accounts', 'create', '--name', 'No Mail'],
      /^cobro: --email: email is required; see: npm run -s cli -- accounts create --help$/m,
    );
    await expectOneLine(
      ['billing', 'run', '--nw', '2027-01-01T00:00:00Z'],
      /^cobro: unknown option --nw; did you mean "--now"\? see: npm run -s cli -- billing run --help$/m,
    );
    await expectOneLine(
      ['payouts', 'run', '--now', 'yesterday'],
      /^cobro: --now: not an ISO 8601 time: yesterday; see: npm run -s cli -- payouts run --help$/m,
    );
  });
});
