/** `cobro accounts create | update | rotate-client-secret`: accounts, their profile and OAuth client. */
import { parseArgs } from 'node:util';
import {
  createAccount,
  credentialsOf,
  rotateClientSecret,
  updateProfile,
} from '../../shared/accounts/repository.ts';
import { AccountIdSchema, CreateAccountSchema, UpdateAccountSchema } from '../../shared/accounts/schemas.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { parsedOptions, UsageError } from './options.ts';
import { target } from './target.ts';

/** Options both account commands take: the profile, --json and --state-dir. */
const profileOptions = {
  'company-name': { type: 'string' },
  page: { type: 'string' },
  logo: { type: 'string' },
  'statement-descriptor': { type: 'string' },
  language: { type: 'string' },
  json: { type: 'boolean', default: false },
  'state-dir': { type: 'string' },
} as const;

function profileOf(values: {
  'company-name'?: string;
  page?: string;
  logo?: string;
  'statement-descriptor'?: string;
  language?: string;
}) {
  return {
    company_name: values['company-name'],
    page: values.page,
    logo: values.logo,
    statement_descriptor: values['statement-descriptor'],
    language: values.language,
  };
}

export async function accountsCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, email: { type: 'string' }, ...profileOptions },
  });
  const parsed = parsedOptions(CreateAccountSchema, {
    name: values.name,
    email: values.email,
    ...profileOf(values),
  });
  await target(values['state-dir']);
  // An empty profile value means "not set" here, as it does for accounts update.
  const input = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== ''));
  const result = credentialsOf(await createAccount(makeDeps(), input as typeof parsed));
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`account ${result.developer_id} created for ${result.name} <${result.email}>
  test key       ${result.test_key}
  live key       ${result.live_key}
  client_id      ${result.client_id}
  client_secret  ${result.client_secret}
Store these now: cobro keeps only their hashes.`);
}

export async function accountsUpdate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { id: { type: 'string' }, ...profileOptions },
  });
  const { id, ...profile } = parsedOptions(UpdateAccountSchema, { id: values.id, ...profileOf(values) });
  if (Object.values(profile).every((value) => value === undefined)) {
    throw new UsageError(
      'nothing to update: give at least one of --company-name, --page, --logo, --statement-descriptor, --language',
    );
  }
  await target(values['state-dir']);
  const account = await updateProfile(makeDeps(), id, profile);
  const shown = {
    developer_id: account.developer_id,
    name: account.name,
    email: account.email,
    company_name: account.company_name ?? null,
    page: account.page ?? null,
    logo: account.logo ?? null,
    statement_descriptor: account.statement_descriptor ?? null,
    language: account.language ?? 'en',
  };
  if (values.json) {
    console.log(JSON.stringify(shown));
    return;
  }
  console.log(`account ${shown.developer_id} updated
  company name          ${shown.company_name ?? '(not set: plans show the account name)'}
  page                  ${shown.page ?? '(not set)'}
  logo                  ${shown.logo ?? '(not set)'}
  statement descriptor  ${shown.statement_descriptor ?? '(not set: plans show the company name)'}
  e-mail language       ${shown.language}`);
}

export async function accountsRotateClientSecret(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const id = parsedOptions(AccountIdSchema, values.id);
  await target(values['state-dir']);
  const rotated = await rotateClientSecret(makeDeps(), id);
  if (values.json) {
    console.log(JSON.stringify(rotated));
    return;
  }
  console.log(`account ${id}: new client secret
  client_id      ${rotated.client_id}
  client_secret  ${rotated.client_secret}
The old secret no longer works; access tokens already issued work until they expire.
Store this now: cobro keeps only its hash.`);
}
