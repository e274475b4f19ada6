/**
 * IAM policy evaluation for rehearsal mode, as AWS does it for one identity-based policy set: a
 * request is allowed when some Allow statement covers its action, its resource and its condition
 * keys, and no Deny statement does. Actions match case-insensitively with `*` and `?` wildcards,
 * resources case-sensitively. The condition operators the template uses are evaluated; any other
 * denies (an unknown condition never allows).
 */
import type { Statement } from './template.ts';

/** What one request asks: an action on a resource, with the condition keys it carries. */
export interface Request {
  action: string;
  resource: string;
  /** Condition keys (`ses:FromAddress`, `dynamodb:LeadingKeys`) and their values. */
  context?: Record<string, string[]>;
}

const patternCache = new Map<string, RegExp>();

/** `*` any run of characters, `?` one; everything else literal. */
export function wildcard(pattern: string, value: string, ignoreCase = false): boolean {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let regex = patternCache.get(key);
  if (!regex) {
    const source = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    regex = new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
    patternCache.set(key, regex);
  }
  return regex.test(value);
}

function conditionHolds(operator: string, key: string, wanted: string[], context: Record<string, string[]>) {
  const given = context[key];
  const match = (value: string) =>
    wanted.some((pattern) => {
      switch (operator.replace(/^ForAllValues:|^ForAnyValue:/, '')) {
        case 'StringEquals':
          return pattern === value;
        case 'StringEqualsIgnoreCase':
          return pattern.toLowerCase() === value.toLowerCase();
        case 'StringLike':
          return wildcard(pattern, value);
        default:
          return false;
      }
    });
  if (operator.startsWith('ForAllValues:')) return (given ?? []).every(match);
  if (operator.startsWith('ForAnyValue:')) return (given ?? []).some(match);
  // A single-valued operator needs the key present: a request without it does not match.
  return given !== undefined && given.length > 0 && given.every(match);
}

function covers(statement: Statement, request: Request): boolean {
  if (!statement.Action.some((action) => wildcard(action, request.action, true))) return false;
  if (!statement.Resource.some((resource) => wildcard(resource, request.resource))) return false;
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, values] of Object.entries(keys)) {
      if (!conditionHolds(operator, key, [values].flat(), request.context ?? {})) return false;
    }
  }
  return true;
}

/** Whether these statements allow the request. */
export function allowed(statements: readonly Statement[], request: Request): boolean {
  const matching = statements.filter((statement) => covers(statement, request));
  return matching.some((s) => s.Effect === 'Allow') && !matching.some((s) => s.Effect === 'Deny');
}
