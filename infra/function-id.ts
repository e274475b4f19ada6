/**
 * How the CDK app names a handler's function (its construct id), in a module of its own so that
 * whatever reads the synthesized template (the local stack's rehearsal mode) finds a handler's
 * function without loading the CDK.
 */
import * as path from 'node:path';

/** `api-key-rotated-email` → `ApiKeyRotatedEmail`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * Construct id of a handler's function, from its file name (`functions/auth/get-api-keys.ts` →
 * `GetApiKeysFn`), so logical ids stay put when rows are reordered or added.
 */
export function functionId(handler: string): string {
  return `${pascalCase(path.basename(handler, path.extname(handler)))}Fn`;
}

/** The template metadata key on each function naming its handler module (`functions/…/x.ts`). */
export const handlerMetadataKey = 'cobro:handler';

/** The handler module a template resource's metadata names, if any. */
export const handlerOf = (resource: { Metadata?: Record<string, unknown> } | undefined) => {
  const handler = resource?.Metadata?.[handlerMetadataKey];
  return typeof handler === 'string' ? handler : undefined;
};
