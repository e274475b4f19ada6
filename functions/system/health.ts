/**
 * GET /health: without credentials. One GetItem on the table, with a 1 s budget: 200 when the
 * store answers, 503 when it does not (unreachable) or answers with an error, so a probe sees a dead
 * dependency.
 */
import type * as v from 'valibot';
import type { HealthSchema, HealthUnavailableSchema } from '../../shared/core/envelopes.ts';
import { logger } from '../../shared/core/log.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { probeTable } from '../../shared/db/probe.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = makeDeps();

type Health = v.InferOutput<typeof HealthSchema>;
type HealthUnavailable = v.InferOutput<typeof HealthUnavailableSchema>;

export const handler = publicEndpoint(
  async () => {
    const dynamodb = await probeTable(deps, 1000);
    if (dynamodb === 'ok') return { status: 200, body: { status: 'ok' } satisfies Health };
    logger.warn('health: DynamoDB check failed', { dynamodb });
    return { status: 503, body: { status: 'unavailable', dynamodb } satisfies HealthUnavailable };
  },
  { parseBody: false },
);
