/**
 * EXPLAIN ANALYZE of the statement's open-items query for the ageing benchmark's customer with 10,000
 * documents: `npx tsx bench/_explain-statement.ts [to]`.
 */
import { openDatabase, queryRows, sql } from '../src/db/client';
import { openItemsOn } from '../src/db/queries/customer-statements';

async function main() {
  const handle = await openDatabase({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_ageing', poolSize: 1 });
  const db = handle.db;
  const [customer] = await queryRows<{ id: string; organization_id: string }>(
    db,
    sql`select c.id, c.organization_id from customers c join organizations o on o.id = c.organization_id
      where o.name like 'Bench ageing %' and o.name not like '%(%' and c.code = 'S-STATEMENT' limit 1`,
  );
  const asOf = process.argv[2] ?? '2025-01-01';
  const spy: typeof db = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return (q: ReturnType<typeof sql>) => target.execute(sql`explain (analyze, buffers) ${q}`);
    },
  });
  const rows = (await openItemsOn(spy, { organizationId: customer!.organization_id, customerId: customer!.id, states: ['issued', 'disputed'], asOf })) as unknown as Record<string, string>[];
  process.stdout.write(`${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  await handle.close();
}
main().catch((e) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
