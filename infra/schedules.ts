/**
 * The steps the deployed stack runs on a schedule (the CLI runs the same steps on demand): one rule
 * per row of the schedule table, retried twice, with one dead-letter queue for every schedule (as the
 * event rules have theirs), so a run that keeps failing leaves a trace an alarm can see instead of
 * vanishing.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Schedule } from '../shared/stack/area.ts';
import { allowRulesToSend, deadLetterQueue, LambdaTargetWithDeadLetters, type RoutedRule } from './events.ts';
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
  /** Where every schedule's failed runs are parked. */
  readonly deadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, props: CobroSchedulesProps) {
    super(scope, id);
    // As for event rules, one queue catches the runs a rule could not deliver (the message's
    // attributes name the rule) and the runs a function still failed after Lambda's asynchronous
    // retries (the scheduled event in the body names its rule among its resources). A step only
    // does what is due, so the next run makes up for a failed one; the queue tells an operator that
    // runs keep failing.
    const queue = deadLetterQueue(this, 'ScheduleDlq');
    this.deadLetters = queue;
    for (const row of props.schedules) {
      const ruleId = `${pascalCase(row.name)}Schedule`;
      const target = props.functions.add({
        handler: row.target,
        access: row.access,
        timeout: Duration.minutes(5),
        // The role and log group it had when each schedule had a queue of its own keep their ids.
        deadLetters: { queue, profile: `${ruleId}Dlq` },
      });
      const rule = new events.Rule(this, ruleId, {
        ruleName: `cobro-${props.stage}-${row.name}`,
        schedule: events.Schedule.expression(row.expression),
        targets: [
          new LambdaTargetWithDeadLetters(target, queue, {
            retryAttempts: 2,
            // A run still undelivered after an hour is no use: the next one is due.
            maxEventAge: Duration.hours(1),
          }),
        ],
      });
      keepStackLevelId(rule);
      this.schedules.set(row.name, { rule, target, deadLetterQueue: queue });
    }
    allowRulesToSend(
      queue,
      [...this.schedules.values()].map(({ rule }) => rule),
    );
  }
}
