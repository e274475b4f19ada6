/**
 * One Lambda function per handler module named in the shared tables (routes, event rules,
 * schedules, the relay), each running as a role granted exactly its row's access
 * (infra/permissions.ts). Other constructs ask for a handler's function here; the observability
 * construct reads them all from `all`.
 */
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import { type CfnElement, type Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { envNames } from '../shared/core/config.ts';
import type { Access } from '../shared/http/route.ts';
import { esmRequireBanner, externalModulesOf, functionBundling } from './bundling.ts';
import type { CobroData } from './data.ts';
import { accessStatements } from './permissions.ts';
import type { CobroSecrets } from './secrets.ts';
import type { StageConfig } from './stage.ts';

/** Repository root: handler paths in `shared/` are relative to it, and bundling needs its lock file. */
export const repoRoot = path.resolve(import.meta.dirname, '..');

// How a handler's function is named lives apart, so the local stack's rehearsal mode reads it
// without loading the CDK.
export { functionId, pascalCase } from './function-id.ts';

import { functionId, handlerMetadataKey } from './function-id.ts';

/**
 * An access row in one canonical form (keys and lists sorted, defaults dropped): two rows that
 * grant the same are equal as text.
 */
export function canonicalAccess(access: Access): string {
  const table = access.table && {
    actions: [...access.table.actions].sort(),
    indexes: [...(access.table.indexes ?? [])].sort(),
  };
  const flags = Object.fromEntries(
    Object.entries({ ...access, table }).filter(([, value]) => value !== undefined && value !== false),
  );
  return JSON.stringify(flags, Object.keys(flags).sort().concat('actions', 'indexes'));
}

/** What a handler's function differs in; everything else is shared by all functions. */
export interface FunctionSpec {
  /** Handler module, relative to the repository root. */
  readonly handler: string;
  readonly access: Access;
  /** @default 512 */
  readonly memorySize?: number;
  readonly timeout: Duration;
  /**
   * Where asynchronous invocations that still fail after Lambda's retries end up (`queue`, shared
   * by the rules or schedules of a kind), and the name of the role and log group the function then
   * has to itself (`profile`, its rule's or schedule's). @default none
   */
  readonly deadLetters?: { readonly queue: sqs.IQueue; readonly profile: string };
  /** Variables of this function alone. @default none */
  readonly environment?: Readonly<Record<string, string>>;
}

export interface CobroFunctionsProps {
  readonly config: StageConfig;
  readonly data: CobroData;
  readonly secrets: CobroSecrets;
  /**
   * The source file bundled for a handler module.
   * @default the handler path under the repository root
   */
  readonly entryFor?: (handler: string) => string;
}

/** A function with the row it was made for. */
export interface MadeFunction {
  readonly handler: string;
  readonly fn: NodejsFunction;
  readonly access: Access;
}

export class CobroFunctions extends Construct {
  private readonly made = new Map<string, MadeFunction>();
  private readonly profiles = new Map<string, { role: iam.Role; logGroup: logs.LogGroup }>();
  private readonly props: CobroFunctionsProps;

  constructor(scope: Construct, id: string, props: CobroFunctionsProps) {
    super(scope, id);
    this.props = props;
  }

  /** Every function made so far, in the order made. */
  get all(): readonly MadeFunction[] {
    return [...this.made.values()];
  }

  /** The function of a handler module; throws if no row made one. */
  functionFor(handler: string): NodejsFunction {
    const made = this.made.get(handler);
    if (!made) throw new Error(`no function for handler ${handler}`);
    return made.fn;
  }

  /** The function for a handler module, made once however many rows name it, granted exactly `access`. */
  add(spec: FunctionSpec): NodejsFunction {
    const existing = this.made.get(spec.handler);
    if (existing) {
      if (canonicalAccess(existing.access) !== canonicalAccess(spec.access)) {
        throw new Error(
          `${spec.handler} is named twice with different access; give each row its own handler`,
        );
      }
      return existing.fn;
    }
    const { config, data, secrets } = this.props;
    const { role, logGroup } = this.profile(spec.access, spec.deadLetters);

    const environment: Record<string, string> = {
      [envNames.table]: data.table.tableName,
      [envNames.eventBus]: data.bus.eventBusName,
      [envNames.mediaBucket]: data.mediaBucket.bucketName,
      [envNames.mailFrom]: config.mailFrom,
      ...spec.environment,
    };
    // Source maps cost every cold start (`npm run bench -- --only cold`): see infra/bundling.ts.
    if (functionBundling.sourceMap) environment.NODE_OPTIONS = '--enable-source-maps';
    // A secret's ARN, never its value: whoever may read the function's configuration learns only
    // where the secret is. The function reads the value itself, under its role's grant.
    for (const { secret, variable } of secrets.readBy(spec.access)) environment[variable] = secret.secretArn;

    const fn = new NodejsFunction(this, functionId(spec.handler), {
      entry: this.props.entryFor?.(spec.handler) ?? path.join(repoRoot, spec.handler),
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: spec.memorySize ?? 512,
      timeout: spec.timeout,
      role,
      logGroup,
      environment,
      bundling: {
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        // Some CommonJS dependencies call require(); an ESM bundle has none unless we make one.
        banner: esmRequireBanner,
        minify: true,
        sourceMap: functionBundling.sourceMap,
        // Bundled, the SDK is tree-shaken and loads faster than the runtime's copy; Powertools Logger
        // and Metrics come from their layer instead, to keep bundles small (infra/bundling.ts).
        externalModules: externalModulesOf(functionBundling),
        target: 'node24',
      },
    });
    // Active tracing (X-Ray), set on the resource: the `tracing` prop would add the same two X-Ray
    // actions as a policy resource per role, where the role's inline statements already hold them.
    (fn.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: 'Active' };
    // The handler module the function bundles, in the template: whatever reads the template (the
    // local stack's rehearsal mode) finds a handler's function by it, whatever construct holds it.
    (fn.node.defaultChild as lambda.CfnFunction).addMetadata(handlerMetadataKey, spec.handler);
    if (spec.deadLetters) {
      // Set on the function's resource rather than through the `deadLetterQueue` prop: the prop grants
      // SendMessage, GetQueueAttributes and GetQueueUrl in a policy resource of its own, while Lambda
      // needs SendMessage alone, which the role's inline policy already holds (see profile).
      (fn.node.defaultChild as lambda.CfnFunction).deadLetterConfig = {
        targetArn: spec.deadLetters.queue.queueArn,
      };
    }
    this.made.set(spec.handler, { handler: spec.handler, fn, access: spec.access });
    return fn;
  }

  /**
   * The role and log group of every function with this access (and dead-letter queue). Functions
   * whose rows grant the same IAM access share one role and one log group: the role's statements are
   * exactly what each of them would get alone, so sharing widens no access, and it keeps the
   * per-function cost at the function, its method and its invoke permission (a role and a log
   * group per function would take the API past CloudFormation's 500 resources). The statements sit
   * in the role itself (no separate policy resource). A function with a dead-letter queue gets a role
   * and log group of its own, named after its rule or schedule: sending to that queue is a grant the
   * API's functions must not have, and those ids date from when each rule had a queue of its own (a
   * new id would replace the log group, and staging and prod would keep the old one beside it,
   * splitting the function's logs). Lambda names each log stream of a shared log group after its
   * function (`YYYY/MM/DD/<function name>[<version>]<id>`).
   */
  private profile(
    access: Access,
    deadLetters?: FunctionSpec['deadLetters'],
  ): { role: iam.Role; logGroup: logs.LogGroup } {
    const canonical = canonicalAccess(access);
    const hash = crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 8).toUpperCase();
    const name = `Access${hash}${deadLetters?.profile ?? ''}`;
    const existing = this.profiles.get(name);
    if (existing) return existing;
    const { config, data, secrets } = this.props;
    const stack = Stack.of(this);
    const logGroup = new logs.LogGroup(this, `${name}Logs`, {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const statements = [
      // Own log group only: AWSLambdaBasicExecutionRole could write to every log group in the account.
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
      // Active tracing sends each invocation's segments to X-Ray; these two actions take no resource.
      new iam.PolicyStatement({
        actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
        resources: ['*'],
      }),
      // Where its asynchronous invocations go after Lambda's last retry: its kind's queue only.
      ...(deadLetters
        ? [new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [deadLetters.queue.queueArn] })]
        : []),
      ...accessStatements(access, {
        tableArn: data.table.tableArn,
        indexArn: (index) => `${data.table.tableArn}/index/${index}`,
        busArn: data.bus.eventBusArn,
        mediaBucketArn: data.mediaBucket.bucketArn,
        secretArns: secrets.readBy(access).map(({ secret }) => secret.secretArn),
        mailIdentityArn: stack.formatArn({
          service: 'ses',
          resource: 'identity',
          resourceName: config.mailIdentity,
        }),
        mailFrom: config.mailFrom,
      }),
    ];
    const role = new iam.Role(this, `${name}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `cobro functions with access ${canonical}`.slice(0, 1000),
      inlinePolicies: { access: new iam.PolicyDocument({ statements }) },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing) take no resource: X-Ray has no resource ARN for them.',
    });
    if (access.media) {
      // The bucket's ARN as the template names it: the attribute of the bucket, which is in the same
      // template as every function.
      const bucket = data.mediaBucket.node.defaultChild as CfnElement;
      const arn = `${stack.resolve(bucket.logicalId) as string}.Arn`;
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${arn}>/*]`,
        reason:
          'Images are read (and stored) by names made at request time, unknown at synth; the wildcard covers objects of the media bucket only, with GetObject (and PutObject) alone.',
      });
    }
    const made = { role, logGroup };
    this.profiles.set(name, made);
    return made;
  }
}
