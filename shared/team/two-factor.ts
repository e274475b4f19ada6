/**
 * Enrolling and removing a user's TOTP second factor (docs/design.md#team-sign-in). The secret must be
 * read back to check codes, so it is kept sealed (AES-256-GCM under a key derived from the stage's
 * webhook key and this purpose, shared/core/secret-box.ts), never in clear and never as a plain hash.
 *
 * Enrolment is two steps: a new secret is sealed onto the user as pending (the page shows its QR
 * code and its text once), and becomes the user's second factor only when a code made from it is
 * sent back, so a user never ends up with a factor their app does not hold.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { envNames } from '../core/config.ts';
import { type SecretBox, secretBox } from '../core/secret-box.ts';
import { type Secret, stageSecret } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { teamKeys } from './keys.ts';
import { newTotpSecret, totpStep } from './totp.ts';
import type { TeamUser } from './users.ts';

export type TwoFactor = SecretBox;

/** Seals and opens TOTP secrets; made once per process. */
export const twoFactorBox = (key: Secret = stageSecret(envNames.webhookKey)): TwoFactor =>
  secretBox(key, 'dashboard totp secrets');

async function update(
  deps: Deps,
  userId: string,
  input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>,
) {
  try {
    await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: teamKeys.user(userId), ...input }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Starts an enrolment: a new secret, sealed onto the user as pending; answers it (shown once). */
export async function startEnrolment(deps: Deps, box: TwoFactor, user: TeamUser): Promise<string> {
  const secret = newTotpSecret();
  await update(deps, user.user_id, {
    UpdateExpression: 'SET totp_pending_sealed = :sealed, updated_at = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':sealed': await box.seal(secret), ':now': deps.clock().toISOString() },
  });
  return secret;
}

/** The pending secret of an enrolment under way, opened, or undefined. */
export async function pendingSecret(box: TwoFactor, user: TeamUser & { totp_pending_sealed?: string }) {
  return user.totp_pending_sealed ? box.open(user.totp_pending_sealed) : undefined;
}

/**
 * Ends an enrolment with a code from the pending secret: the user's second factor from now on
 * (its step taken, so the same code cannot sign in). False for a wrong code or no enrolment.
 */
export async function confirmEnrolment(
  deps: Deps,
  box: TwoFactor,
  user: TeamUser & { totp_pending_sealed?: string },
  code: string,
): Promise<boolean> {
  const secret = await pendingSecret(box, user);
  const step = secret === undefined ? undefined : totpStep(secret, code, deps.clock());
  if (step === undefined) return false;
  return update(deps, user.user_id, {
    UpdateExpression:
      'SET totp_sealed = totp_pending_sealed, totp_last_step = :step, updated_at = :now REMOVE totp_pending_sealed',
    ConditionExpression: 'totp_pending_sealed = :sealed',
    ExpressionAttributeValues: {
      ':step': step,
      ':sealed': user.totp_pending_sealed,
      ':now': deps.clock().toISOString(),
    },
  });
}

/** Removes a user's second factor (and any enrolment under way). */
export async function removeSecondFactor(deps: Deps, userId: string): Promise<boolean> {
  return update(deps, userId, {
    UpdateExpression: 'REMOVE totp_sealed, totp_pending_sealed, totp_last_step SET updated_at = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':now': deps.clock().toISOString() },
  });
}
