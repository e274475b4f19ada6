/**
 * Stripe's request parameters: form bodies and query strings in bracket notation
 * (`metadata[cobro_attempt]=att_x`, `line_items[0][price_data][unit_amount]=1000`, `expand[]=a`,
 * `expand[0]=a`, `created[gte]=…`), read into a tree and then through `Params`, which answers
 * Stripe's 400s for a missing, malformed or unknown parameter.
 */
import { invalidRequest } from './errors.ts';

export type FormValue = string | FormTree;
/** Nested parameters; a list is a tree whose keys are its indexes ("0", "1", …). */
export type FormTree = Map<string, FormValue>;

const keyPattern = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/** Parses `a[b][c]=v&…` (a form body or a query string without its `?`) into a tree. */
export function parseForm(text: string): FormTree {
  const root: FormTree = new Map();
  for (const [key, value] of new URLSearchParams(text)) {
    const match = keyPattern.exec(key);
    if (!match?.[1]) throw invalidRequest(`Invalid parameter name: ${key}`, { code: 'parameter_unknown' });
    const segments = [match[1], ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')];
    let node = root;
    for (const [index, raw] of segments.entries()) {
      // `expand[]=a&expand[]=b`: an empty index appends, as Stripe's parser does.
      const segment = raw === '' ? String(node.size) : raw;
      const last = index === segments.length - 1;
      const existing = node.get(segment);
      if (last) {
        if (existing instanceof Map) throw invalidRequest(`Invalid hash: ${key}`, { param: key });
        node.set(segment, value);
        break;
      }
      if (typeof existing === 'string') throw invalidRequest(`Invalid hash: ${key}`, { param: key });
      const child: FormTree = existing ?? new Map();
      node.set(segment, child);
      node = child;
    }
  }
  return root;
}

/** A tree whose keys are 0, 1, … as a list, in index order; undefined when it is not one. */
function asList(tree: FormTree): FormValue[] | undefined {
  const keys = [...tree.keys()];
  if (!keys.every((key) => /^\d+$/.test(key))) return undefined;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((key) => tree.get(String(key)) as FormValue);
}

interface StringRule {
  required?: boolean;
  max?: number;
  oneOf?: readonly string[];
}

interface IntegerRule {
  required?: boolean;
  min?: number;
  max?: number;
}

/**
 * Reads one level of parameters. Every parameter read is remembered: `done()` then refuses the ones
 * nothing read, as Stripe refuses an unknown parameter, so a misspelt parameter fails here as it
 * would against Stripe.
 */
export class Params {
  readonly #tree: FormTree;
  readonly #prefix: string;
  readonly #read = new Set<string>();
  readonly #children: Params[] = [];

  constructor(tree: FormTree, prefix = '') {
    this.#tree = tree;
    this.#prefix = prefix;
  }

  /** The parameter's name as Stripe writes it in errors: `payment_intent_data[metadata]`. */
  name(key: string): string {
    return this.#prefix ? `${this.#prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.#tree.has(key);
  }

  #take(key: string): FormValue | undefined {
    this.#read.add(key);
    return this.#tree.get(key);
  }

  #scalar(key: string, required: boolean): string | undefined {
    const value = this.#take(key);
    if (value === undefined) {
      if (required) throw missing(this.name(key));
      return undefined;
    }
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: {...}`, { param: this.name(key) });
    return value;
  }

  string(key: string, rule: StringRule = {}): string | undefined {
    const value = this.#scalar(key, rule.required ?? false);
    if (value === undefined) return undefined;
    if (value === '') throw empty(this.name(key));
    if (rule.max !== undefined && value.length > rule.max)
      throw invalidRequest(
        `Invalid string: ${value.slice(0, 20)}...; must be at most ${rule.max} characters`,
        { code: 'parameter_invalid_string_too_long', param: this.name(key) },
      );
    if (rule.oneOf && !rule.oneOf.includes(value))
      throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${listWords(rule.oneOf)}`, {
        code: 'parameter_invalid_string',
        param: this.name(key),
      });
    return value;
  }

  integer(key: string, rule: IntegerRule = {}): number | undefined {
    const value = this.#scalar(key, rule.required ?? false);
    if (value === undefined) return undefined;
    if (value === '') throw empty(this.name(key));
    const parsed = /^-?\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed))
      throw invalidRequest(`Invalid integer: ${value}`, {
        code: 'parameter_invalid_integer',
        param: this.name(key),
      });
    if (rule.min !== undefined && parsed < rule.min)
      throw invalidRequest(
        `Invalid integer: ${value}. This value must be greater than or equal to ${rule.min}.`,
        { code: 'parameter_invalid_integer', param: this.name(key) },
      );
    if (rule.max !== undefined && parsed > rule.max)
      throw invalidRequest(
        `Invalid integer: ${value}. This value must be less than or equal to ${rule.max}.`,
        {
          code: 'parameter_invalid_integer',
          param: this.name(key),
        },
      );
    return parsed;
  }

  boolean(key: string): boolean | undefined {
    const value = this.#scalar(key, false);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false')
      throw invalidRequest(`Invalid boolean: ${value}`, {
        code: 'parameter_invalid_boolean',
        param: this.name(key),
      });
    return value === 'true';
  }

  /** `metadata[key]=value`: at most 50 keys of 40 characters, values of 500. */
  metadata(key: string): Record<string, string> | undefined {
    const value = this.#take(key);
    if (value === undefined) return undefined;
    // `metadata=` (empty) clears metadata in Stripe; on create it is the same as none.
    if (value === '') return {};
    if (typeof value === 'string')
      throw invalidRequest('Invalid metadata: metadata must be a hash', { param: this.name(key) });
    const out: Record<string, string> = {};
    for (const [name, entry] of value) {
      if (typeof entry !== 'string')
        throw invalidRequest('Invalid metadata: metadata values must be strings', {
          param: `${this.name(key)}[${name}]`,
        });
      if (name.length > 40)
        throw invalidRequest(`Metadata keys can have up to 40 characters: ${name}`, {
          param: `${this.name(key)}[${name}]`,
        });
      if (entry.length > 500)
        throw invalidRequest('Metadata values can have up to 500 characters', {
          param: `${this.name(key)}[${name}]`,
        });
      // An empty value unsets a key; on create there is nothing to unset.
      if (entry !== '') out[name] = entry;
    }
    if (Object.keys(out).length > 50)
      throw invalidRequest('Metadata can have up to 50 keys', { param: this.name(key) });
    return out;
  }

  /** A nested hash (`payment_intent_data[…]`), read by its own Params. */
  object(key: string): Params | undefined {
    const value = this.#take(key);
    if (value === undefined) return undefined;
    if (typeof value === 'string')
      throw invalidRequest(`Invalid object`, { code: 'parameter_invalid_object', param: this.name(key) });
    const child = new Params(value, this.name(key));
    this.#children.push(child);
    return child;
  }

  /** A list of hashes (`line_items[0][…]`). */
  objects(key: string): Params[] | undefined {
    const value = this.#take(key);
    if (value === undefined) return undefined;
    const list = typeof value === 'string' ? undefined : asList(value);
    if (!list)
      throw invalidRequest('Invalid array', { code: 'parameter_invalid_array', param: this.name(key) });
    return list.map((item, index) => {
      if (typeof item === 'string')
        throw invalidRequest('Invalid object', {
          code: 'parameter_invalid_object',
          param: `${this.name(key)}[${index}]`,
        });
      const child = new Params(item, `${this.name(key)}[${index}]`);
      this.#children.push(child);
      return child;
    });
  }

  /** A list of strings (`enabled_events[]=…`, `expand[0]=…`). */
  strings(key: string): string[] | undefined {
    const value = this.#take(key);
    if (value === undefined) return undefined;
    // `expand=payment_intent` is taken as a list of one, as Stripe does.
    if (typeof value === 'string') return value === '' ? [] : [value];
    const list = asList(value);
    if (!list || list.some((item) => typeof item !== 'string'))
      throw invalidRequest('Invalid array', { code: 'parameter_invalid_array', param: this.name(key) });
    return list as string[];
  }

  /**
   * A range such as `created[gte]=…&created[lt]=…`, or `created=…` for one instant: as the bounds
   * of a half-open interval of unix seconds.
   */
  range(key: string): { gte?: number; gt?: number; lte?: number; lt?: number } | undefined {
    const value = this.#tree.get(key);
    if (value === undefined) return undefined;
    if (typeof value === 'string') {
      const at = this.integer(key);
      return at === undefined ? undefined : { gte: at, lte: at };
    }
    const child = this.object(key) as Params;
    const range = {
      gte: child.integer('gte'),
      gt: child.integer('gt'),
      lte: child.integer('lte'),
      lt: child.integer('lt'),
    };
    return Object.fromEntries(Object.entries(range).filter(([, bound]) => bound !== undefined));
  }

  /** Refuses what nothing read, here and in every nested hash read through this one. */
  done(): void {
    for (const key of this.#tree.keys()) {
      if (!this.#read.has(key))
        throw invalidRequest(`Received unknown parameter: ${this.name(key)}`, {
          code: 'parameter_unknown',
          param: this.name(key),
        });
    }
    for (const child of this.#children) child.done();
  }
}

function missing(param: string) {
  return invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
}

function empty(param: string) {
  return invalidRequest(
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    { code: 'parameter_invalid_empty', param },
  );
}

function listWords(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')}, or ${words.at(-1)}`;
}
