/**
 * Ageing as at a past day at a million documents: seeds (once) one organization into its own
 * PostgreSQL database with the list benchmark's seed (documents, receipts and allocations), starts
 * the server in this process on a free port and times GET /v1/receivables/reports/ageing through
 * HTTP, one request at a time: as at a day a year before the newest document, as at the newest
 * document's day, each with group=none, and the figures (DSO countback) as at the same past day.
 * Then the statement of one customer with 10,000 documents (handed to it once from the seed):
 * its open items as at the past day and as at the newest document's day, and its activity over the
 * year up to the past day. Prints each scenario's p50, p99 and worst against its budget (2 s for the
 * ageing and the figures, 500 ms for the statement), PASS or FAIL. The plan of the as-at statement:
 * `npx tsx bench/_explain-ageing.ts [as_of]`.
 *
 *   npx tsx bench/ageing.ts                      (or: npm run bench -- ageing)
 *   DATABASE_URL=postgres://... BENCH_DOCUMENTS=1000000 BENCH_RUNS=7 npx tsx bench/ageing.ts
 */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig } from '../src/config';
import { openDatabase, queryRows, sql, type Database } from '../src/db/client';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { createRateLimits } from '../src/services/rate-limit/limits';
import { seedListOrganization } from './seed-list';
import { median } from './stats';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_ageing';
const documents = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const runsPerScenario = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET_MS = 2000;
const STATEMENT_BUDGET_MS = 500;
const STATEMENT_DOCUMENTS = 10_000;
const STATEMENT_CUSTOMER = 'S-STATEMENT';
const orgName = `Bench ageing ${documents}`;

async function seeded(db: Parameters<typeof seedListOrganization>[0]): Promise<{ organizationId: string; apiKey: string }> {
  let [found] = await queryRows<{ id: string; n: number }>(
    db,
    sql`select o.id, (select count(*)::int from receivable_documents d where d.organization_id = o.id) as n from organizations o where o.name = ${orgName} limit 1`,
  );
  if (found && Number(found.n) === 0) {
    await queryRows(db, sql`update organizations set name = name || ' (abandoned ' || gen_random_uuid() || ')' where id = ${found.id}`);
    found = undefined;
  }
  if (found && Number(found.n) !== documents) throw new Error(`organization "${orgName}" holds ${found.n} documents, not ${documents}: drop the database and run again`);
  if (!found) {
    process.stdout.write(`Seeding ${documents.toLocaleString('en')} documents into ${url} ...\n`);
    const t0 = Date.now();
    const s = await seedListOrganization(db, { name: orgName, documents, bulk: true, log: (l) => process.stdout.write(`${l}\n`) });
    process.stdout.write(`Seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    return { organizationId: s.organizationId, apiKey: s.apiKey };
  }
  process.stdout.write(`Seed present (${documents.toLocaleString('en')} documents); skipping it\n`);
  const [owner] = await queryRows<{ id: string }>(db, sql`select id from members where organization_id = ${found.id} and name = 'Bench owner' limit 1`);
  if (!owner) throw new Error('bench owner missing');
  const key = await createApiKey(db, { organizationId: found.id, ownerMemberId: owner.id, permissions: rolePermissions('owner') });
  return { organizationId: found.id, apiKey: key.token };
}

/**
 * The list seed writes no timeline: one decision per issued document (draft → issued when it was
 * issued; a disputed one disputed a day later, its state_changed_at then), as issuing writes them, so that the as-at query reads
 * a timeline of a million decisions; then the tables the seed leaves unanalyzed are analyzed.
 */
async function withTimeline(db: Parameters<typeof seedListOrganization>[0], organizationId: string) {
  const [has] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from receivable_timeline where organization_id = ${organizationId}`);
  if (Number(has!.n) > 0) return;
  const t0 = Date.now();
  const [owner] = await queryRows<{ id: string }>(db, sql`select id from members where organization_id = ${organizationId} and name = 'Bench owner' limit 1`);
  await queryRows(
    db,
    sql`insert into receivable_timeline (organization_id, document_id, action_key, actor_member_id, decided_at, from_state, to_state)
      select organization_id, id, 'issue', ${owner!.id}::uuid, issued_at, 'draft', 'issued' from receivable_documents
      where organization_id = ${organizationId} and issued_at is not null
      union all
      select organization_id, id, 'dispute', ${owner!.id}::uuid, issued_at + interval '1 day', 'issued', 'disputed' from receivable_documents
      where organization_id = ${organizationId} and issued_at is not null and state = 'disputed'`,
  );
  // The dispute is a change of state after the issue, dated on the document as a transition dates it
  // (state_changed_at); its updated_at kept, as the seed's.
  await db.transaction(async (tx) => {
    await queryRows(tx as unknown as Database, sql`set local session_replication_role = replica`);
    await queryRows(
      tx as unknown as Database,
      sql`update receivable_documents set state_changed_at = issued_at + interval '1 day'
        where organization_id = ${organizationId} and issued_at is not null and state = 'disputed'`,
    );
  });
  await queryRows(db, sql`vacuum analyze receivable_timeline, allocations, receipts, customers`);
  process.stdout.write(`Timeline written and analyzed in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

/**
 * One customer with 10,000 documents, for the statement: made once by handing 10,000 of the seed's
 * documents (the first by id: a random sample of kinds, states, currencies and dates over the seven
 * years, drafts and settled ones included) to a customer of its own, with the receipts allocated to
 * them, so the organization still holds the million documents. In one transaction, so a customer
 * exists with all its documents or not at all; the buyer frozen on each document and the search text
 * carry the new name, as if the documents had been issued to it.
 */
async function withStatementCustomer(db: Parameters<typeof seedListOrganization>[0], organizationId: string): Promise<string> {
  const [found] = await queryRows<{ id: string; n: number }>(
    db,
    sql`select c.id, (select count(*)::int from receivable_documents d where d.organization_id = c.organization_id and d.customer_id = c.id) as n
      from customers c where c.organization_id = ${organizationId} and c.code = ${STATEMENT_CUSTOMER}`,
  );
  if (found && Number(found.n) !== STATEMENT_DOCUMENTS) throw new Error(`customer ${STATEMENT_CUSTOMER} holds ${found.n} documents, not ${STATEMENT_DOCUMENTS}: drop the database and run again`);
  if (found) return found.id;
  const t0 = Date.now();
  const name = 'Bench Statement Trading Sdn Bhd';
  const id = await db.transaction(async (tx) => {
    const run = <T,>(q: ReturnType<typeof sql>) => queryRows<T>(tx as unknown as Database, q);
    // The documents keep their updated_at (the trigger would stamp today on each).
    await run(sql`set local session_replication_role = replica`);
    const [customer] = await run<{ id: string }>(
      sql`insert into customers (organization_id, code, legal_name, party_kind, currency)
        values (${organizationId}::uuid, ${STATEMENT_CUSTOMER}, ${name}, 'organization', 'MYR') returning id`,
    );
    await run(sql`
      create temp table bench_statement_docs on commit drop as
      select id from receivable_documents where organization_id = ${organizationId}::uuid order by id limit ${STATEMENT_DOCUMENTS}`);
    await run(sql`
      update receivable_documents d set customer_id = ${customer!.id}::uuid,
        buyer = case when d.buyer is null then null else jsonb_set(d.buyer, '{name}', to_jsonb(${name}::text)) end,
        search_text = concat_ws(chr(31), d.reference, d.customer_reference, ${name}::text)
      from bench_statement_docs s where d.organization_id = ${organizationId}::uuid and d.id = s.id`);
    await run(sql`
      update receipts r set customer_id = ${customer!.id}::uuid
      from allocations a join bench_statement_docs s on s.id = a.invoice_id
      where a.organization_id = ${organizationId}::uuid and r.organization_id = a.organization_id and r.id = a.receipt_id`);
    return customer!.id;
  });
  await queryRows(db, sql`analyze receivable_documents, receipts, customers`);
  process.stdout.write(`Statement customer: ${STATEMENT_DOCUMENTS.toLocaleString('en')} documents handed to it in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  return id;
}

/** Report lines: CSV rows less header and total, the ageing's customers, the statement's lines over its currencies. */
function linesOf(path: string, body: string): number {
  if (path.includes('format=csv')) return body.trimEnd().split('\r\n').length - 2;
  const json = JSON.parse(body) as { customers?: unknown[]; currencies?: { lines: unknown[] }[] };
  if (json.currencies) return json.currencies.reduce((n, c) => n + c.lines.length, 0);
  return json.customers?.length ?? 1;
}

async function main() {
  const handle = await openDatabase({ url, poolSize: 4 });
  await handle.migrate();
  const db = handle.db;
  const { organizationId, apiKey } = await seeded(db);
  await withTimeline(db, organizationId);
  const statementCustomerId = await withStatementCustomer(db, organizationId);

  const config = loadConfig({
    DATABASE_URL: url,
    PAYOUT_ENCRYPTION_KEY: process.env.PAYOUT_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: '4',
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_ORGANIZATION: '100000000',
    RATE_LIMIT_PER_MEMBER: '100000000',
  } as NodeJS.ProcessEnv);
  const deps: AppDeps = { db, dbKind: 'postgres', config, log: pino({ level: 'silent' }), now: () => new Date(), rateLimits: createRateLimits(config, 'postgres', db) };
  const app = await buildServer(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const headers = { authorization: `Bearer ${apiKey}` };

  const [range] = await queryRows<{ newest: string; past: string }>(
    db,
    sql`select max(invoice_date)::text as newest, (max(invoice_date) - 365)::text as past from receivable_documents where organization_id = ${organizationId}`,
  );
  const [yearBefore] = await queryRows<{ day: string }>(db, sql`select (${range!.past}::date - 364)::text as day`);
  const statement = `/v1/receivables/customers/${statementCustomerId}/statement`;
  const scenarios: [string, string, number][] = [
    [`ageing as at ${range!.past} (a year back)`, `/v1/receivables/reports/ageing?as_of=${range!.past}`, BUDGET_MS],
    [`ageing as at ${range!.past}, group=none`, `/v1/receivables/reports/ageing?as_of=${range!.past}&group=none`, BUDGET_MS],
    [`ageing as at ${range!.newest} (newest document)`, `/v1/receivables/reports/ageing?as_of=${range!.newest}`, BUDGET_MS],
    [`ageing as at ${range!.past}, format=csv`, `/v1/receivables/reports/ageing?as_of=${range!.past}&format=csv`, BUDGET_MS],
    [`figures as at ${range!.past}`, `/v1/receivables/reports/figures?as_of=${range!.past}`, BUDGET_MS],
    [`statement (10,000 documents), open items as at ${range!.past}`, `${statement}?to=${range!.past}`, STATEMENT_BUDGET_MS],
    [`statement (10,000 documents), open items as at ${range!.newest}`, `${statement}?to=${range!.newest}`, STATEMENT_BUDGET_MS],
    [`statement (10,000 documents), activity ${yearBefore!.day} to ${range!.past}`, `${statement}?type=activity&from=${yearBefore!.day}&to=${range!.past}`, STATEMENT_BUDGET_MS],
  ];

  process.stdout.write(`\n${documents.toLocaleString('en')} documents; ${runsPerScenario} sequential requests per scenario (the first, a warm-up, not counted)\n`);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const table = [line(['scenario', 'lines', 'p50 ms', 'p99 ms', 'worst ms', 'budget', 'verdict']), line(['---', '---:', '---:', '---:', '---:', '---:', '---'])];
  let failed = 0;
  for (const [name, path, budget] of scenarios) {
    const times: number[] = [];
    let lines = 0;
    for (let i = 0; i <= runsPerScenario; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body}`);
      if (i === 0) {
        lines = linesOf(path, body);
        continue;
      }
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    const p50 = median(times);
    const p99 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!;
    const pass = p50 <= budget;
    if (!pass) failed += 1;
    table.push(line([name, String(lines), p50.toFixed(0), p99.toFixed(0), times.at(-1)!.toFixed(0), `${budget} ms`, pass ? 'PASS' : 'FAIL']));
    process.stdout.write(`  ${name.padEnd(72)} p50 ${p50.toFixed(0)} ms  p99 ${p99.toFixed(0)} ms\n`);
  }
  process.stdout.write(`\n${table.join('\n')}\n\nverdict on the p50 against each scenario's budget (ageing and figures ${BUDGET_MS} ms, statement ${STATEMENT_BUDGET_MS} ms)\n`);
  process.stdout.write(`SUMMARY: ${failed === 0 ? 'all PASS' : `${failed} FAIL`}\n`);
  await app.close();
  await handle.close();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
