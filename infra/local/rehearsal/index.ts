/**
 * Rehearsal mode of the local stack (`npm start -- --rehearsal`, COBRO_REHEARSAL=1 in the tests):
 * the stack runs what `cdk deploy` would deploy. Every function runs from the bundle in the
 * synthesized assembly, in its own worker (./functions.ts), with exactly the template's variables
 * for it and its own key pair; the local endpoints sit behind gates (./gates.ts) that enforce its
 * role's policies from the template; the bus delivers by the template's rules, the stream and the
 * schedules invoke the template's functions. A missing grant, variable or bundled module fails here
 * as it would on AWS.
 */
import { randomBytes } from 'node:crypto';
import type { CachedAssembly } from '../../assembly.ts';
import { type FunctionPool, startFunctionPool } from './functions.ts';
import { type Caller, type Denial, type Gate, type Service, startGate } from './gates.ts';
import { type LocalNames, type RehearsalTemplate, readRehearsalTemplate, ruleTargets } from './template.ts';

export interface RehearsalOptions {
  assembly: CachedAssembly;
  names: LocalNames;
  /** The endpoints the gates stand in front of. */
  endpoints: Record<Service, string>;
  /** The stack's own key id: its own clients pass the gates unchecked. */
  stackKeyId: string;
  logDir: string;
  /** Variables only a local stack gives its functions (a laptop receives webhooks on loopback). */
  localAllowances: () => Record<string, string>;
  onDenied?: (denial: Denial) => void;
}

export interface Rehearsal {
  template: RehearsalTemplate;
  pool: FunctionPool;
  /** The gates' URLs, by service. */
  gates: Record<Service, string>;
  /** Each function's key pair, for the endpoints that check signatures (S3, Secrets Manager). */
  credentials: { access_key_id: string; secret_access_key: string }[];
  /**
   * Invokes a handler module's function (`functions/…/x.ts`) or a function by logical id: the target
   * names the local stack's parts pass around.
   */
  invoke(target: string, event: unknown, timeoutMs?: number): Promise<unknown>;
  /** The functions the template's rules deliver an event of this source and type to. */
  targetsFor(source: string, detailType: string): string[];
  close(): Promise<void>;
}

export async function startRehearsal(options: RehearsalOptions): Promise<Rehearsal> {
  const template = readRehearsalTemplate(options.assembly, options.names);
  const callers = new Map<string, Caller & { secret: string }>();
  const keyOf = new Map<string, string>();
  for (const fn of template.functions.values()) {
    // The key id names the role and the function, so whoever reads a denial knows who asked.
    const accessKeyId = `${fn.role}.${fn.logicalId}`;
    callers.set(accessKeyId, {
      accessKeyId,
      functionId: fn.logicalId,
      role: fn.role,
      statements: template.policies.get(fn.role) ?? [],
      secret: randomBytes(24).toString('base64url'),
    });
    keyOf.set(fn.logicalId, accessKeyId);
  }
  const gates: Gate[] = [];
  const urls = {} as Record<Service, string>;
  try {
    for (const service of Object.keys(options.endpoints) as Service[]) {
      const gate = await startGate({
        service,
        target: options.endpoints[service],
        region: options.names.region,
        account: options.names.account,
        stackKeyId: options.stackKeyId,
        callerOf: (keyId) => callers.get(keyId),
        ...(options.onDenied ? { onDenied: options.onDenied } : {}),
      });
      gates.push(gate);
      urls[service] = gate.url;
    }
  } catch (error) {
    await Promise.all(gates.map((gate) => gate.close()));
    throw error;
  }
  const pool = startFunctionPool({
    functions: template.functions,
    logDir: options.logDir,
    // Beyond the template's variables: what Lambda sets in every function, the endpoints (the
    // gates), and the function's own key pair. Nothing of the stack's own environment.
    platformEnvironment: (fn) => {
      const caller = callers.get(keyOf.get(fn.logicalId) ?? '');
      return {
        AWS_REGION: options.names.region,
        AWS_DEFAULT_REGION: options.names.region,
        AWS_ACCESS_KEY_ID: caller?.accessKeyId ?? '',
        AWS_SECRET_ACCESS_KEY: caller?.secret ?? '',
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.logicalId}`,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        AWS_ENDPOINT_URL_DYNAMODB: urls.dynamodb,
        AWS_ENDPOINT_URL_S3: urls.s3,
        AWS_ENDPOINT_URL_SES: urls.ses,
        AWS_ENDPOINT_URL_SESV2: urls.ses,
        AWS_ENDPOINT_URL_EVENTBRIDGE: urls.events,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: urls.secretsmanager,
        ...options.localAllowances(),
      };
    },
  });
  const logicalIdOf = (target: string): string => {
    if (template.functions.has(target)) return target;
    const fn = template.functionOf(target);
    if (!fn) throw new Error(`the template has no function for ${target}`);
    return fn.logicalId;
  };
  return {
    template,
    pool,
    gates: urls,
    credentials: [...callers.values()].map((caller) => ({
      access_key_id: caller.accessKeyId,
      secret_access_key: caller.secret,
    })),
    invoke: (target, event, timeoutMs) => pool.invoke(logicalIdOf(target), event, timeoutMs),
    targetsFor: (source, detailType) => ruleTargets(template.rules, source, detailType),
    async close() {
      await pool.close();
      await Promise.all(gates.map((gate) => gate.close()));
    },
  };
}
