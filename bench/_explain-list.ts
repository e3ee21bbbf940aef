/**
 * The list's page statement for each filter scenario at a million documents, EXPLAIN (ANALYZE,
 * BUFFERS) in custom and generic plans: shared buffers touched and rows read do not depend on how
 * busy the machine is, so they tell a flat filter from a walk when the timings cannot.
 *   DATABASE_URL=postgres://.../bench_list npx tsx bench/_explain-list.ts
 */
import postgres from 'postgres';
import { openDatabase, queryRows, sql } from '../src/db/client';
import { listDocumentsQuery, type ListFilters, type ListSort } from '../src/db/queries/receivable-document-list';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_list';

interface Node { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; 'Execution Time'?: number; Plan?: Node; Plans?: Node[]; 'Node Type'?: string; 'Index Name'?: string }

async function main() {
  const handle = await openDatabase({ url, poolSize: 2 });
  const [org] = await queryRows<{ id: string }>(handle.db, sql`select id from organizations where name = 'Bench list 1000000'`);
  const [customer] = await queryRows<{ id: string }>(handle.db, sql`select customer_id as id from receivable_documents where organization_id = ${org!.id} group by 1 order by count(*) desc limit 1`);
  const raw = postgres(url, { max: 1, onnotice: () => {} });
  const today = new Date().toISOString().slice(0, 10);
  const cases: [string, ListSort, ListFilters][] = [
    ['first page (created_at desc)', 'created_at', {}],
    ['state=issued', 'created_at', { states: ['issued'] }],
    ['state=draft,discarded', 'created_at', { states: ['discarded', 'draft'] }],
    ['state=disputed', 'created_at', { states: ['disputed'] }],
    ['state=cancelled (none)', 'created_at', { states: ['cancelled'] }],
    ['customer_id', 'created_at', { customerId: customer!.id }],
    ['currency=USD', 'created_at', { currency: 'USD' }],
    ['currency=SGD (none)', 'created_at', { currency: 'SGD' }],
    ['overdue=true', 'created_at', { overdue: true }],
    ['overdue=false (none)', 'created_at', { overdue: false }],
    ['updated_after one month, updated_at asc', 'updated_at', { updatedAfter: '2023-06-01T00:00:00Z', updatedBefore: new Date().toISOString() }],
    ['updated_after, default sort', 'created_at', { updatedAfter: '2023-06-01T00:00:00Z', updatedBefore: new Date().toISOString() }],
    ['updated_at desc', 'updated_at', {}],
    ['combined state, customer, currency, overdue', 'created_at', { states: ['disputed', 'issued'], customerId: customer!.id, currency: 'MYR', overdue: true }],
    ['overdue=true, due_on asc', 'due_on', { overdue: true }],
    ['overdue=false, due_on asc', 'due_on', { overdue: false }],
    ['state=disputed, reference asc', 'reference', { states: ['disputed'] }],
    ['currency=USD, gross_amount desc', 'gross_amount', { currency: 'USD' }],
  ];
  const sum = (n: Node, key: 'Shared Hit Blocks' | 'Shared Read Blocks'): number => n[key] ?? 0;
  const indexes = (n: Node): string[] => [...(n['Index Name'] ? [n['Index Name']] : []), ...(n.Plans ?? []).flatMap(indexes)];
  process.stdout.write('| scenario | plan | buffers | execution ms | indexes |\n| --- | --- | ---: | ---: | --- |\n');
  for (const [name, sort, filters] of cases) {
    const q = listDocumentsQuery(handle.db, { organizationId: org!.id, today, sort, order: sort === 'updated_at' && filters.updatedAfter ? 'asc' : sort === 'due_on' || sort === 'reference' ? 'asc' : 'desc', filters, take: 26 }).toSQL();
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await raw.unsafe(`set plan_cache_mode = ${mode}`);
      let best: Node | undefined;
      for (let i = 0; i < 3; i++) {
        const [row] = await raw.unsafe(`explain (analyze, buffers, format json) ${q.sql}`, q.params as never[]);
        const doc = (row as Record<string, unknown>)['QUERY PLAN'] as Node[];
        if (!best || (doc[0]!['Execution Time'] ?? 0) < (best['Execution Time'] ?? 0)) best = doc[0]!;
      }
      const plan = best!.Plan!;
      process.stdout.write(`| ${name} | ${mode === 'force_custom_plan' ? 'custom' : 'generic'} | ${sum(plan, 'Shared Hit Blocks') + sum(plan, 'Shared Read Blocks')} | ${best!['Execution Time']!.toFixed(2)} | ${[...new Set(indexes(plan))].map((i) => i.replace('receivable_documents_', '')).join(', ')} |\n`);
    }
  }
  await raw.end();
  await handle.close();
}
main().catch((e) => { process.stderr.write(`${e.stack ?? e}\n`); process.exit(1); });
