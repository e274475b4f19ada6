/**
 * What a dashboard password costs (`node test/bench/password.ts [runs]`): the Argon2id hash a new
 * password is stored as and the check of a sign-in, each timed `runs` times (default 30) after 3 to
 * warm, on this machine's one core. A guesser pays the same per guess; a sign-in pays one check.
 */
import { hashPassword, passwordMatches } from '../../shared/team/password.ts';

const runs = Number(process.argv[2] ?? 30);

async function timedRuns(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) =>
    (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] as number).toFixed(1);
  console.log(`${label.padEnd(38)} p50 ${at(50)} ms  p90 ${at(90)} ms  (${runs} runs)`);
}

const hash = await hashPassword('correct horse battery staple');
await timedRuns('hashPassword (a new password)', () => hashPassword('correct horse battery staple'));
await timedRuns('passwordMatches (a sign-in, right)', () =>
  passwordMatches('correct horse battery staple', hash),
);
await timedRuns('passwordMatches (a sign-in, wrong)', () =>
  passwordMatches('wrong horse battery staple', hash),
);
await timedRuns('passwordMatches (no such user: decoy)', () => passwordMatches('anything at all', undefined));
