/** `bin/cli.ts` run as a user runs it, against the test stack or the one a given state folder names. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { projectRoot } from '../../infra/local/info.ts';
import { stateDir } from './stack.ts';

const run = promisify(execFile);

/** Runs the CLI with `args` against the stack whose local.json is in `folder`. */
export const cliAt = (folder: string, ...args: string[]) =>
  run(process.execPath, [join(projectRoot, 'bin/cli.ts'), ...args, '--state-dir', folder], {
    cwd: projectRoot,
    env: { ...process.env, TABLE_NAME: '' },
  });

/** Runs the CLI with `args` against the test stack. */
export const cli = (...args: string[]) => cliAt(stateDir, ...args);

/**
 * Asserts the CLI run with `args` (against the stack `folder` names) exits with `code`, its stderr
 * matching `message` (text it contains, or a pattern).
 */
export async function expectCliRefusal(
  args: string[],
  code: number,
  message: string | RegExp,
  folder = stateDir,
): Promise<void> {
  await expect(cliAt(folder, ...args)).rejects.toMatchObject({
    code,
    stderr: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
  });
}
