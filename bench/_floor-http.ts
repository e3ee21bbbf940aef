/**
 * Probe (not a benchmark): the floor's keyed reads through HTTP on the seeded bench_floor (npm run
 * bench -- floor seeds it), to the service as `npm start` runs it (bench/service-process.ts), with the CPU
 * each request costs the service's process and the PostgreSQL backends of the database (read from
 * /proc around each run), beside p50 and req/s.
 *   npx tsx bench/_floor-http.ts [seconds] [rounds]
 *   SIDE=minimal WHAT=customer,invoice,list NOBUILD=1 BENCH_NODE_FLAGS="--max-old-space-size=256 --cpu-prof --cpu-prof-dir=D" npx tsx bench/_floor-http.ts
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { backendsMs as backendsOf, cpuMs } from './process-cpu';
import { openDatabase, queryRows, sql } from '../src/db/client';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { buildService, LIMITS_OUT_OF_REACH, startBuiltService, startChild } from './service-process';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_floor';
const database = new URL(url).pathname.slice(1);
const backendsMs = () => backendsOf(database);
const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const what = (process.env.WHAT ?? 'customer').split(',');
const connections = Number(process.env.CONNECTIONS ?? 10);

const handle = await openDatabase({ url, poolSize: 2 });
const [me] = await queryRows<{ id: string; organization_id: string; customer: string; invoice: string }>(
  handle.db,
  sql`select m.id, m.organization_id,
    (select id from customers c where c.organization_id = o.id limit 1) as customer,
    (select id from receivable_documents d where d.organization_id = o.id and d.kind = 'sales_invoice' limit 1) as invoice
    from members m join member_roles mr on mr.member_id = m.id join roles r on r.id = mr.role_id join organizations o on o.id = m.organization_id
    where o.name = 'Acme Trading Sdn Bhd' and r.key = 'owner' and m.active limit 1`,
);
if (!me) throw new Error('no seeded floor organization: run npm run bench -- floor first');
const paths = what.map((w) => (w === 'invoice' ? `receivables/invoices/${me.invoice}` : w === 'list' ? 'receivables/invoices?limit=25' : `receivables/customers/${me.customer}`));
const key = await createApiKey(handle.db, { organizationId: me.organization_id, ownerMemberId: me.id, permissions: rolePermissions('owner') });
await handle.close();
// SIDE=minimal: the minimal floor (bench/minimal-floor-server.ts) in place of the service.
const minimal = process.env.SIDE === 'minimal';
if (!process.env.NOBUILD && !minimal) buildService();
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const service = minimal
  ? await startChild('minimal', [...nodeFlags, '--import', 'tsx', 'bench/minimal-floor-server.ts'], { DATABASE_URL: url, MINIMAL_RATE_LIMIT: LIMITS_OUT_OF_REACH, DATABASE_POOL_SIZE: '10' })
  : await startBuiltService('service', { DATABASE_URL: url, PAYOUT_ENCRYPTION_KEY: randomBytes(32).toString('hex'), CURSOR_SECRET: randomBytes(32).toString('hex') });
const pid = service.child.pid!;
const headers = { authorization: `Bearer ${key.token}` };
try {
  for (const p of paths) await autocannon({ url: `${service.url}/v1/${p}`, headers, connections, duration: 3 });
  for (let round = 1; round <= rounds; round++) {
    for (const p of paths) {
      const s0 = cpuMs(pid);
      const u0 = cpuMs(pid, 'user');
      const b0 = backendsMs();
      const r = await autocannon({ url: `${service.url}/v1/${p}`, headers, connections, duration: seconds });
      const n = r.requests.total;
      process.stdout.write(
        `round ${round}  ${p.slice(0, 24).padEnd(24)} p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ${r.requests.average.toFixed(0)} req/s  ` +
          `service CPU ${((cpuMs(pid) - s0) / n).toFixed(2)} ms/req (user ${((cpuMs(pid, 'user') - u0) / n).toFixed(2)})  PostgreSQL ${((backendsMs() - b0) / n).toFixed(2)} ms/req\n`,
      );
    }
  }
} finally {
  await service.stop();
}
