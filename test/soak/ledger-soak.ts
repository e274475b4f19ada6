/**
 * `npm run soak -- --seconds N`: the ledger soak, a script (not a test). For N seconds it drives a
 * stack of its own with random money operations from a few concurrent workers (operations.ts),
 * races payouts runs against refunds of the same live charges, arms random acquirer faults
 * (faults.ts; they reach the CLI's billing and payouts runs too), kills DynamoDB Local and the
 * whole stack on purpose (stack.ts), then clears the faults, lets recovery finish every attempt,
 * pays out what is left, checks its own rules (checks.ts) and reconciles the acquirer's books with
 * cobro's (`reconcile --json`).
 *
 * It prints what it did and exits 0 only if the books agree and nothing unexpected happened; 1
 * otherwise, listing every finding with what reproduces it.
 *
 * Options: --seconds N (default 60), --workers N (default 3), --keep-state (keep the stack's state
 * folder; it is kept anyway when the soak fails).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { findCurrency } from '../../shared/core/money/currencies.ts';
import type { ReconcileReport } from '../../shared/ledger/reconcile.ts';
import { checkPayouts, checkRecords, type Settled, settleAttempts, storeDeps } from './checks.ts';
import { Faults } from './faults.ts';
import { Http } from './http.ts';
import { type Merchant, Workload } from './operations.ts';
import { randomInt, sleep } from './random.ts';
import { type CliRun, SoakStack, soakPort } from './stack.ts';
import { type Kill, Tally } from './tally.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    workers: { type: 'string', default: '3' },
    'keep-state': { type: 'boolean', default: false },
  },
});
// DynamoDB Local is found (to kill it, and to make sure none is left) by its command line in /proc.
if (!existsSync('/proc/self/cmdline')) {
  console.error("soak: it finds the stack's DynamoDB Local through /proc, so it runs on Linux only");
  process.exit(2);
}
const seconds = Number(values.seconds);
const workerCount = Number(values.workers);
if (!Number.isInteger(seconds) || seconds < 20 || !Number.isInteger(workerCount) || workerCount < 1) {
  console.error('usage: npm run soak -- [--seconds N (20 or more)] [--workers N] [--keep-state]');
  process.exit(2);
}

/** How long recovery gets, after the operations stopped, to finish every attempt. */
const settleTimeoutMs = 180_000;

/**
 * The deliberate kills, at these fractions of the run: DynamoDB Local (the stack restarts it), the
 * whole stack (the soak starts it again), and on a long run DynamoDB Local once more.
 */
const killPlan: { at: number; what: Kill['what'] }[] = [
  { at: 0.3, what: 'dynamodb' },
  { at: 0.6, what: 'stack' },
  ...(seconds >= 240 ? [{ at: 0.85, what: 'dynamodb' as const }] : []),
];

const tally = new Tally();
const stateDir = mkdtempSync(join(tmpdir(), 'cobro-soak-'));
const stack = new SoakStack(stateDir, await soakPort());
// However the soak ends, nothing it started outlives it: the stack, its Java, its CLI runs.
process.on('exit', () => stack.killEverything());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\nsoak: ${signal}, stopping (state kept in ${stateDir})`);
    stack.killEverything();
    process.exit(130);
  });

console.log(`ledger soak: ${seconds} s, ${workerCount} workers
  stack: ${stack.command}`);
console.log(`  stack ready in ${((await stack.start()) / 1000).toFixed(1)} s at ${stack.info?.api_url}`);

// A stack that exits by itself is a finding; the soak starts it again on the same folder and port.
stack.onUnexpectedExit = (how, lastOutput) => {
  tally.find({ title: `the stack exited by itself (${how})`, detail: [`its last output:\n${lastOutput}`] });
  const end = tally.disrupt('the stack exited');
  void (async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await stack.start();
        return end();
      } catch (error) {
        console.error(`soak: the stack would not start again: ${(error as Error).message}`);
        await sleep(2_000);
      }
    }
    console.error('soak: giving up');
    process.exit(1);
  })();
};

const account = await stack.cli([
  'accounts',
  'create',
  '--name',
  'Ledger soak',
  '--email',
  `soak-${Date.now()}@soak.example`,
  '--json',
]);
tally.count('setup: accounts create (CLI)', `exit ${account.code}`);
if (account.code !== 0) throw new Error(`accounts create failed: ${account.stderr}`);
const created = JSON.parse(account.stdout) as { developer_id: number; test_key: string; live_key: string };
const merchant: Merchant = {
  developerId: created.developer_id,
  auth: { test: `Api-Key ${created.test_key}`, live: `Api-Key ${created.live_key}` },
};
console.log(`  account ${merchant.developerId} created with ${account.command}`);

const http = new Http(tally);
const faults = new Faults(stack, tally, merchant.developerId);
const work = new Workload(http, tally, stack, merchant, faults);
await work.setup();

const began = Date.now();
const stopAt = began + seconds * 1000;
let running = true;

/** A worker's loop: one operation at a time while the soak runs, paced, waiting while the stack is down. */
async function loop(step: () => Promise<void>, pauseMs: [number, number]) {
  while (running) {
    await stack.available();
    if (!running) return;
    try {
      await step();
    } catch (error) {
      tally.find({
        title: 'the soak itself failed an operation',
        detail: [(error as Error).stack ?? String(error)],
      });
    }
    await sleep(randomInt(...pauseMs));
  }
}

async function kill(what: Kill['what']) {
  const at = Date.now();
  // The stack's fault registry goes with it: read what it hit first.
  if (what === 'stack') await faults.readHits();
  const end = tally.disrupt(what === 'dynamodb' ? 'DynamoDB Local SIGKILL' : 'stack SIGKILL');
  console.log(
    `  ${tally.at(at)}: SIGKILL ${what === 'dynamodb' ? 'DynamoDB Local' : 'the stack and its DynamoDB Local'}`,
  );
  try {
    const { backMs, how } = what === 'dynamodb' ? await stack.killDynamo() : await stack.killStack();
    tally.kills.push({ what, at, backMs, how });
    console.log(`  ${tally.at(Date.now())}: back after ${(backMs / 1000).toFixed(1)} s: ${how}`);
  } finally {
    end();
  }
}

const killer = (async () => {
  for (const planned of killPlan) {
    const when = began + planned.at * seconds * 1000;
    while (running && Date.now() < when) await sleep(Math.min(500, when - Date.now()));
    if (!running) return;
    try {
      await kill(planned.what);
    } catch (error) {
      tally.find({
        title: `the stack did not come back after the ${planned.what} kill`,
        detail: [(error as Error).message, `the stack's last output:\n${stack.lastOutput()}`],
      });
      running = false;
    }
  }
})();

const loops = [
  ...Array.from({ length: workerCount }, () => loop(() => work.randomOperation(), [100, 400])),
  loop(() => work.operatorStep(), [2_000, 5_000]),
  loop(() => work.payoutRace(), [1_000, 3_000]),
  loop(() => faults.armOne(), [1_000, 4_000]),
];

// Progress every 30 s, so a long run shows it is alive.
while (running && Date.now() < stopAt) {
  await sleep(Math.min(30_000, stopAt - Date.now()));
  if (Date.now() < stopAt)
    console.log(
      `  ${tally.at(Date.now())}: ${tally.totalOperations()} requests, ${tally.findings.length} findings`,
    );
}
running = false;
console.log(`  ${tally.at(Date.now())}: stopping the operations`);
await Promise.all([...loops, killer]);
const operationsEnded = Date.now();

// The end: no more faults, recovery's turn, the soak's checks, and reconciliation.
await stack.available();
await faults.clear();
const info = stack.info;
if (!info) throw new Error('no stack info');
const deps = storeDeps(info);
const firstSettle: Settled = await settleAttempts(deps, settleTimeoutMs);
// With no fault armed, a last run pays out every live charge that can be, renewals dated ahead by
// the billing runs too: the payout checks then hold every live charge to "paid out its net less its
// refunds", not only those a run got to.
await work.payoutsRun(
  'payouts run (last, no faults)',
  ['--account', String(merchant.developerId)],
  new Date(Math.max(Date.now(), work.latestBillingDate?.getTime() ?? 0) + 3 * 86_400_000),
);
const secondSettle = await settleAttempts(deps, settleTimeoutMs);
const settled: Settled = { ...secondSettle, ms: firstSettle.ms + secondSettle.ms };
for (const attempt of settled.open)
  tally.find({
    title: `attempt ${attempt.id} (${attempt.kind}, ${attempt.status}) still open ${(settled.ms / 1000).toFixed(0)} s after the operations stopped`,
    detail: [JSON.stringify(attempt)],
  });
const range = {
  since: new Date(began - 3_600_000),
  until: new Date(Math.max(Date.now(), work.latestBillingDate?.getTime() ?? 0) + 86_400_000),
};
await checkRecords(work, tally, deps, range, settled.held);
const payoutCheck = await checkPayouts(work, tally, deps, merchant.developerId, {
  since: new Date(began - 3_600_000),
  until: new Date(Date.now() + 3_600_000),
});
const reconcile: CliRun = await stack.cli(['reconcile', '--json']);
let report: ReconcileReport | undefined;
try {
  report = JSON.parse(reconcile.stdout) as ReconcileReport;
} catch {
  report = undefined;
}
if (reconcile.code !== 0)
  tally.find({
    title: `reconcile exited ${reconcile.code}${report ? ` with ${report.mismatches.length} mismatches` : ''}`,
    detail: [
      reconcile.command,
      ...(report?.mismatches.map((m) => `${m.kind} ${m.key}: ${m.problem}: ${m.detail}`) ?? [
        reconcile.stderr.trim(),
      ]),
    ],
  });

await faults.readHits();
const stopCode = await stack.stop();
const orphans = stack.javas();
if (orphans.length) {
  tally.find({
    title: `DynamoDB Local outlived the stack (pids ${orphans.join(', ')})`,
    detail: [stack.command],
  });
  for (const pid of orphans) process.kill(pid, 'SIGKILL');
}

// The summary.
const passed = tally.findings.length === 0 && reconcile.code === 0;
const line = (map: Map<string, number>) =>
  [...map.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, n]) => `${label}: ${n}`)
    .join(', ');
const figures = (record: Record<string, number>) =>
  Object.entries(record)
    .filter(([key, n]) => key !== 'runs' && n !== 0)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');
console.log(`
ledger soak summary
  seconds            ${seconds} of operations, from ${tally.at(began)} to ${tally.at(operationsEnded)} (the last ones finishing), ${workerCount} workers
  operations         ${tally.totalOperations()} requests and CLI runs, by kind (answer: count)`);
for (const [kind, labels] of [...tally.operations.entries()].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`    ${kind.padEnd(44)} ${line(labels)}`);
const minor = (totals: Map<string, number>) =>
  [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, amount]) => {
      const currency = findCurrency(code);
      return `${code} ${currency ? formatAmount(amount, currency) : amount}`;
    })
    .join(', ') || 'nothing';
const hits = faults.hitsByProcess();
const hitCount = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
console.log(`  billing runs       ${work.billing.runs ?? 0} succeeded: ${figures(work.billing) || 'nothing due'}
  payouts runs       ${work.payouts.runs ?? 0} succeeded: ${figures(work.payouts) || 'nothing paid out'}
  payout races       ${line(new Map(Object.entries(work.races)))}
  payouts made       ${payoutCheck.paidOut} of ${payoutCheck.liveCharges} live charges paid out (the acquirer's books: ${minor(payoutCheck.paidTotals)}); ${payoutCheck.refunds201} refunds answered 201, ${payoutCheck.refused409} refused 409 as paid out
  faults armed       ${[...tally.faultsByEffect.values()].reduce((a, b) => a + b, 0)} by effect: ${line(tally.faultsByEffect)}
                     by operation: ${line(tally.faultsByOperation)}
  faults hit         ${[...hits.values()].reduce((sum, counts) => sum + hitCount(counts), 0)} calls, by process (read from the stack's registry before each stack kill and at the end)`);
for (const [caller, counts] of [...hits.entries()].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`    ${caller.padEnd(44)} ${hitCount(counts)}: ${line(counts)}`);
console.log(`  kills              ${tally.kills.length}`);
for (const k of tally.kills)
  console.log(
    `    ${tally.at(k.at)} ${k.what === 'dynamodb' ? 'DynamoDB Local' : 'whole stack'}: back in ${(k.backMs / 1000).toFixed(1)} s (${k.how})`,
  );
console.log(`  recovery           ${settled.open.length} attempts open after ${(settled.ms / 1000).toFixed(0)} s; ${settled.held.length} automatic refunds of 5126 cards held (the acquirer refuses them; retried); ${settled.challenges} checkout challenges left unanswered (no money moves until answered)
  stack stop         exit code ${stopCode}; DynamoDB Local processes left: ${orphans.length}`);
if (report) {
  const side = (books: ReconcileReport['acquirer']) =>
    `${books.charges} charges, ${books.refunds} refunds, ${books.payouts} payouts`;
  const r = report.recovery;
  console.log(`  reconcile          exit ${reconcile.code}: ${reconcile.command}
    recovery         ${r.due} due: ${r.succeeded} succeeded, ${r.declined} declined, ${r.failed} failed (closed), ${r.waiting} waiting, ${r.errors} errors
    acquirer         ${side(report.acquirer)}
    cobro            ${side(report.cobro)}`);
  for (const code of Object.keys({ ...report.acquirer.totals, ...report.cobro.totals }).sort()) {
    const a = report.acquirer.totals[code];
    const c = report.cobro.totals[code];
    console.log(
      `    ${code.padEnd(16)} charged ${a?.charged ?? 0} / ${c?.charged ?? 0}, refunded ${a?.refunded ?? 0} / ${c?.refunded ?? 0}, paid out ${a?.paid_out ?? 0} / ${c?.paid_out ?? 0} (minor units, acquirer / cobro)`,
    );
  }
} else {
  console.log(`  reconcile          exit ${reconcile.code}, no report: ${reconcile.stderr.trim()}`);
}
console.log(
  `  mismatches         ${report ? report.mismatches.length : 'unknown'} in reconcile; ${payoutCheck.mismatches} between payouts and refunds (findings below)`,
);
console.log(`  findings           ${tally.findings.length}`);
tally.findings.forEach((finding, index) => {
  console.log(`    ${index + 1}. ${finding.title}`);
  for (const detail of finding.detail) console.log(`       ${detail.replaceAll('\n', '\n       ')}`);
});
if (passed && !values['keep-state']) rmSync(stateDir, { recursive: true, force: true });
else console.log(`  state              ${stateDir} (the stack's log: ${stack.logFile})`);
console.log(`  result             ${passed ? 'PASS' : 'FAIL'}`);
process.exit(passed ? 0 : 1);
