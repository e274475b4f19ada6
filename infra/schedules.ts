/**
 * The steps the deployed stack runs on a schedule (the CLI runs the same steps on demand): one rule
 * per row of the schedule table, retried twice, with a dead-letter queue per target like the event
 * rules, so a run that keeps failing leaves a trace an alarm can see instead of vanishing.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { Schedule } from '../shared/http/area.ts';
import { deadLetterQueue, type RoutedRule } from './events.ts';
import { type CobroFunctions, pascalCase } from './functions.ts';
import { keepStackLevelId } from './logical-ids.ts';
import type { Stage } from './stage.ts';

export interface CobroSchedulesProps {
  readonly stage: Stage;
  readonly functions: CobroFunctions;
  readonly schedules: readonly Schedule[];
}

export class CobroSchedules extends Construct {
  /** Each schedule, by its row's name. */
  readonly schedules = new Map<string, RoutedRule>();

  constructor(scope: Construct, id: string, props: CobroSchedulesProps) {
    super(scope, id);
    for (const row of props.schedules) {
      const ruleId = `${pascalCase(row.name)}Schedule`;
      // As for event rules, one queue catches the runs the rule could not deliver and the runs the
      // function still failed after Lambda's asynchronous retries. A step only does what is due, so
      // the next run makes up for a failed one; the queue tells an operator that runs keep failing.
      const queue = deadLetterQueue(this, `${ruleId}Dlq`);
      const target = props.functions.add({
        handler: row.target,
        access: row.access,
        timeout: Duration.minutes(5),
        deadLetterQueue: queue,
      });
      const rule = new events.Rule(this, ruleId, {
        ruleName: `cobro-${props.stage}-${row.name}`,
        schedule: events.Schedule.expression(row.expression),
        targets: [
          new targets.LambdaFunction(target, {
            deadLetterQueue: queue,
            retryAttempts: 2,
            // A run still undelivered after an hour is no use: the next one is due.
            maxEventAge: Duration.hours(1),
          }),
        ],
      });
      keepStackLevelId(rule);
      this.schedules.set(row.name, { rule, target, deadLetterQueue: queue });
    }
  }
}
