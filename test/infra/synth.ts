/**
 * One synthesis of the prod app (cdk-nag attached, every function bundled) shared by every infra
 * test file of a run, and by later runs while the sources are unchanged: vitest runs each file in
 * its own worker, so a module-level memo would synthesize once per file. The cloud assembly is
 * written to a directory named by a hash of everything the synth reads (infra/, shared/,
 * functions/, bin/app.ts, the lock file, this file); the first worker to need it synthesizes under
 * a lock directory, the others wait for its `done` marker.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { CobroStack } from '../../infra/cobro-stack.ts';
import { applyNag } from '../../infra/nag.ts';
import { type StageConfig, stageConfig } from '../../infra/stage.ts';

export const root = path.resolve(import.meta.dirname, '../..');

/** The context the shared synth runs with: prod, the stage with every guard on. */
export const prodContext = { stage: 'prod', alarmEmail: 'ops@example.org' } as const;
export const prodConfig: StageConfig = stageConfig((key) => (prodContext as Record<string, unknown>)[key]);
export const stackName = 'cobro-prod';

export type Resource = { Type: string; Properties: Record<string, unknown>; [key: string]: unknown };

export interface SharedSynth {
  /** The cloud assembly directory: the template, the bundled assets, cdk-nag's report. */
  readonly outdir: string;
  readonly template: { Resources: Record<string, Resource>; Outputs: Record<string, unknown> };
  /** Each nested stack's template (the alarms', infra/observability.ts), by file name. */
  readonly nested: ReadonlyMap<string, { Resources: Record<string, Resource> }>;
  /** `severity ruleName` of every cdk-nag finding nobody acknowledged. */
  readonly unacknowledged: string[];
}

function sourceHash(): string {
  const hash = crypto.createHash('sha256');
  const visit = (file: string) => {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file).sort()) {
        if (entry === 'node_modules' || entry.startsWith('.')) continue;
        visit(path.join(file, entry));
      }
    } else if (/\.(ts|json)$/.test(file)) {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  };
  for (const part of [
    'infra',
    'shared',
    'functions',
    'bin/app.ts',
    'package-lock.json',
    'test/infra/synth.ts',
  ])
    visit(path.join(root, part));
  return hash.digest('hex').slice(0, 16);
}

function read(outdir: string): SharedSynth {
  const template = JSON.parse(
    fs.readFileSync(path.join(outdir, `${stackName}.template.json`), 'utf8'),
  ) as SharedSynth['template'];
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: { pluginName: string; violations: { ruleName: string; severity: string }[] }[];
  };
  const unacknowledged = report.pluginReports
    .filter((plugin) => plugin.pluginName === 'AwsSolutions')
    .flatMap((plugin) => plugin.violations.map((v) => `${v.severity} ${v.ruleName}`));
  const nested = new Map(
    fs
      .readdirSync(outdir)
      .filter((file) => file.endsWith('.nested.template.json'))
      .sort()
      .map((file) => [
        file,
        JSON.parse(fs.readFileSync(path.join(outdir, file), 'utf8')) as {
          Resources: Record<string, Resource>;
        },
      ]),
  );
  return { outdir, template, nested, unacknowledged };
}

/** The process that holds a lock directory, if it says (it writes its pid right after taking it). */
function lockOwner(lock: string): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether a process runs; unknown (a lock just taken, its pid not written yet) counts as running. */
function alive(pid: number | undefined): boolean {
  if (pid === undefined || !Number.isInteger(pid)) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The shared prod synth: from the cache when the sources are unchanged, else made once here. */
export async function sharedSynth(): Promise<SharedSynth> {
  const cache = path.join(root, 'node_modules/.cache/cobro-infra-synth');
  const outdir = path.join(cache, sourceHash());
  const done = path.join(outdir, 'done');
  const lock = `${outdir}.lock`;
  fs.mkdirSync(cache, { recursive: true });
  const deadline = Date.now() + 600_000;
  while (!fs.existsSync(done)) {
    let mine = false;
    try {
      fs.mkdirSync(lock);
      mine = true;
    } catch {
      // Another worker synthesizes: wait for its marker, or for its lock to go (it failed). A lock
      // whose process is gone (a run killed mid-synth) is stale: take it away.
      if (!alive(lockOwner(lock))) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (Date.now() > deadline) throw new Error(`no synth in ${outdir} after 10 minutes (${lock})`);
      continue;
    }
    if (mine) {
      try {
        fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
        // Old entries of other source states are of no further use.
        for (const entry of fs.readdirSync(cache)) {
          if (entry !== path.basename(outdir) && !entry.endsWith('.lock'))
            fs.rmSync(path.join(cache, entry), { recursive: true, force: true });
        }
        fs.rmSync(outdir, { recursive: true, force: true });
        const app = new App({ outdir, context: { ...prodContext } });
        new CobroStack(app, stackName, { config: prodConfig });
        applyNag(app);
        app.synth();
        fs.writeFileSync(done, new Date().toISOString());
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    }
  }
  return read(outdir);
}

/** Logical id of the function of a handler module (`Functions<Name>Fn<hash>`). */
export function fnLogicalId(resources: Record<string, Resource>, fnId: string): string {
  const pattern = new RegExp(`^Functions${fnId}[0-9A-F]{8}$`);
  const id = Object.keys(resources).find(
    (key) => pattern.test(key) && resources[key]?.Type === 'AWS::Lambda::Function',
  );
  if (!id) throw new Error(`no function ${fnId}`);
  return id;
}

/** Every statement a function's role allows: its inline policy and any policy attached to it. */
export function roleStatements(
  resources: Record<string, Resource>,
  fnLogical: string,
): { role: string; statements: { Action: string | string[]; Resource: unknown; Condition?: unknown }[] } {
  const fn = resources[fnLogical] as Resource;
  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  type Doc = { Statement: { Action: string | string[]; Resource: unknown; Condition?: unknown }[] };
  const inline = ((resources[role]?.Properties.Policies ?? []) as { PolicyDocument: Doc }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
  const attached = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => JSON.stringify(r.Properties.Roles) === JSON.stringify([{ Ref: role }]))
    .flatMap((r) => (r.Properties.PolicyDocument as Doc).Statement);
  return { role, statements: [...inline, ...attached] };
}
