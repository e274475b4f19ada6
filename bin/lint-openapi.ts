#!/usr/bin/env node
/**
 * `npm run lint:openapi`: the OpenAPI document, generated in this process from the route table and
 * schemas (no stack needed), written to a temporary file and linted by Redocly CLI (`redocly.yaml`)
 * and Spectral (`.spectral.yaml`), both at once. Prints one line per problem and exits 0 only when
 * neither reports an error or a warning. `test/api/openapi-lint.test.ts` runs the same check.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../shared/api/openapi.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');

/**
 * The server the linted document names. The served document names the stage's own base URL; a
 * linter only checks that there is one and that it is not a placeholder host.
 */
export const lintedServerUrl = 'https://api.cobro.test';

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface Problem {
  tool: 'redocly' | 'spectral';
  severity: Severity;
  rule: string;
  /** Where in the document, as a JSON path. */
  path: string;
  message: string;
}

/** Runs a linter's CLI with the Node running this, and its JSON output, whatever its exit code. */
async function runTool(bin: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [join(root, 'node_modules/.bin', bin), ...args], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      // A lint sends nothing anywhere: no usage data, no check for a newer version.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return stdout;
  } catch (error) {
    // Both exit non-zero when they find problems; their report is still on stdout.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (stdout?.trim()) return stdout;
    throw new Error(`${bin} failed: ${stderr ?? String(error)}`);
  }
}

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}

async function redocly(file: string): Promise<Problem[]> {
  const out = await runTool('redocly', [
    'lint',
    file,
    '--config',
    join(root, 'redocly.yaml'),
    '--format',
    'json',
  ]);
  const report = JSON.parse(out) as { problems: RedoclyProblem[] };
  return report.problems.map((problem) => ({
    tool: 'redocly',
    severity: problem.severity === 'warn' ? 'warning' : 'error',
    rule: problem.ruleId,
    path: problem.location?.[0]?.pointer ?? '',
    message: problem.message,
  }));
}

interface SpectralProblem {
  code: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: 0 | 1 | 2 | 3;
  message: string;
  path: (string | number)[];
}

/** A JSON path as a JSON Pointer fragment, the way Redocly reports locations. */
const pointer = (path: readonly (string | number)[]) =>
  `#${path.map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;

const spectralSeverities: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

async function spectral(file: string): Promise<Problem[]> {
  const out = await runTool('spectral', [
    'lint',
    file,
    '--ruleset',
    join(root, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
  ]);
  // With nothing to report it may print no JSON at all.
  const report = out.trim() ? (JSON.parse(out.slice(out.indexOf('['))) as SpectralProblem[]) : [];
  return report.map((problem) => ({
    tool: 'spectral',
    severity: spectralSeverities[problem.severity] ?? 'error',
    rule: problem.code,
    path: pointer(problem.path),
    message: problem.message,
  }));
}

/** Every problem both linters find in a document (by default, the one generated here), Redocly's first. */
export async function lintOpenApi(document: unknown = openApiDocument(lintedServerUrl)): Promise<Problem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cobro-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const [fromRedocly, fromSpectral] = await Promise.all([redocly(file), spectral(file)]);
    return [...fromRedocly, ...fromSpectral];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Errors and warnings fail the check; information and hints are shown only. */
export const failing = (problems: readonly Problem[]) =>
  problems.filter((problem) => problem.severity === 'error' || problem.severity === 'warning');

if (import.meta.main) {
  const problems = await lintOpenApi();
  for (const problem of problems) {
    console.log(`${problem.tool} ${problem.severity} ${problem.rule} ${problem.path}: ${problem.message}`);
  }
  const failed = failing(problems);
  console.log(
    `OpenAPI lint: ${failed.filter((p) => p.severity === 'error').length} errors, ${failed.filter((p) => p.severity === 'warning').length} warnings (Redocly and Spectral)`,
  );
  process.exitCode = failed.length ? 1 : 0;
}
