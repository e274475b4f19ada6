/**
 * CDK entry point: `cdk synth -c stage=dev|staging|prod`, with the other context keys of
 * infra/stage.ts (docs/operations.md lists them): `-c alarmEmail=ops@example.org` (required in
 * staging and prod), `-c mailFrom=billing@example.org`, `-c baseUrl=https://pay.example.com`, ...
 * A wrong value stops the synth with one line naming its key.
 */
import { App } from 'aws-cdk-lib';
import { CobroStack } from '../infra/cobro-stack.ts';
import { applyNag } from '../infra/nag.ts';
import { ContextError, stageConfig } from '../infra/stage.ts';

const app = new App();
let config: ReturnType<typeof stageConfig>;
try {
  config = stageConfig((key) => app.node.tryGetContext(key));
} catch (error) {
  if (!(error instanceof ContextError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
new CobroStack(app, `cobro-${config.stage}`, { config });
applyNag(app);
