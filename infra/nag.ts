/**
 * cdk-nag wiring, shared by the app and the tests so both check exactly the same way.
 */
import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/** Attaches the AwsSolutions rule pack to an app; an unacknowledged error fails its synth. */
export function applyNag(app: App): void {
  // verbose: the report then says why a rule exists, not only that it fired.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
}
