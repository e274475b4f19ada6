/**
 * A made-up value a valibot schema accepts, for test events of any type (`cobro trigger`): objects
 * get every entry, a choice its first option, an optional or nullable value a real one, and a
 * string the format its checks ask for (e-mail, URL, ISO time, a length) or its name suggests (an
 * amount, a card's last digits). Ids are `<prefix>_test…`; a status is the one the event's type
 * names when it is among the choices (`payment.succeeded`: `succeeded`); `test` is true.
 */
import type * as v from 'valibot';

interface Walked {
  type: string;
  kind?: string;
  entries?: Record<string, Walked>;
  item?: Walked;
  items?: Walked[];
  options?: unknown[];
  enum?: Record<string, unknown>;
  literal?: unknown;
  wrapped?: Walked;
  pipe?: { kind: string; type: string; requirement?: unknown }[];
  default?: unknown;
}

/** Where a sample is made: its time, and the event type it is for. */
interface Context {
  now: Date;
  type: string;
}

/** The id prefixes of the records events carry, by the record's name. */
const idPrefixes: Record<string, string> = {
  payment: 'pay',
  charge: 'ch',
  subscription: 'sub',
  event: 'evt',
};

/** The record an `id` field names: `charge_id` names a charge; a bare `id`, the event's own record. */
function idPrefix(name: string, context: Context): string | undefined {
  if (name === 'id') return idPrefixes[context.type.split('.')[0]?.split('_')[0] ?? ''];
  const record = /^([a-z]+)_id$/.exec(name)?.[1];
  return record ? idPrefixes[record] : undefined;
}

/** A string its pipe's checks accept, guessed from the checks and the field's name. */
function sampleString(schema: Walked, name: string, context: Context): string {
  const now = context.now;
  const checks = schema.pipe ?? [];
  const has = (type: string) => checks.find((check) => check.type === type);
  if (has('email')) return 'customer@example.com';
  if (has('url')) return 'https://example.com/';
  if (has('iso_timestamp') || has('iso_date_time') || /(_at|_date|_start|_end|date_of_payment)$/.test(name))
    return has('iso_date') ? now.toISOString().slice(0, 10) : now.toISOString();
  if (has('iso_date')) return now.toISOString().slice(0, 10);
  const pattern = has('regex')?.requirement;
  const prefix =
    (pattern instanceof RegExp ? /^\^([a-z]+)_/.exec(pattern.source)?.[1] : undefined) ??
    idPrefix(name, context);
  const named: Record<string, string> = {
    currency: 'USD',
    amount: '10.00',
    card_last4: '4242',
    card_brand: 'visa',
  };
  let value = prefix
    ? `${prefix}_test${'0'.repeat(20)}`
    : (named[name] ??
      (name.includes('email')
        ? 'customer@example.com'
        : name.endsWith('url')
          ? 'https://example.com/'
          : `test ${name}`));
  const min = Number(has('min_length')?.requirement ?? has('length')?.requirement ?? 0);
  const max = Number(
    has('max_length')?.requirement ?? has('length')?.requirement ?? Number.POSITIVE_INFINITY,
  );
  if (value.length < min) value = value.padEnd(min, '0');
  if (value.length > max) value = value.slice(0, max);
  return value;
}

function sampleNumber(schema: Walked, name: string): number {
  const checks = schema.pipe ?? [];
  const min = checks.find((check) => check.type === 'min_value')?.requirement;
  const value = name.includes('amount') ? 1000 : 1;
  return typeof min === 'number' ? Math.max(min, value) : value;
}

/** The statuses a record has after each kind of event, nearest first. */
const statusesAfter: Record<string, string[]> = {
  succeeded: ['succeeded', 'completed', 'paid'],
  paid: ['paid', 'paid_period', 'completed'],
  activated: ['active'],
  renewed: ['active'],
  created: ['active', 'created'],
  canceled: ['canceled', 'cancelled'],
  payment_failed: ['past_due', 'failed'],
  failed: ['failed', 'declined'],
};

/** Of a choice's options, the one the event type names (`subscription.canceled`: `canceled`), else the first. */
function chosen(options: unknown[], context: Context): unknown {
  const verb = context.type.split('.').at(-1) ?? '';
  const wanted = statusesAfter[verb] ?? [verb];
  return wanted.map((status) => options.find((option) => option === status)).find(Boolean) ?? options[0];
}

function sampleOf(schema: Walked, name: string, context: Context): unknown {
  switch (schema.type) {
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest':
      return Object.fromEntries(
        Object.entries(schema.entries ?? {}).map(([key, entry]) => [key, sampleOf(entry, key, context)]),
      );
    case 'array':
      return schema.item ? [sampleOf(schema.item, name, context)] : [];
    case 'tuple':
    case 'strict_tuple':
    case 'loose_tuple':
      return (schema.items ?? []).map((item) => sampleOf(item, name, context));
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
    case 'undefinedable':
    case 'non_nullable':
    case 'non_optional':
    case 'non_nullish':
      return schema.wrapped ? sampleOf(schema.wrapped, name, context) : null;
    case 'union':
    case 'variant':
      return sampleOf((schema.options as Walked[])[0] as Walked, name, context);
    case 'picklist':
      return chosen(schema.options ?? [], context);
    case 'enum':
      return chosen(Object.values(schema.enum ?? {}), context);
    case 'literal':
      return schema.literal;
    case 'string':
      return sampleString(schema, name, context);
    case 'number':
      return sampleNumber(schema, name);
    case 'bigint':
      return 1n;
    case 'boolean':
      return name === 'test' || name === 'is_test';
    case 'null':
      return null;
    case 'record':
      return {};
    case 'date':
      return context.now;
    case 'lazy':
      return null;
    default:
      return null; // unknown, any: nothing in particular
  }
}

/**
 * A made-up `data` for an event of `type` whose schema is `schema` (check it with v.parse: a schema
 * this cannot guess fails there).
 */
export const sample = (schema: v.GenericSchema, type: string, now: Date): unknown =>
  sampleOf(schema as unknown as Walked, '', { now, type });
