/**
 * @cobro/client: a typed client of the cobro API. Its types are generated from cobro's OpenAPI
 * document (`npm run client:generate`); requests go through openapi-fetch.
 */
export {
  type AnswerOf,
  type BodyOf,
  type Cobro,
  type CobroOptions,
  createCobro,
  type ItemOf,
  type ListParams,
  type PagedPath,
  type PathOf,
} from './client.ts';
export { CobroError, type CobroErrorBody, isCobroError, type MessageEnvelope } from './errors.ts';
export type { components, operations, paths, webhooks } from './generated/openapi.ts';
export {
  type CobroEvent,
  type CobroEventType,
  type EventOf,
  type IncomingHeaders,
  verifyWebhook,
  WebhookVerificationError,
} from './webhooks.ts';
