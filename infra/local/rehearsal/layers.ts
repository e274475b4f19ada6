/**
 * The Lambda layers a rehearsal function loads, as Lambda gives them: a package a bundle leaves out
 * is looked for in the function's layers (Lambda's /opt/nodejs/node_modules) after its own folder,
 * and a function without the layer fails to load it, as it would deployed.
 *
 * The one layer the app uses is the AWS-published Powertools for AWS Lambda (TypeScript) layer,
 * named in the template by the public SSM parameter of a release. Locally its packages are the
 * project's own installed ones, and only when they are that same release: otherwise the rehearsal
 * would run code the deployed functions do not.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const powertoolsParameter = /^\/aws\/service\/powertools\/typescript\/generic\/all\/(\d+\.\d+\.\d+)$/;

/** What a template's `Layers` entry names: the Powertools release of its SSM parameter. */
export function layerOf(
  entry: unknown,
  parameters: Readonly<Record<string, { Type?: string; Default?: unknown }>>,
): string {
  const ref = (entry as { Ref?: unknown } | null)?.Ref;
  const parameter = typeof ref === 'string' ? parameters[ref] : undefined;
  const version = powertoolsParameter.exec(String(parameter?.Default ?? ''))?.[1];
  if (!version) throw new Error(`a layer rehearsal cannot provide: ${JSON.stringify(entry)}`);
  return `powertools@${version}`;
}

/**
 * The folder that stands for a layer's `nodejs/node_modules`: the project's installed
 * `@aws-lambda-powertools` packages, linked from a folder of their own outside the checkout.
 */
export function layerModules(layer: string, projectRoot: string): string {
  const version = /^powertools@(.+)$/.exec(layer)?.[1];
  if (!version) throw new Error(`no local copy of layer ${layer}`);
  const installed = join(projectRoot, 'node_modules', '@aws-lambda-powertools');
  const { version: have } = JSON.parse(readFileSync(join(installed, 'logger', 'package.json'), 'utf8')) as {
    version: string;
  };
  if (have !== version) {
    throw new Error(
      `the template loads the Powertools layer ${version}, but ${have} is installed: rehearsal runs what is installed`,
    );
  }
  const modules = join(tmpdir(), 'cobro-layers', `powertools-${version}`, 'nodejs', 'node_modules');
  if (!existsSync(join(modules, '@aws-lambda-powertools'))) {
    mkdirSync(modules, { recursive: true });
    try {
      symlinkSync(installed, join(modules, '@aws-lambda-powertools'), 'dir');
    } catch (error) {
      // Another stack made it meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return modules;
}
