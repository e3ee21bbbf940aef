import { parseArgs } from 'node:util';
import { textFault } from '../lib/input-text';
import { pino } from 'pino';
import { loadConfig, payoutEncryptionKey, type Config } from '../config';
import { databaseOptions, openDatabase, type Database, type DatabaseHandle } from '../db/client';
import type { AppDeps } from '../deps';
import { AppError } from '../lib/errors';
import { cliError, formatHuman, type CliStage } from './output';
import { revokeApiKey, revokeSession } from '../services/access/admin';
import { allApiKeysOf, checkApiKeyRequest, checkSessionRequest, issueApiKey, issueSession } from '../services/access/credentials';
import { addMember, deactivateMember, getMember, listMembersPage, setMemberPassword, type MemberView } from '../services/access/members';
import { adminContext, createOrganizationWithOwner, listAllOrganizations } from '../services/access/organization-setup';
import { seedDemo } from '../demo/seed-demo';
import { createRateLimits } from '../services/rate-limit/limits';

/**
 * The admin CLI (docs/design.md §10). Every command validates its arguments as the API validates
 * input (the same services), runs in one transaction, and with --json prints one JSON object:
 * the answer, or `{"error": {"code", "detail", "errors"?}}` with a non-zero exit code. No SQL, stack
 * or secret hash is ever printed: a fault that is not a refusal prints a generic `internal` error.
 */

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

  org create --name NAME --owner-email E --owner-password P [--owner-name NAME]
             [--currency MYR] [--time-zone Asia/Kuala_Lumpur] [--languages en,ms]
  org list
  member add --org ORG_ID --name NAME --email E [--password P] --roles owner|accountant|clerk|employee|viewer|<custom>[,...]
  member list --org ORG_ID
  member set-password --org ORG_ID --member MEMBER_ID --password P    (ends the member's sessions)
  member deactivate --org ORG_ID --member MEMBER_ID                   (revokes their sessions and API keys)
  key create --org ORG_ID --member MEMBER_ID [--permissions p1,p2 | default: the member's] [--name N] [--expires-at ISO]
  key list --org ORG_ID [--member MEMBER_ID]                          (never the secret)
  key revoke --org ORG_ID --id KEY_ID
  session create --org ORG_ID --member MEMBER_ID [--hours 1..720, default 12]
  session revoke --org ORG_ID --id SESSION_ID
  demo                 seed a fresh demo data set and print every id and credential

Passwords are 12 to 256 characters. Uses DATABASE_URL when set, else the embedded database in
DATA_DIR (./.data; stop the server first). With --json, errors are {"error":{"code","detail"}} too.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  currency: { type: 'string' },
  'time-zone': { type: 'string' },
  languages: { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-password': { type: 'string' },
  'owner-name': { type: 'string' },
  org: { type: 'string' },
  member: { type: 'string' },
  roles: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  permissions: { type: 'string' },
  'expires-at': { type: 'string' },
  id: { type: 'string' },
  hours: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

const COMMANDS = new Set([
  'org create',
  'org list',
  'member add',
  'member list',
  'member set-password',
  'member deactivate',
  'key create',
  'key list',
  'key revoke',
  'session create',
  'session revoke',
  'demo',
]);

/** An argument that is not of the command's shape: the CLI's 400. */
function badArgument(option: string, detail: string): AppError {
  return new AppError('invalid_request', { detail: `--${option} ${detail}`, errors: [{ pointer: `/${option}`, detail }] });
}

/** A text argument as the API takes text (trpc.ts, inputGuard): storable, and in Unicode NFC. */
function text(values: Values, option: string): string | undefined {
  const v = values[option];
  if (typeof v !== 'string') return undefined;
  const fault = textFault(v);
  if (fault) throw badArgument(option, fault);
  return v.normalize('NFC');
}

function required(values: Values, option: string): string {
  const v = text(values, option);
  if (v === undefined) throw badArgument(option, 'is required');
  return v;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidOf(values: Values, option: string, opts: { optional: true }): string | undefined;
function uuidOf(values: Values, option: string): string;
function uuidOf(values: Values, option: string, opts?: { optional: true }): string | undefined {
  const v = opts?.optional ? text(values, option) : required(values, option);
  if (v !== undefined && !UUID.test(v)) throw badArgument(option, 'must be a UUID');
  return v?.toLowerCase();
}

const listOf = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

function dateTimeOf(values: Values, option: string): Date | undefined {
  const v = text(values, option);
  if (v === undefined) return undefined;
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(d.getTime())) throw badArgument(option, 'must be an ISO 8601 date-time (e.g. 2030-01-31T00:00:00Z)');
  return d;
}

function integerOf(values: Values, option: string): number | undefined {
  const v = text(values, option);
  if (v === undefined) return undefined;
  if (!/^-?\d{1,9}$/.test(v)) throw badArgument(option, 'must be a whole number');
  return Number(v);
}

async function allMembers(ctx: Awaited<ReturnType<typeof adminContext>>): Promise<MemberView[]> {
  const out: MemberView[] = [];
  let cursor: string | undefined;
  do {
    const page = await listMembersPage(ctx, { limit: 100, cursor });
    out.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

async function run(db: Database, command: string, values: Values): Promise<unknown> {
  const now = new Date();
  const inOrg = async () => adminContext(db, uuidOf(values, 'org'), now);
  switch (command) {
    case 'org create': {
      const { organization: org, owner } = await createOrganizationWithOwner(db, now, {
        name: required(values, 'name'),
        base_currency: text(values, 'currency'),
        time_zone: text(values, 'time-zone'),
        record_languages: listOf(text(values, 'languages')),
        owner: { name: text(values, 'owner-name'), email: required(values, 'owner-email'), password: required(values, 'owner-password') },
      });
      return { id: org.id, name: org.name, base_currency: org.baseCurrency, time_zone: org.timeZone, record_languages: org.recordLanguages, owner };
    }
    case 'org list':
      return { organizations: await listAllOrganizations(db) };
    case 'member add': {
      const ctx = await inOrg();
      return addMember(ctx, {
        name: required(values, 'name'),
        email: required(values, 'email'),
        password: text(values, 'password'),
        roles: listOf(required(values, 'roles')) ?? [],
      });
    }
    case 'member list':
      return { members: await allMembers(await inOrg()) };
    case 'member set-password': {
      const ctx = await inOrg();
      const m = await setMemberPassword(ctx, { id: uuidOf(values, 'member'), password: required(values, 'password') });
      return { id: m.id, name: m.name, email: m.email, revision: m.revision, sessions_ended: m.sessions_ended };
    }
    case 'member deactivate': {
      const ctx = await inOrg();
      const member = await getMember(ctx, uuidOf(values, 'member'));
      return deactivateMember(ctx, { id: member.id, expected_revision: member.revision });
    }
    case 'key create': {
      const ctx = await inOrg();
      return issueApiKey(ctx, {
        member_id: uuidOf(values, 'member'),
        name: text(values, 'name'),
        permissions: listOf(text(values, 'permissions')),
        expires_at: dateTimeOf(values, 'expires-at'),
      });
    }
    case 'key list': {
      const ctx = await inOrg();
      return { keys: await allApiKeysOf(ctx, { member_id: uuidOf(values, 'member', { optional: true }) }) };
    }
    case 'key revoke': {
      const ctx = await inOrg();
      const id = uuidOf(values, 'id');
      await revokeApiKey(db, { organizationId: ctx.org.id, id, now });
      return { id, revoked: true };
    }
    case 'session create': {
      const ctx = await inOrg();
      return issueSession(ctx, { member_id: uuidOf(values, 'member'), hours: integerOf(values, 'hours') });
    }
    case 'session revoke': {
      const ctx = await inOrg();
      const id = uuidOf(values, 'id');
      await revokeSession(db, { organizationId: ctx.org.id, id, now });
      return { id, revoked: true };
    }
    default:
      throw new AppError('invalid_request', { detail: `Unknown command "${command}"` });
  }
}

/**
 * The refusals a command's arguments earn without the database (a date in the past, hours out of
 * range), given before it is opened: the same checks the services make, answered in a moment.
 */
function checkBeforeOpening(command: string, values: Values): void {
  if (command === 'key create') checkApiKeyRequest({ name: text(values, 'name'), permissions: listOf(text(values, 'permissions')), expires_at: dateTimeOf(values, 'expires-at') }, new Date());
  if (command === 'session create') checkSessionRequest({ hours: integerOf(values, 'hours') });
}

/** What the demo's operations need of a running process, as a test app builds it: silent, the real clock. */
function demoDeps(config: Config, handle: DatabaseHandle): AppDeps {
  return {
    db: handle.db,
    dbKind: handle.kind,
    config,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    rateLimits: createRateLimits(config, handle.kind, handle.db),
  };
}

async function main(): Promise<number> {
  const json = process.argv.includes('--json');
  let stage: CliStage = 'arguments';
  try {
    const { values, positionals } = parseArgs({ allowPositionals: true, strict: true, options: OPTIONS });
    if (values.help || positionals.length === 0) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const command = positionals[0] === 'demo' ? 'demo' : positionals.slice(0, 2).join(' ');
    if (!COMMANDS.has(command)) throw new AppError('invalid_request', { detail: `Unknown command "${positionals.join(' ')}"; run with --help for the list` });
    if (positionals.length > (command === 'demo' ? 1 : 2)) throw new Error(`Unexpected argument "${positionals.at(-1)}"`);
    // Ids are checked before the database is opened: a typo costs nothing.
    for (const option of ['org', 'member', 'id']) uuidOf(values, option, { optional: true });
    checkBeforeOpening(command, values);
    const config = loadConfig();
    // Checked before the database is opened: the demo's payout channels are encrypted under it.
    payoutEncryptionKey(config);
    stage = 'database';
    const handle = await openDatabase({ ...databaseOptions(config), poolSize: 2 });
    try {
      await handle.migrate();
      stage = 'command';
      // One transaction per command: a refusal or a fault leaves nothing behind (the demo opens its own).
      const result =
        command === 'demo'
          ? await seedDemo(demoDeps(config, handle), new Date())
          : await handle.db.transaction((tx) => run(tx as unknown as Database, command, values));
      process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${formatHuman(result)}\n`);
      return 0;
    } finally {
      await handle.close();
    }
  } catch (err) {
    const error = cliError(err, stage);
    if (json) process.stdout.write(`${JSON.stringify({ error })}\n`);
    else {
      const fields = (error.errors ?? []).map((e) => `\n  ${e.pointer}: ${e.detail}`).join('');
      process.stderr.write(`error (${error.code}): ${error.detail}${fields}\n`);
    }
    return 1;
  }
}

/**
 * Ends the process once what was written has left: on a pipe, stdout is written asynchronously and
 * process.exit() would cut a long answer (`org list --json` of a large database) at 64 KiB.
 */
function exitAfterOutput(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main().then(
  (code) => exitAfterOutput(code),
  () => exitAfterOutput(1),
);
