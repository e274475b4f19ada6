/**
 * The CDK app's cloud assembly (bin/app.ts's stack, its functions bundled by NodejsFunction and
 * esbuild), synthesized once and kept: a later call with nothing changed reuses it. The local stack's
 * rehearsal mode runs the functions from it (infra/local/rehearsal/); anything else that needs the
 * synthesized template (the stack tests) can read the same one.
 *
 * The folder is named after a hash of everything the assembly is built from: shared/, functions/,
 * infra/ (without infra/local, which never reaches AWS), bin/app.ts, package-lock.json, cdk.json and
 * the context given. It lives outside the checkout (under ~/.cache/cobro, or COBRO_ASSEMBLY_CACHE):
 * a bundle that misses a module must not find it in the checkout's node_modules when it runs.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..');

export interface AssemblyOptions {
  /** @default 'dev' */
  stage?: string;
  /** More context values (`mailFrom`, `baseUrl`, ...), as `cdk synth -c name=value` gives them. */
  context?: Readonly<Record<string, string>>;
  /** Where assemblies are kept. @default COBRO_ASSEMBLY_CACHE, or ~/.cache/cobro/assemblies */
  cacheDir?: string;
  /** Called when a synth starts (it takes a minute or two). */
  onSynth?: (message: string) => void;
}

export interface CachedAssembly {
  /** The cloud assembly folder (manifest.json, the template, one asset folder per bundle). */
  outdir: string;
  /** The stack's CloudFormation template, parsed. */
  template: CfnTemplate;
  /** The template's file name in `outdir`. */
  templateFile: string;
  /** The stack's name (`cobro-<stage>`). */
  stackName: string;
}

/** The parts of a CloudFormation template read here. */
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DependsOn?: unknown;
  [key: string]: unknown;
}

/** The folders and files an assembly is built from, relative to the repository root. */
const inputs = ['shared', 'functions', 'infra', 'bin/app.ts', 'package-lock.json', 'cdk.json'];
/** Never part of a deployed stack (this module only reads what the others build). */
const excluded = (path: string) =>
  path.startsWith('infra/local/') || path === 'infra/assembly.ts' || path.endsWith('.test.ts');

function filesUnder(path: string): string[] {
  const full = join(repoRoot, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => filesUnder(join(path, entry.name)))
    .filter((file) => !excluded(file));
}

/** A hash of every input file, path and content: what the bundles and the template are made of. */
export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(repoRoot, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const contextHash = (context: Readonly<Record<string, string>>) =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(context).sort()))
    .digest('hex')
    .slice(0, 8);

export function defaultCacheDir(): string {
  return process.env.COBRO_ASSEMBLY_CACHE ?? join(homedir(), '.cache', 'cobro', 'assemblies');
}

/** Reads an assembly folder the CDK wrote: its manifest names the stack's template. */
export function readAssembly(outdir: string): CachedAssembly {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type?: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(
    ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
  );
  const [stackName, artifact] = stacks[0] ?? [];
  const templateFile = artifact?.properties?.templateFile;
  if (stacks.length !== 1 || !stackName || !templateFile)
    throw new Error(`${outdir}: expected one stack in manifest.json, found ${stacks.length}`);
  const template = JSON.parse(readFileSync(join(outdir, templateFile), 'utf8')) as CfnTemplate;
  return { outdir, template, templateFile, stackName };
}

/** Runs bin/app.ts as `cdk synth` runs it: the output folder and the context in its environment. */
function synthesize(outdir: string, context: Record<string, string>): Promise<void> {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin/app.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, ...context }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-20_000);
    });
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`synth of bin/app.ts failed (exit ${code}):\n${errors}`)),
    );
  });
}

const running = new Map<string, Promise<CachedAssembly>>();

/**
 * The assembly of the given stage and context, synthesized if no kept one matches what it is built
 * from now. Two callers at once (two processes included) may both synthesize; each writes its own
 * folder and renames it into place, so a reader never sees half an assembly.
 */
export function cachedAssembly(options: AssemblyOptions = {}): Promise<CachedAssembly> {
  const stage = options.stage ?? 'dev';
  const context = { ...options.context, stage };
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  // The context names a family of assemblies; the sources, which one of it is current.
  const family = `${stage}-${contextHash(context)}-`;
  const name = `${family}${sourceHash()}`;
  const outdir = join(cacheDir, name);
  const existing = running.get(outdir);
  if (existing) return existing;
  const made = (async () => {
    if (existsSync(join(outdir, 'manifest.json'))) return readAssembly(outdir);
    mkdirSync(cacheDir, { recursive: true });
    const partial = join(cacheDir, `.${name}.${process.pid}.${Date.now()}`);
    options.onSynth?.(`synthesizing the CDK app (stage ${stage}) into ${outdir}`);
    try {
      await synthesize(partial, context);
      if (existsSync(join(outdir, 'manifest.json'))) rmSync(partial, { recursive: true, force: true });
      else renameSync(partial, outdir);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      throw error;
    }
    // Older assemblies of the same stage and context are out of date: one is kept of each.
    for (const entry of readdirSync(cacheDir)) {
      if (entry !== name && entry.startsWith(family))
        rmSync(join(cacheDir, entry), { recursive: true, force: true });
    }
    return readAssembly(outdir);
  })();
  running.set(outdir, made);
  made.catch(() => running.delete(outdir));
  return made;
}
