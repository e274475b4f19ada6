/**
 * The documents' shell blocks, run as a reader runs them: read from the file as it stands (README.md,
 * docs/tutorial.md), pasted into bash in the checkout beside a stack the harness started. Shared by
 * the quick start's test and the tutorial's.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../infra/local/info.ts';

/** A ```sh block of a document, with the `## ` heading of the section it sits in. */
export interface ShellBlock {
  section: string;
  script: string;
}

const read = (file: string) => readFileSync(join(projectRoot, file), 'utf8');

/** The first ```sh block after the line `heading` of `file` (`## Quick start` of README.md, say). */
export function shellBlockUnder(file: string, heading: string): string {
  const text = read(file);
  const start = text.indexOf(`\n${heading}\n`);
  const section = start < 0 ? undefined : text.slice(start + heading.length + 2);
  const block = section && /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block) throw new Error(`${file} has no \`\`\`sh block under "${heading}"`);
  return block;
}

/** Every ```sh block of `file`, in order, each with the `## ` section it is in. */
export function shellBlocks(file: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let section = '';
  for (const match of read(file).matchAll(/^## (.+)$|^```sh\n([\s\S]*?)^```$/gm)) {
    if (match[1] !== undefined) section = match[1];
    else blocks.push({ section, script: match[2] ?? '' });
  }
  return blocks;
}

/**
 * Runs `script` with bash in the checkout, the CLI pointed at the stack in `stateDir` (as a second
 * terminal beside `npm start` finds it); answers its exit code and output. Everything it started is
 * in its own process group, which must be empty once it ends: the script leaves nothing running.
 */
export function runBash(script: string, stateDir: string, ms = 180_000) {
  const child = spawn('bash', ['-c', script], {
    cwd: projectRoot,
    env: { ...process.env, COBRO_STATE_DIR: stateDir, TABLE_NAME: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const group = child.pid as number;
  const killGroup = () => {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // nothing left in it
    }
  };
  return new Promise<{ code: number | null; stdout: string; stderr: string; leftOver: boolean }>(
    (resolve) => {
      // A script that waits for ever (a webhook that never comes) fails here, not by hanging the suite.
      const timer = setTimeout(killGroup, ms);
      child.once('close', (code) => {
        clearTimeout(timer);
        let leftOver = true;
        try {
          process.kill(-group, 0);
        } catch {
          leftOver = false;
        }
        killGroup();
        resolve({ code, stdout, stderr, leftOver });
      });
    },
  );
}
