/**
 * The IAM statements an access row grants, and nothing else: the DynamoDB APIs the row names on the
 * table, Query on the indexes it names (by name, never index/*), PutEvents on the bus, reading the
 * secrets it reads, the media objects it reads or writes, and sending mail from the one sender
 * through the one SES identity. Derived from the row alone, so a test can hold every policy against
 * what its function's code calls (test/infra/permissions.test.ts).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Access, TableAction, TableIndex } from '../shared/http/route.ts';

/** The ARNs a row's grants point at. */
export interface AccessTargets {
  readonly tableArn: string;
  /** ARN of the table's index with this name. */
  readonly indexArn: (name: string) => string;
  readonly busArn: string;
  readonly mediaBucketArn: string;
  /** ARN of each secret the row reads. */
  readonly secretArns: readonly string[];
  /** ARN of the SES identity (address or domain) that verifies `mailFrom`. */
  readonly mailIdentityArn: string;
  readonly mailFrom: string;
}

/** The order statements list DynamoDB actions in, so that equal rows make equal policies. */
const actionOrder: readonly TableAction[] = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
  'Scan',
];

/** The yes-or-no parts of an access row. */
const accessFlags = ['events', 'mail', 'tokenSecret', 'fingerprintSecret', 'webhookKey'] as const;
// mergeAccess merges every part of an access row: a part added to Access fails type-checking here
// until it does.
const mergesEveryPart: Record<
  Exclude<keyof Access, 'table' | 'media' | (typeof accessFlags)[number]>,
  never
> = {};
void mergesEveryPart;

/**
 * One access row that grants what each of `rows` grants and nothing more: the function of a routed
 * area (the dashboard, shared/api/routes.ts `routedFunctions`) serves every row of it, so its role is
 * the union of its rows' access. The table's actions and indexes are the union of theirs; a flag is
 * set when a row sets it; media is `write` when a row writes, `read` when one only reads.
 */
export function mergeAccess(rows: readonly Access[]): Access {
  const actions = new Set<TableAction>(rows.flatMap((row) => row.table?.actions ?? []));
  const indexes = new Set<TableIndex>(rows.flatMap((row) => row.table?.indexes ?? []));
  const media = rows.some((row) => row.media === 'write')
    ? 'write'
    : rows.some((row) => row.media === 'read')
      ? 'read'
      : undefined;
  return {
    ...(rows.some((row) => row.table)
      ? {
          table: {
            actions: actionOrder.filter((action) => actions.has(action)),
            ...(indexes.size > 0 ? { indexes: [...indexes].sort() } : {}),
          },
        }
      : {}),
    ...(media ? { media } : {}),
    ...Object.fromEntries(
      accessFlags.filter((name) => rows.some((row) => row[name] === true)).map((name) => [name, true]),
    ),
  };
}

export function accessStatements(access: Access, to: AccessTargets): iam.PolicyStatement[] {
  const statements: iam.PolicyStatement[] = [];
  if (access.table) {
    const actions = actionOrder.filter((action) => access.table?.actions.includes(action));
    statements.push(
      new iam.PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [to.tableArn] }),
    );
    const indexes = [...(access.table.indexes ?? [])].sort();
    if (indexes.length > 0) {
      // An index answers Query only (and Scan, which no row gets on an index).
      statements.push(
        new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes.map(to.indexArn) }),
      );
    }
  }
  if (access.events)
    statements.push(new iam.PolicyStatement({ actions: ['events:PutEvents'], resources: [to.busArn] }));
  if (to.secretArns.length > 0) {
    // The value (any version: the current and the previous one) and nothing else, not DescribeSecret.
    statements.push(
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [...to.secretArns] }),
    );
  }
  if (access.media) {
    // Objects by name. Reading a missing object answers NoSuchKey (the image's 404) only to a
    // caller that may list the bucket; without it S3 answers AccessDenied.
    const objects = access.media === 'write' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject'];
    statements.push(new iam.PolicyStatement({ actions: objects, resources: [`${to.mediaBucketArn}/*`] }));
    statements.push(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [to.mediaBucketArn] }));
  }
  if (access.mail) {
    statements.push(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [to.mailIdentityArn],
        conditions: { StringEquals: { 'ses:FromAddress': to.mailFrom } },
      }),
    );
  }
  return statements;
}
