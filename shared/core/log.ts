/** Structured JSON logs (Powertools). Never log bodies, headers, keys or card data. */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'cobro' });
