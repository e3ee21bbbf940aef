/**
 * Probe (not a benchmark): statements per request for the floor scenarios, with their SQL.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npx tsx bench/_statements.ts
 */
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { pino } from 'pino';
import postgres from 'postgres';
import { loadConfig } from '../src/config';
import { MIGRATIONS_FOLDER, type Database } from '../src/db/client';
import * as schema from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import { seedDemo } from '../src/demo/seed-demo';
import { buildServer } from '../src/server';
import { createRateLimits } from '../src/services/rate-limit/limits';

const url = process.env.DATABASE_URL!;
let seen: string[] = [];
const client = postgres(url, { max: 10, onnotice: () => {}, debug: (_c, q) => seen.push(q) });
const db = drizzle(client, { schema }) as unknown as Database;
await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', CURSOR_SECRET: 'x'.repeat(40), PAYOUT_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_ORGANIZATION: '1000000', RATE_LIMIT_PER_MEMBER: '1000000' } as never);
const deps: AppDeps = { db, dbKind: 'postgres', config, log: pino({ level: 'silent' }), now: () => new Date(), rateLimits: createRateLimits(config, 'postgres', db) };
const demo = await seedDemo(deps, new Date());
const app = await buildServer(deps);
const acme = demo.organizations[0]!;
const owner = acme.members.find((m) => m.role === 'owner' && m.api_key)!;
const auth = { authorization: `Bearer ${owner.api_key}` };
const inv = acme.invoices.find((d) => d.kind === 'invoice' && d.state !== 'draft') ?? acme.invoices[0]!;
const customer = acme.customers[0]!;
const account = acme.accounts.find((a) => /revenue|sales|income/i.test(a.name)) ?? acme.accounts[0]!;
const tax = acme.tax_codes.find((t) => !/EXEMPT/.test(t.code)) ?? acme.tax_codes[0]!;
let n = 0;
const create = () => ({
  method: 'POST' as const,
  url: '/v1/receivables/invoices',
  headers: { ...auth, 'idempotency-key': `probe-${Date.now()}-${n++}`, 'content-type': 'application/json' },
  payload: JSON.stringify({ kind: 'sales_invoice', customer_id: customer.id, currency: 'MYR', lines: Array.from({ length: 5 }, (_, i) => ({ description: `Line ${i}`, quantity: '2', unit_price: '10.50', account_id: account.id, tax_code_id: tax.id })) }),
});
const scenarios: [string, () => { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; payload?: string }][] = [
  ['customer read', () => ({ method: 'GET', url: `/v1/receivables/customers/${customer.id}`, headers: auth })],
  ['invoice read', () => ({ method: 'GET', url: `/v1/receivables/invoices/${inv.id}`, headers: auth })],
  ['list page', () => ({ method: 'GET', url: `/v1/receivables/invoices`, headers: auth })],
  ['keyed create', create],
];
for (const [name, req] of scenarios) {
  for (let i = 0; i < 3; i++) await app.inject(req());
  seen = [];
  const res = await app.inject(req());
  console.log(`\n=== ${name}: ${res.statusCode} ${seen.length} statements`);
  if (res.statusCode >= 300) console.log(res.body.slice(0, 500));
  for (const s of seen) console.log('  - ' + s.replace(/\s+/g, ' ').slice(0, Number(process.env.W ?? 160)));
}
await app.close();
await client.end();
