/**
 * CDK entry point: `cdk synth -c stage=dev|prod`, optionally with `-c mailFrom=billing@example.org`,
 * `-c baseUrl=https://pay.example.com` (a custom domain in front of the API) and
 * `-c alarmEmail=ops@example.org` (who gets the stage's alarms).
 */
import { App } from 'aws-cdk-lib';
import { CobroStack, parseBaseUrl } from '../infra/cobro-stack.ts';
import { applyNag } from '../infra/nag.ts';
import { parseStage } from '../infra/stage.ts';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));
const mailFrom: unknown = app.node.tryGetContext('mailFrom');
const baseUrl = parseBaseUrl(app.node.tryGetContext('baseUrl'));
const alarmEmail: unknown = app.node.tryGetContext('alarmEmail');
new CobroStack(app, `cobro-${stage}`, {
  stage,
  mailFrom: typeof mailFrom === 'string' && mailFrom.length > 0 ? mailFrom : undefined,
  baseUrl,
  alarmEmail: typeof alarmEmail === 'string' && alarmEmail.length > 0 ? alarmEmail : undefined,
});
applyNag(app);
