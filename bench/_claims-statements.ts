/**
 * Probe (not a benchmark): the statements one claim-list page sends on the seeded bench_claims, each
 * replayed under EXPLAIN ANALYZE for its execution time, and the page's wall time in-process.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_claims npx tsx bench/_claims-statements.ts [query] [repeat]
 * query defaults to `scope=to_act`; repeat (default 20) requests are timed after the warm-up.
 */
import { pino } from 'pino';
import postgres from 'postgres';
import { loadConfig } from '../src/config';
import { openDatabase, queryRows, sql } from '../src/db/client';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { createRateLimits } from '../src/services/rate-limit/limits';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_claims';
const query = process.argv[2] ?? 'scope=to_act';
const repeat = Number(process.argv[3] ?? 20);

async function main() {
  let seen: { q: string; p: unknown[] }[] = [];
  const handle = await openDatabase({ url, poolSize: 10, onQuery: (q, p) => void seen.push({ q, p }) });
  const db = handle.db;
  const [me] = await queryRows<{ id: string; organization_id: string }>(
    db,
    sql`select m.id, m.organization_id from members m join organizations o on o.id = m.organization_id where o.name like 'Bench claims %' and o.name not like '%(%' and m.name = 'Bench approver' limit 1`,
  );
  const key = await createApiKey(db, { organizationId: me!.organization_id, ownerMemberId: me!.id, permissions: rolePermissions('owner') });
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', PAYOUT_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_PER_ORGANIZATION: '100000000', RATE_LIMIT_PER_MEMBER: '100000000' } as never);
  const deps: AppDeps = { db, dbKind: 'postgres', config, log: pino({ level: 'silent' }), now: () => new Date(), rateLimits: createRateLimits(config, 'postgres', db) };
  const app = await buildServer(deps);
  const get = () => app.inject({ method: 'GET', url: `/v1/expenses/claims?${query}`, headers: { authorization: `Bearer ${key.token}` } });
  for (let i = 0; i < 5; i++) await get();
  seen = [];
  const res = await get();
  if (res.statusCode !== 200) throw new Error(res.body);
  const captured = seen;
  seen = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < repeat; i++) await get();
  const wall = (performance.now() - t0) / repeat;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${query}: ${(JSON.parse(res.body) as { claims: unknown[] }).claims.length} claims, ${captured.length} statements, ${wall.toFixed(1)} ms a request in-process, this process's CPU ${((cpu.user + cpu.system) / 1000 / repeat).toFixed(1)} ms a request (mean of ${repeat})\n`);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  let total = 0;
  for (const { q, p } of captured) {
    if (!/^\s*select/i.test(q)) {
      process.stdout.write(`   -      ${q.replace(/\s+/g, ' ').slice(0, 150)}\n`);
      continue;
    }
    let ms = Infinity;
    for (let i = 0; i < 3; i++) {
      const [plan] = (await client.unsafe(`explain (analyze, format json) ${q}`, p as never[])) as unknown as { 'QUERY PLAN': { 'Execution Time': number; 'Planning Time': number; Plan: { 'Actual Rows': number } }[] }[];
      ms = Math.min(ms, plan!['QUERY PLAN'][0]!['Execution Time'] + plan!['QUERY PLAN'][0]!['Planning Time']);
    }
    total += ms;
    if (process.env.PLAN && q.includes(process.env.PLAN)) {
      const plan = (await client.unsafe(`explain (analyze, buffers) ${q}`, p as never[])) as unknown as Record<string, string>[];
      process.stdout.write(`${plan.map((r) => `        ${r['QUERY PLAN']}`).join('\n')}\n`);
    }
    process.stdout.write(`  ${ms.toFixed(2).padStart(6)} ms ${q.replace(/\s+/g, ' ').slice(0, Number(process.env.W ?? 150))}\n`);
  }
  process.stdout.write(`  ${total.toFixed(2).padStart(6)} ms in all (planning and execution, best of 3)\n`);
  await client.end();
  await app.close();
  await handle.close();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
