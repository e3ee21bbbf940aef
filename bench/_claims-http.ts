/**
 * Probe (not a benchmark): claim-list pages through HTTP on the seeded bench_claims (npm run bench --
 * claims seeds it), to the service as `npm start` runs it (bench/service-process.ts), with the CPU
 * each request costs the service's process and the PostgreSQL backends of the database (read from
 * /proc around each run), beside p50 and req/s.
 *   npx tsx bench/_claims-http.ts [seconds] [rounds]
 *   PATHS='scope=all&limit=100,scope=to_act&limit=100' NOBUILD=1 BENCH_NODE_FLAGS="--max-old-space-size=256 --cpu-prof --cpu-prof-dir=D" npx tsx bench/_claims-http.ts
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { backendsMs as backendsOf, cpuMs } from './process-cpu';
import { openDatabase, queryRows, sql } from '../src/db/client';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { buildService, startBuiltService } from './service-process';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_claims';
const database = new URL(url).pathname.slice(1);
const backendsMs = () => backendsOf(database);
const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const paths = (process.env.PATHS ?? 'scope=all&limit=100,scope=to_act&limit=100').split(',');

const handle = await openDatabase({ url, poolSize: 2 });
const [me] = await queryRows<{ id: string; organization_id: string }>(
  handle.db,
  sql`select m.id, m.organization_id from members m join organizations o on o.id = m.organization_id where o.name like 'Bench claims %' and o.name not like '%(%' and m.name = 'Bench approver' limit 1`,
);
if (!me) throw new Error('no seeded claims organization: run npm run bench -- claims first');
const key = await createApiKey(handle.db, { organizationId: me.organization_id, ownerMemberId: me.id, permissions: rolePermissions('owner') });
await handle.close();
if (!process.env.NOBUILD) buildService();
const service = await startBuiltService('service', { DATABASE_URL: url, PAYOUT_ENCRYPTION_KEY: randomBytes(32).toString('hex'), CURSOR_SECRET: randomBytes(32).toString('hex') });
const pid = service.child.pid!;
const headers = { authorization: `Bearer ${key.token}` };
try {
  for (const p of paths) await autocannon({ url: `${service.url}/v1/expenses/claims?${p}`, headers, connections: 2, duration: 3 });
  for (let round = 1; round <= rounds; round++) {
    for (const p of paths) {
      const s0 = cpuMs(pid);
      const b0 = backendsMs();
      const r = await autocannon({ url: `${service.url}/v1/expenses/claims?${p}`, headers, connections: 2, duration: seconds });
      const n = r.requests.total;
      process.stdout.write(
        `round ${round}  ${p.padEnd(24)} p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ${r.requests.average.toFixed(0)} req/s  ` +
          `service CPU ${((cpuMs(pid) - s0) / n).toFixed(2)} ms/req  PostgreSQL ${((backendsMs() - b0) / n).toFixed(2)} ms/req\n`,
      );
    }
  }
} finally {
  await service.stop();
}
