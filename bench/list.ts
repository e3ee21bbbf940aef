/**
 * Receivables list at a million documents: seeds (once) one organization into PostgreSQL, starts
 * the server in this process on a free port and measures GET /v1/receivables/invoices through HTTP
 * with autocannon: the first page, a page reached after 10,000 documents (for every sort), each
 * filter (state, customer_id, currency, overdue and updated_after among them), and q with a 3- and a
 * 10-character term, in rounds (the first plain page opening each).
 * Prints p50, p99 and requests per second, each scenario's p50 against the first page's, and PASS
 * or FAIL: within 2× of the first page, and a q shape below 30 ms too (issue 13).
 *
 *   npx tsx bench/list.ts                      (or: npm run bench -- list)
 *   DATABASE_URL=postgres://... BENCH_DOCUMENTS=1000000 BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=2 npx tsx bench/list.ts
 *   BENCH_ONLY='^q,' npx tsx bench/list.ts    (the first page and the scenarios whose name matches)
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { loadConfig } from '../src/config';
import { openDatabase, queryRows, sql } from '../src/db/client';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { createRateLimits } from '../src/services/rate-limit/limits';
import { seedListOrganization } from './seed-list';
import { median } from './stats';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_list';
const documents = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** Every scenario's p50 within this factor of the first plain page's, and every q shape below the ceiling (issue 13). */
const FLOOR_FACTOR = 2;
const Q_CEILING_MS = 30;

const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const orgName = `Bench list ${documents}`;
/** 10,000 at a million documents; less on a small trial run so that filtered walks still reach it. */
const deep = Math.min(10_000, Math.floor(documents / 100 / 100) * 100);

async function main() {
  const handle = await openDatabase({ url, poolSize: 10 });
  await handle.migrate();
  const db = handle.db;

  let [found] = await queryRows<{ id: string; n: number }>(
    db,
    sql`select o.id, (select count(*)::int from receivable_documents d where d.organization_id = o.id) as n from organizations o where o.name = ${orgName} limit 1`,
  );
  if (found && Number(found.n) === 0) {
    // A seed that failed half-way left an empty organization: set it aside and seed again.
    await queryRows(db, sql`update organizations set name = name || ' (abandoned ' || gen_random_uuid() || ')' where id = ${found.id}`);
    found = undefined;
  }
  if (found && Number(found.n) !== documents) {
    throw new Error(`organization "${orgName}" holds ${found.n} documents, not ${documents}: drop the database and run again`);
  }
  let apiKey: string;
  let organizationId: string;
  if (!found) {
    process.stdout.write(`Seeding ${documents.toLocaleString('en')} documents into ${url} ...\n`);
    const t0 = Date.now();
    const seeded = await seedListOrganization(db, { name: orgName, documents, bulk: true, log: (l) => process.stdout.write(`${l}\n`) });
    process.stdout.write(`Seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    apiKey = seeded.apiKey;
    organizationId = seeded.organizationId;
  } else {
    process.stdout.write(`Seed present (${documents.toLocaleString('en')} documents); skipping it\n`);
    organizationId = found.id;
    const [owner] = await queryRows<{ id: string }>(db, sql`select id from members where organization_id = ${organizationId} and name = 'Bench owner' limit 1`);
    if (!owner) throw new Error('bench owner missing');
    apiKey = (await createApiKey(db, { organizationId, ownerMemberId: owner.id, permissions: rolePermissions('owner') })).token;
  }

  // The benchmark measures the list, not the rate limiter: limits far above what it sends.
  const config = loadConfig({
    DATABASE_URL: url,
    // Required with DATABASE_URL; the benchmark writes no payout channels, so a throwaway key will do.
    PAYOUT_ENCRYPTION_KEY: process.env.PAYOUT_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: '10',
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_ORGANIZATION: '100000000',
    RATE_LIMIT_PER_MEMBER: '100000000',
  } as NodeJS.ProcessEnv);
  const deps: AppDeps = {
    db,
    dbKind: 'postgres',
    config,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    rateLimits: createRateLimits(config, 'postgres', db),
  };
  const app = await buildServer(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const headers = { authorization: `Bearer ${apiKey}` };

  const getJson = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { documents: { id: string; reference: string | null }[]; next_cursor: string | null };
  };
  /** The URL of the page that starts after `skip` documents (cursors followed 100 at a time). */
  const deepUrl = async (params: string, skip: number) => {
    let cursor: string | null = null;
    for (let seen = 0; seen < skip; seen += 100) {
      const page = await getJson(`/v1/receivables/invoices?${params}${params ? '&' : ''}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      cursor = page.next_cursor;
      if (!cursor) throw new Error(`fewer than ${skip} documents for ${params}`);
    }
    return `/v1/receivables/invoices?${params}${params ? '&' : ''}cursor=${cursor}`;
  };

  const [project] = await queryRows<{ id: string; n: number }>(
    db,
    sql`select s.analytic_account_id as id, count(*)::int as n from receivable_line_shares s where s.organization_id = ${organizationId}
        group by 1 order by 2 desc limit 1`,
  );
  const [customer] = await queryRows<{ id: string; n: number }>(
    db,
    sql`select customer_id as id, count(*)::int as n from receivable_documents where organization_id = ${organizationId} group by 1 order by 2 desc limit 1`,
  );
  // An incremental sync's usual case: changes in the last few days of the seed.
  const [latest] = await queryRows<{ at: string }>(
    db,
    sql`select to_char((max(updated_at) - interval '3 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from receivable_documents where organization_id = ${organizationId}`,
  );
  const recent = latest!.at;
  // A reference prefix: INV- and the first six of eight digits, shared by up to 100 documents.
  const tenChars = `INV-${String(Math.floor(documents / 2)).padStart(8, '0').slice(0, 6)}`;

  const scenarios: [string, string][] = [['first page (created_at desc)', '/v1/receivables/invoices']];
  scenarios.push([`page after ${deep.toLocaleString('en')} (created_at desc)`, await deepUrl('', deep)]);
  for (const sort of ['invoice_date', 'due_on', 'gross_amount', 'reference', 'updated_at']) {
    for (const order of ['asc', 'desc']) {
      scenarios.push([`first page, ${sort} ${order}`, `/v1/receivables/invoices?sort=${sort}&order=${order}`]);
      scenarios.push([`page after ${deep.toLocaleString('en')}, ${sort} ${order}`, await deepUrl(`sort=${sort}&order=${order}`, deep)]);
    }
  }
  const filters: [string, string][] = [
    ['kind=customer_debit_note', 'kind=customer_debit_note'],
    ['group=only', 'group=only'],
    ['group=none', 'group=none'],
    [`project_id (${project?.n ?? 0} documents)`, `project_id=${project?.id}`],
    ['outstanding=true', 'outstanding=true'],
    ['outstanding=false', 'outstanding=false'],
    ['invoice_date one month', 'invoice_date_from=2022-03-01&invoice_date_to=2022-03-31'],
    ['invoice_date one month, sort=invoice_date', 'invoice_date_from=2022-03-01&invoice_date_to=2022-03-31&sort=invoice_date'],
    ['invoice_date three years (2021-2023)', 'invoice_date_from=2021-01-01&invoice_date_to=2023-12-31'],
    ['q, 3 characters ("jay")', 'q=jay'],
    ['q, 3 characters, no match ("zqx")', 'q=zqx'],
    [`q, 10 characters ("${tenChars}")`, `q=${encodeURIComponent(tenChars)}`],
    ['q, 10 characters, customer name ("Harmoni Lo")', `q=${encodeURIComponent('Harmoni Lo')}`],
    ['combined: kind, group=none, outstanding, date range', 'kind=sales_invoice&group=none&outstanding=true&invoice_date_from=2021-01-01&invoice_date_to=2023-12-31'],
    ['state=issued (the common one)', 'state=issued'],
    ['state=draft&state=discarded (2%)', 'state=draft&state=discarded'],
    ['state=disputed (1%)', 'state=disputed'],
    ['state, no match (cancelled)', 'state=cancelled'],
    [`customer_id (${customer?.n ?? 0} documents)`, `customer_id=${customer?.id}`],
    ['currency=USD (1 in 29)', 'currency=USD'],
    ['currency, no match (SGD)', 'currency=SGD'],
    ['overdue=true', 'overdue=true'],
    ['overdue=false (none due yet)', 'overdue=false'],
    ['updated_after, one month, sort=updated_at asc', 'updated_after=2023-06-01T00:00:00Z&sort=updated_at&order=asc'],
    ['updated_after, recent, sort=updated_at asc', `updated_after=${encodeURIComponent(recent)}&sort=updated_at&order=asc`],
    ['updated_after, default sort', 'updated_after=2023-06-01T00:00:00Z'],
    ['first page, updated_at desc', 'sort=updated_at&order=desc'],
    ['combined: state, customer, currency, overdue', `state=issued&state=disputed&customer_id=${customer?.id}&currency=MYR&overdue=true`],
  ];
  for (const [name, params] of filters) {
    scenarios.push([name, `/v1/receivables/invoices?${params}`]);
  }
  for (const [name, params] of [
    ['kind=customer_debit_note', 'kind=customer_debit_note'],
    ['group=only', 'group=only'],
    ['q, 3 characters ("jay")', 'q=jay'],
    ['state=draft&state=discarded', 'state=draft&state=discarded'],
    ['currency=USD', 'currency=USD'],
    ['overdue=true', 'overdue=true'],
    ['updated_after, sort=updated_at asc', 'updated_after=2023-06-01T00:00:00Z&sort=updated_at&order=asc'],
  ] as const) {
    scenarios.push([`${name}, page after ${deep.toLocaleString('en')}`, await deepUrl(params, deep)]);
  }

  // Rounds: every scenario once per round, the first plain page at the start of each. A scenario is
  // judged on the median of its rounds' p50s against the median of the first page's (so that a few
  // seconds in which the machine slowed move one round, not the verdict): at most FLOOR_FACTOR
  // times the first page's, and a q shape also below Q_CEILING_MS (issue 13).
  const picked = scenarios.filter(([name], i) => i === 0 || !only || only.test(name));
  process.stdout.write(
    `\n${documents.toLocaleString('en')} documents; ${connections} connections, ${seconds} s per scenario, ${rounds} round${rounds === 1 ? '' : 's'}\n`,
  );
  const runs = new Map<string, { rows: number; p50: number[]; p99: number[]; rps: number[] }>();
  for (let round = 1; round <= rounds; round++) {
    for (const [name, path] of picked) {
      const rows = (await getJson(path)).documents.length;
      const result = await autocannon({ url: `${base}${path}`, headers, connections, duration: seconds });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      const run = runs.get(name) ?? { rows, p50: [], p99: [], rps: [] };
      run.p50.push(result.latency.p50);
      run.p99.push(result.latency.p99);
      run.rps.push(result.requests.average);
      runs.set(name, run);
      process.stdout.write(`  round ${round}  ${name.padEnd(52)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ${result.requests.average.toFixed(0)} req/s\n`);
    }
  }
  const floorName = picked[0]![0];
  const floorP50 = median(runs.get(floorName)!.p50);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const table = [
    line(['scenario', 'rows', 'p50 ms', 'p99 ms', 'req/s', 'p50 / first page', 'verdict']),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---']),
  ];
  let failed = 0;
  for (const [name, run] of runs) {
    const p50 = median(run.p50);
    const ratio = p50 / floorP50;
    const isQ = name.startsWith('q,');
    const pass = ratio <= FLOOR_FACTOR && (!isQ || p50 < Q_CEILING_MS);
    if (!pass) failed += 1;
    const rule = `≤ ${FLOOR_FACTOR}×${isQ ? `, < ${Q_CEILING_MS} ms` : ''}`;
    table.push(line([name, String(run.rows), p50.toFixed(1), median(run.p99).toFixed(1), median(run.rps).toFixed(0), ratio.toFixed(2), `${pass ? 'PASS' : 'FAIL'} (${rule})`]));
  }
  process.stdout.write(`\n${table.join('\n')}\n\n`);
  process.stdout.write(
    `p50, p99, req/s: the median of the ${rounds} rounds' figures. p50 / first page: against the median of the first page's p50s (${floorP50.toFixed(1)} ms).\n`,
  );
  process.stdout.write(`SUMMARY: ${failed === 0 ? 'all PASS' : `${failed} FAIL`}\n`);
  await app.close();
  await handle.close();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
