/** Probe: N keyed reads through app.inject on an already seeded database (DATABASE_URL); run with node --cpu-prof. */
import { pino } from 'pino';
import { loadConfig } from '../src/config';
import { openDatabase, queryRows, sql } from '../src/db/client';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { createRateLimits } from '../src/services/rate-limit/limits';

const url = process.env.DATABASE_URL!;
const handle = await openDatabase({ url, poolSize: 10 });
const db = handle.db;
const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', CURSOR_SECRET: 'x'.repeat(40), PAYOUT_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_PER_ORGANIZATION: '100000000', RATE_LIMIT_PER_MEMBER: '100000000' } as never);
const deps: AppDeps = { db, dbKind: 'postgres', config, log: pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination('/dev/null')), now: () => new Date(), rateLimits: createRateLimits(config, 'postgres', db) };
const app = await buildServer(deps);
const [org] = await queryRows<{ id: string; owner: string; customer: string; invoice: string }>(db, sql`select o.id,
  (select m.id from members m join member_roles mr on mr.member_id = m.id join roles r on r.id = mr.role_id where m.organization_id = o.id and r.key = 'owner' and m.active limit 1) as owner,
  (select id from customers c where c.organization_id = o.id limit 1) as customer,
  (select id from receivable_documents d where d.organization_id = o.id and d.kind = 'sales_invoice' limit 1) as invoice
  from organizations o where o.name like 'Acme%' limit 1`);
const key = await createApiKey(db, { organizationId: org!.id, ownerMemberId: org!.owner, permissions: rolePermissions('owner') });
const path = process.env.WHAT === 'invoice' ? `/v1/receivables/invoices/${org!.invoice}` : process.env.WHAT === 'list' ? '/v1/receivables/invoices' : `/v1/receivables/customers/${org!.customer}`;
const n = Number(process.env.N ?? 3000);
const conc = 10;
async function drive(count: number) {
  let done = 0;
  await Promise.all(Array.from({ length: conc }, async () => {
    while (done < count) { done++; const r = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key.token}` } }); if (r.statusCode !== 200) throw new Error(r.body); }
  }));
}
// Warm (JIT, caches, prepared statements), then measured: wall time and this process's CPU per request.
await drive(Number(process.env.WARM ?? 2000));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await drive(n);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(`${path}: ${n} in ${ms.toFixed(0)} ms = ${(n / (ms / 1000)).toFixed(0)} req/s, cpu ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/req`);
await app.close();
await handle.close();
