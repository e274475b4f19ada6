/**
 * The stateful resources: the table, the event bus and the media bucket with its access-log
 * bucket. Each keeps the logical id it had at stack level (infra/logical-ids.ts): a new id would
 * make CloudFormation replace it.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table.ts';
import { keepStackLevelId } from './logical-ids.ts';
import type { StageConfig } from './stage.ts';

export class CobroData extends Construct {
  readonly table: dynamodb.TableV2;
  readonly bus: events.EventBus;
  readonly mediaBucket: s3.Bucket;
  readonly accessLogBucket: s3.Bucket;

  constructor(scope: Construct, id: string, config: StageConfig) {
    super(scope, id);
    const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: key(tableDefinition.partitionKey),
      sortKey: key(tableDefinition.sortKey),
      globalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      dynamoStream: dynamodb.StreamViewType[tableDefinition.streamView],
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.tableDeletionProtection,
      // Payment records outlive any stack, in every stage: deleting the stack never deletes the data.
      removalPolicy: RemovalPolicy.RETAIN,
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
    });

    this.bus = new events.EventBus(this, 'Bus', { eventBusName: `cobro-${config.stage}` });

    // Buckets follow the stage: dev may destroy them (an empty one; CloudFormation leaves a bucket
    // that still holds objects and reports it), staging and prod keep them.
    this.accessLogBucket = new s3.Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: config.removalPolicy,
    });
    this.mediaBucket = new s3.Bucket(this, 'MediaBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: 'media/',
      removalPolicy: config.removalPolicy,
    });

    for (const construct of [this.table, this.bus, this.accessLogBucket, this.mediaBucket])
      keepStackLevelId(construct);
  }
}
