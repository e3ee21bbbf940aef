/** Probe: N keyed reads (or WHAT=create: 5-line creates) through app.inject on an already seeded database (DATABASE_URL); run with node --cpu-prof. */
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
  from organizations o where o.name = 'Acme Trading Sdn Bhd' limit 1`);
const key = await createApiKey(db, { organizationId: org!.id, ownerMemberId: org!.owner, permissions: rolePermissions('owner') });
// WHAT=create: the floor's 5-line invoice (a fresh Idempotency-Key each time), on the first customer in the base currency.
const [fx] = await queryRows<{ customer: string; currency: string; account: string; tax: string }>(db, sql`select
  (select c.id from customers c where c.organization_id = o.id and c.is_active and c.currency = o.base_currency order by c.created_at limit 1) as customer, o.base_currency as currency,
  (select id from accounts where organization_id = o.id and type = 'revenue' and active order by code limit 1) as account,
  (select id from tax_codes where organization_id = o.id and active and tax_type = '01' order by code limit 1) as tax
  from organizations o where o.id = ${org!.id}`);
const createBody = JSON.stringify({
  kind: 'sales_invoice',
  customer_id: fx!.customer,
  currency: fx!.currency,
  customer_reference: 'PO-BENCH',
  lines: Array.from({ length: 5 }, (_, i) => ({ account_id: fx!.account, description: `Bench line ${i + 1}`, quantity: String(i + 1), unit_price: '12.50', tax_code_id: fx!.tax })),
});
const create = process.env.WHAT === 'create';
const path = create ? '/v1/receivables/invoices' : process.env.WHAT === 'invoice' ? `/v1/receivables/invoices/${org!.invoice}` : process.env.WHAT === 'list' ? '/v1/receivables/invoices' : `/v1/receivables/customers/${org!.customer}`;
const n = Number(process.env.N ?? 3000);
const conc = 10;
async function drive(count: number) {
  let done = 0;
  await Promise.all(Array.from({ length: conc }, async () => {
    while (done < count) {
      done++;
      const r = create
        ? await app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, payload: createBody })
        : await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key.token}` } });
      if (r.statusCode !== (create ? 201 : 200)) throw new Error(r.body);
    }
  }));
}
// Warm (JIT, caches, prepared statements), then measured: wall time and this process's CPU per request.
await drive(Number(process.env.WARM ?? 2000));
// PROMISES=1: count the promises made per request (async_hooks), beside the CPU.
let promises = 0;
const sites = new Map<string, number>();
if (process.env.PROMISES)
  (await import('node:async_hooks'))
    .createHook({
      init: (_id, type) => {
        if (type !== 'PROMISE') return;
        promises++;
        // PROMISES=sites: where they are made (the first two frames outside node's own code).
        if (process.env.PROMISES !== 'sites') return;
        const frames = (new Error().stack ?? '').split('\n').slice(2).filter((f) => !f.includes('node:') && !f.includes('async_hooks'));
        const site = frames.slice(0, 2).map((f) => f.trim().replace(/\(.*node_modules\//, '(').replace(/^at /, '')).join(' < ');
        sites.set(site, (sites.get(site) ?? 0) + 1);
      },
    })
    .enable();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await drive(n);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(`${path}: ${n} in ${ms.toFixed(0)} ms = ${(n / (ms / 1000)).toFixed(0)} req/s, cpu ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/req${process.env.PROMISES ? `, ${(promises / n).toFixed(1)} promises/req` : ''}`);
for (const [site, count] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(count / n).toFixed(2).padStart(6)}  ${site}`);
await app.close();
await handle.close();
