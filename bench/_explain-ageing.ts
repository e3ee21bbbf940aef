/** EXPLAIN ANALYZE of the ageing's statement on the ageing benchmark's database: `npx tsx bench/_explain-ageing.ts [as_of]`. */
import { openDatabase, queryRows, sql } from '../src/db/client';
import { ageingAsAt } from '../src/db/queries/receivables-reports';

async function main() {
  const handle = await openDatabase({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_ageing', poolSize: 1 });
  const db = handle.db;
  const [org] = await queryRows<{ id: string }>(db, sql`select id from organizations where name like 'Bench ageing %' and name not like '%(%' limit 1`);
  const asOf = process.argv[2] ?? '2025-01-01';
  // The statement explained as sent, in the transaction the query opens, after the settings it makes there (JIT off, work_mem).
  const spyOn = (d: typeof db): typeof db =>
    new Proxy(d, {
      get(target, prop, receiver) {
        if (prop === 'transaction') return (run: (tx: typeof db) => unknown) => target.transaction((tx) => run(spyOn(tx as unknown as typeof db)) as Promise<unknown>);
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return (q: ReturnType<typeof sql>) => (JSON.stringify(q.queryChunks).includes('set_config(') ? target.execute(q) : target.execute(sql`explain (analyze, buffers) ${q}`));
      },
    });
  const spy = spyOn(db);
  const rows = (await ageingAsAt(spy, { organizationId: org!.id, asOf, states: ['issued', 'disputed'], timeZone: 'Asia/Kuala_Lumpur', edges: [30, 60, 90, 120] })) as unknown as Record<string, string>[];
  process.stdout.write(`${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  await handle.close();
}
main().catch((e) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
