/**
 * Account administration: `city-context admin <command> [options]`, also `npm run admin -- …`
 * (scripts/admin.ts). The store is PostgreSQL when CITY_DATABASE_URL is set, else
 * `<CITY_DATA_DIR>/accounts.sqlite` (default ./var); opening it applies the schema migrations. Safe
 * to run beside the servers: it never releases their open reservations.
 */
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  AccountStoreError,
  openAccountStore,
  type AccountStore,
  KEY_KINDS,
  type Account,
  type ApiKeyInfo,
  type KeyKind,
  type PremiumEntitlement,
  type PremiumGrant,
  type UsageRow,
} from '../accounts/index.ts';
import type { Command, CommandIo } from './command.ts';

const usageText = (program: string) => `Usage: ${program} <command> [options]

Commands:
  create-account --name NAME --balance KM2 [--inactive]   create an account (active unless --inactive)
  create-key --account ID [--kind development|production]  create an API key (printed once; default development)
  revoke-key KEY_ID|PREFIX|KEY                             revoke a key
  top-up --account ID --km2 KM2                            add to an account's balance
  suspend --account ID                                     make the plan inactive (requests get 402)
  activate --account ID                                    make the plan active
  grant-premium --account ID (--dataset ID | --country CODE)
                                                           entitle to a premium building dataset, or to every
                                                           dataset of a country/region (DE also covers DE-BE)
  revoke-premium --account ID (--dataset ID | --country CODE)
                                                           take such an entitlement back (exactly as granted)
  usage --account ID [--limit N]                           show the newest ledger rows (default 20)
  list                                                     show accounts, their premium entitlements and keys
  migrate                                                  bring the store's schema up to date (every command does)
  help                                                     show this text

Every command takes --json for machine-readable output.
The store is PostgreSQL when CITY_DATABASE_URL (postgres://…) is set, else
$CITY_DATA_DIR/accounts.sqlite (CITY_DATA_DIR defaults to ./var).`;

/** Bad command line: exit 2 with the message and a pointer to the usage text. */
class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface AdminCommand {
  options: Options;
  positionals?: number;
  run(store: AccountStore, values: Values, positionals: string[]): Promise<{ text: string; json: unknown }>;
}

const ACCOUNT = { account: { type: 'string' } } as const satisfies Options;
const PREMIUM = { ...ACCOUNT, dataset: { type: 'string' }, country: { type: 'string' } } as const satisfies Options;

const COMMANDS: Record<string, AdminCommand> = {
  'create-account': {
    options: { name: { type: 'string' }, balance: { type: 'string' }, inactive: { type: 'boolean' } },
    async run(store, v) {
      const account = await store.createAccount({
        name: requireString(v, 'name'),
        balanceKm2: km2(requireString(v, 'balance'), '--balance'),
        active: v.inactive !== true,
      });
      return { text: `Created account ${account.id}: ${describeAccount(account)}`, json: account };
    },
  },
  'create-key': {
    options: { ...ACCOUNT, kind: { type: 'string' } },
    async run(store, v) {
      const kind = (v.kind ?? 'development') as KeyKind;
      if (!KEY_KINDS.includes(kind)) throw new UsageError(`--kind must be development or production, not "${String(v.kind)}".`);
      const created = await store.createKey(accountId(v), kind);
      const text =
        `Created ${kind} key ${created.keyId} (${created.prefix}…) for account ${accountId(v)}.\n` +
        `This is the only time the key is shown; store it now:\n${created.key}`;
      return { text, json: created };
    },
  },
  'revoke-key': {
    options: {},
    positionals: 1,
    async run(store, _v, [ref]) {
      const key = await store.revokeKey(ref!);
      return { text: `Revoked key ${key.id} (${key.prefix}…) of account ${key.accountId} at ${key.revokedAt}.`, json: key };
    },
  },
  'top-up': {
    options: { ...ACCOUNT, km2: { type: 'string' } },
    async run(store, v) {
      const account = await store.topUp(accountId(v), km2(requireString(v, 'km2'), '--km2'));
      return { text: `Topped up account ${account.id}: ${describeAccount(account)}`, json: account };
    },
  },
  suspend: {
    options: ACCOUNT,
    async run(store, v) {
      const account = await store.setActive(accountId(v), false);
      return { text: `Suspended account ${account.id}: ${describeAccount(account)}`, json: account };
    },
  },
  activate: {
    options: ACCOUNT,
    async run(store, v) {
      const account = await store.setActive(accountId(v), true);
      return { text: `Activated account ${account.id}: ${describeAccount(account)}`, json: account };
    },
  },
  'grant-premium': {
    options: PREMIUM,
    async run(store, v) {
      const id = accountId(v);
      const premium = await store.grantPremium(id, premiumGrant(v));
      return { text: `Account ${id}: ${describePremium(premium)}`, json: { accountId: id, premium } };
    },
  },
  'revoke-premium': {
    options: PREMIUM,
    async run(store, v) {
      const id = accountId(v);
      const premium = await store.revokePremium(id, premiumGrant(v));
      return { text: `Account ${id}: ${describePremium(premium)}`, json: { accountId: id, premium } };
    },
  },
  usage: {
    options: { ...ACCOUNT, limit: { type: 'string' } },
    async run(store, v) {
      const id = accountId(v);
      const account = await store.getAccount(id);
      if (!account) throw new AccountStoreError(`No account with id ${id}.`);
      const limit = v.limit === undefined ? 20 : positiveInteger(String(v.limit), '--limit');
      const rows = await store.usage(id, { limit });
      const premium = await store.premiumEntitlements(id);
      const text = [`Account ${id}: ${describeAccount(account)}`, `  ${describePremium(premium)}`, ...formatUsage(rows)].join('\n');
      return { text, json: { account, premium, usage: rows } };
    },
  },
  list: {
    options: {},
    async run(store) {
      const accounts = [];
      for (const account of await store.listAccounts()) {
        accounts.push({ ...account, premium: await store.premiumEntitlements(account.id), keys: await store.listKeys(account.id) });
      }
      if (accounts.length === 0) return { text: 'No accounts yet. Create one with create-account.', json: [] };
      const text = accounts
        .map((a) => [`${a.id}  ${describeAccount(a)}`, `    ${describePremium(a.premium)}`, ...a.keys.map((k) => `    ${describeKey(k)}`)].join('\n'))
        .join('\n');
      return { text, json: accounts };
    },
  },
  migrate: {
    options: {},
    async run(store) {
      // Opening the store has migrated it: this command exists so a deployment can do it before any node starts.
      return { text: `The ${store.kind} accounts store is up to date.`, json: { store: store.kind, migrated: true } };
    },
  },
};

const command: Command = {
  summary: 'accounts and API keys',
  help: usageText('city-context admin'),
  run: async (args, io) => runAdmin(args, io, 'city-context admin'),
};
export default command;

/** Runs one admin command; `program` is how the user called it (for the help text). */
export async function runAdmin(argv: string[], io: CommandIo, program: string): Promise<number> {
  const [name, ...rest] = argv;
  const fail = (code: number, message: string): number => {
    io.stderr.write(`error: ${message}\n`);
    if (code === 2) io.stderr.write(`Run "${program} help" for the commands and their options.\n`);
    return code;
  };
  if (name === undefined) {
    io.stderr.write(`${usageText(program)}\n`);
    return 2;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(`${usageText(program)}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return fail(2, `Unknown command "${name}".`);

  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
    const wanted = command.positionals ?? 0;
    if (positionals.length !== wanted) {
      throw new UsageError(wanted === 0 ? `${name} takes no positional arguments.` : `${name} takes exactly ${wanted} argument.`);
    }
  } catch (err) {
    return fail(2, `${name}: ${(err as Error).message}`);
  }

  const dataDir = resolve(io.env.CITY_DATA_DIR || './var');
  let store: AccountStore;
  try {
    store = await openAccountStore(
      { databaseUrl: io.env.CITY_DATABASE_URL || null, sqlitePath: join(dataDir, 'accounts.sqlite') },
      { releaseStale: false, staleSweepMs: 0 },
    );
  } catch (err) {
    return fail(1, `cannot open the accounts store: ${(err as Error).message}`);
  }
  try {
    const result = await command.run(store, values, positionals);
    io.stdout.write(`${values.json ? JSON.stringify(result.json, null, 2) : result.text}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return fail(2, `${name}: ${err.message}`);
    if (err instanceof AccountStoreError) return fail(1, `${name}: ${err.message}`);
    throw err;
  } finally {
    await store.close();
  }
}

function requireString(v: Values, option: string): string {
  const value = v[option];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${option} is required.`);
  return value;
}

function accountId(v: Values): number {
  return positiveInteger(requireString(v, 'account'), '--account');
}

/** --dataset or --country, exactly one. */
function premiumGrant(v: Values): PremiumGrant {
  const dataset = typeof v.dataset === 'string' ? v.dataset : undefined;
  const country = typeof v.country === 'string' ? v.country : undefined;
  if ((dataset === undefined) === (country === undefined)) throw new UsageError('give exactly one of --dataset ID or --country CODE.');
  return dataset !== undefined ? { kind: 'dataset', value: dataset } : { kind: 'country', value: country! };
}

function positiveInteger(text: string, option: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${option} must be a positive whole number, not "${text}".`);
  return Number(text);
}

function km2(text: string, option: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`${option} must be a number of km² ≥ 0, not "${text}".`);
  }
  return value;
}

function describeAccount(a: Account): string {
  return `"${a.name}", ${a.status}, balance ${a.balanceKm2} km² (${a.reservedKm2} km² reserved)`;
}

function describePremium(premium: PremiumEntitlement[]): string {
  if (premium.length === 0) return 'premium buildings: none';
  return `premium buildings: ${premium.map((e) => (e.kind === 'dataset' ? `dataset ${e.value}` : `country ${e.value}`)).join(', ')}`;
}

function describeKey(k: ApiKeyInfo): string {
  const state = k.revokedAt ? `revoked ${k.revokedAt}` : 'live';
  return `key ${k.id}  ${k.prefix}…  ${k.kind}  ${state}  last used ${k.lastUsedAt ?? 'never'}`;
}

function formatUsage(rows: UsageRow[]): string[] {
  if (rows.length === 0) return ['No usage yet.'];
  return [
    'id  key  status     area km²  cost km²  started                   finished',
    ...rows.map((r) =>
      [r.id, r.keyId, r.status.padEnd(9), String(r.areaKm2).padStart(8), String(r.costKm2).padStart(8), r.startedAt, r.finishedAt ?? '-'].join('  '),
    ),
  ];
}
