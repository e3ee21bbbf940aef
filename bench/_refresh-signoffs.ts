/**
 * Probe (not a benchmark): the refresh of open sign-offs that follows a change of who may approve
 * (refreshOpenSignoffs), once, on the seeded bench_claims organization (100,000 open sign-offs; npm
 * run bench -- claims seeds it): wall time, statements sent and the peak of the heap.
 *   npx tsx bench/_refresh-signoffs.ts
 *   ACCOUNT=1 npx tsx bench/_refresh-signoffs.ts   (as an approver assignment's write runs it: the sign-offs on one account, the one with most)
 */
import { openDatabase, queryRows, sql } from '../src/db/client';
import { refreshOpenSignoffs } from '../src/services/workflow/approvals/claim-step';
import { contextFor } from '../tests/factories/context';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_claims';
let statements = 0;
const handle = await openDatabase({ url, poolSize: 4, onQuery: () => void (statements += 1) });
const [me] = await queryRows<{ id: string; organization_id: string }>(
  handle.db,
  sql`select m.id, m.organization_id from members m join organizations o on o.id = m.organization_id where o.name like 'Bench claims %' and o.name not like '%(%' and m.name = 'Bench approver' limit 1`,
);
if (!me) throw new Error('no seeded claims organization: run npm run bench -- claims first');
const ctx = await contextFor(handle.db, me.organization_id, me.id);
const [busiest] = await queryRows<{ account: string; n: number }>(
  handle.db,
  sql`select analytic_account_id::text as account, count(*)::int as n from claim_signoffs where organization_id = ${me.organization_id} and signature_id is null group by 1 order by 2 desc limit 1`,
);
const analyticAccountIds = process.env.ACCOUNT && busiest ? [busiest.account] : undefined;
const [open] = await queryRows<{ n: number }>(
  handle.db,
  sql`select count(*)::int as n from claim_signoffs where organization_id = ${me.organization_id} and signature_id is null and (${analyticAccountIds ? analyticAccountIds[0]! : null}::uuid is null or analytic_account_id = ${analyticAccountIds ? analyticAccountIds[0]! : null}::uuid)`,
);
statements = 0;
let peak = process.memoryUsage().heapUsed;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
const t0 = performance.now();
await refreshOpenSignoffs(ctx, { analyticAccountIds });
const ms = performance.now() - t0;
clearInterval(sampler);
process.stdout.write(`refreshOpenSignoffs over ${open!.n.toLocaleString('en')} open sign-offs${analyticAccountIds ? ' (one account)' : ''}: ${(ms / 1000).toFixed(1)} s, ${statements} statements, heap peak ${(peak / 1e6).toFixed(0)} MB\n`);
await handle.close();
