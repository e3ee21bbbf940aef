import { parseArgs } from 'node:util';
import { loadConfig, payoutEncryptionKey } from '../config';
import { openDatabase, type Database } from '../db/client';
import { AppError } from '../lib/errors';
import { addMember, createApiKey, createOrganization, createSession, revokeApiKey, revokeSession } from '../services/access/admin';
import { seedDemo } from '../services/demo/seed-demo';
import '../services/register';

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

  org create --name NAME [--currency MYR] [--time-zone Asia/Kuala_Lumpur] [--languages en,ms]
  member add --org ORG_ID --name NAME --roles owner|accountant|clerk|employee|viewer[,...] [--email E]
  key create --org ORG_ID --member MEMBER_ID [--permissions p1,p2 | default: the member's] [--name N] [--expires-at ISO]
  key revoke --org ORG_ID --id KEY_ID
  session create --org ORG_ID --member MEMBER_ID [--hours 12]
  session revoke --org ORG_ID --id SESSION_ID
  demo                 seed a fresh demo data set and print every id and credential

Uses DATABASE_URL when set, else the embedded database in DATA_DIR (./.data).`;

type Values = Record<string, string | boolean | undefined>;

function need(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new Error(`--${name} is required\n\n${USAGE}`);
  return v;
}

const list = (v: string | boolean | undefined) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

async function run(db: Database, words: string[], values: Values, payoutKey: Buffer): Promise<unknown> {
  const now = new Date();
  const command = words.slice(0, 2).join(' ');
  switch (words[0] === 'demo' ? 'demo' : command) {
    case 'org create': {
      const org = await createOrganization(db, {
        name: need(values, 'name'),
        baseCurrency: values.currency as string | undefined,
        timeZone: values['time-zone'] as string | undefined,
        recordLanguages: list(values.languages),
      });
      return { id: org.id, name: org.name, base_currency: org.baseCurrency, time_zone: org.timeZone, record_languages: org.recordLanguages };
    }
    case 'member add': {
      const roles = list(values.roles) ?? [];
      const m = await addMember(db, { organizationId: need(values, 'org'), name: need(values, 'name'), email: values.email as string | undefined, roles });
      return { id: m.id, name: m.name, roles, active: m.active };
    }
    case 'key create': {
      const organizationId = need(values, 'org');
      const memberId = need(values, 'member');
      const permissions = list(values.permissions) ?? (await memberRolePermissions(db, organizationId, memberId));
      const expiresAt = typeof values['expires-at'] === 'string' ? new Date(values['expires-at']) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new Error('--expires-at must be an ISO 8601 date-time');
      const key = await createApiKey(db, { organizationId, ownerMemberId: memberId, permissions, expiresAt, name: values.name as string | undefined });
      return { id: key.id, api_key: key.token, permissions: key.permissions, expires_at: key.expiresAt };
    }
    case 'key revoke':
      await revokeApiKey(db, { organizationId: need(values, 'org'), id: need(values, 'id'), now });
      return { revoked: true };
    case 'session create': {
      const hours = Number(values.hours ?? 12);
      const s = await createSession(db, {
        organizationId: need(values, 'org'),
        memberId: need(values, 'member'),
        now,
        expiresAt: new Date(now.getTime() + hours * 3600_000),
      });
      return { id: s.id, session_token: s.token, expires_at: s.expiresAt };
    }
    case 'session revoke':
      await revokeSession(db, { organizationId: need(values, 'org'), id: need(values, 'id'), now });
      return { revoked: true };
    case 'demo':
      return db.transaction((tx) => seedDemo(tx as unknown as Database, now, { payoutKey }));
    default:
      throw new Error(USAGE);
  }
}

async function memberRolePermissions(db: Database, organizationId: string, memberId: string): Promise<string[]> {
  const { memberPermissions } = await import('../db/queries/access');
  return memberPermissions(db, { organizationId, memberId });
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      name: { type: 'string' },
      currency: { type: 'string' },
      'time-zone': { type: 'string' },
      languages: { type: 'string' },
      org: { type: 'string' },
      member: { type: 'string' },
      roles: { type: 'string' },
      email: { type: 'string' },
      permissions: { type: 'string' },
      'expires-at': { type: 'string' },
      id: { type: 'string' },
      hours: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    await handle.migrate();
    const result = await run(handle.db, positionals, values, payoutEncryptionKey(config));
    process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatHuman(result)}\n`);
  } finally {
    await handle.close();
  }
}

function formatHuman(result: unknown): string {
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    return Object.entries(result)
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('\n');
  }
  return JSON.stringify(result, null, 2);
}

main().catch((err) => {
  const message = err instanceof AppError ? `${err.appCode}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});

