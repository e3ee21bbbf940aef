import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { listCustomersQuery, type CustomerListQuery } from '../../src/db/queries/customers';
import { createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

/**
 * The customer list's plans on PostgreSQL with an organization large enough for the planner to care
 * (150,000 customers): every sort, first and deep page, is an index scan in the sort's order stopped
 * by the LIMIT (never a Sort over the organization), and a rare search term reads the trigram index.
 */
const t = useTestApp();

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

const INDEX = { code: 'customers_org_code_c', legal_name: 'customers_org_legal_name', created_at: 'customers_org_created' } as const;

describe.skipIf(!onPostgres)('customer list plans on PostgreSQL', () => {
  let organizationId: string;
  beforeAll(async () => {
    const org = await createTestOrganization(t.db);
    organizationId = org.id;
    await queryRows(
      t.db,
      sql`insert into customers (organization_id, code, legal_name, party_kind, currency, is_active, created_at)
        select ${organizationId}::uuid, 'PLAN-' || lpad(g::text, 7, '0'), 'Syarikat ' || md5(g::text) || ' Sdn Bhd', 'organization', 'MYR',
               g % 10 <> 0, now() - (g || ' seconds')::interval
        from generate_series(1, 150000) g`,
    );
    await queryRows(t.db, sql`analyze customers`);
  }, 120_000);

  async function plan(q: Omit<CustomerListQuery, 'organizationId' | 'today' | 'take'>) {
    const qb = listCustomersQuery(t.db, { ...q, organizationId, today: '2025-06-01', take: 26 });
    const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(t.db, sql`explain (analyze, format json) ${qb}`);
    const raw = row?.['QUERY PLAN'];
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    return nodes(doc[0]!.Plan);
  }

  for (const sort of ['code', 'legal_name', 'created_at'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`${sort} ${order}: an index scan on ${INDEX[sort]} with no Sort, first and deep page, also filtered by is_active`, async () => {
        const rows = await listCustomersQuery(t.db, { organizationId, today: '2025-06-01', sort, order, filters: {}, take: 5_000 });
        const last = rows[rows.length - 1]!;
        for (const after of [undefined, { value: last.sortValue, id: last.customer.id }]) {
          for (const filters of [{}, { isActive: true }]) {
            const all = await plan({ sort, order, filters, after });
            const label = all.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`).join(' / ');
            expect(all.some((n) => n['Node Type'].includes('Sort')), label).toBe(false);
            expect(all.some((n) => n['Index Name'] === INDEX[sort]), label).toBe(true);
            expect(all.some((n) => n['Relation Name'] === 'customers' && n['Node Type'] === 'Seq Scan'), label).toBe(false);
          }
        }
      });
    }
  }

  it('a rare search term reads the trigram index on code and legal name', async () => {
    for (const q of ['abc12', '04217']) {
      const all = await plan({ sort: 'code', order: 'asc', filters: { q } });
      const label = all.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`).join(' / ');
      expect(all.some((n) => n['Index Name'] === 'customers_search_trgm'), label).toBe(true);
      expect(all.some((n) => n['Relation Name'] === 'customers' && n['Node Type'] === 'Seq Scan'), label).toBe(false);
    }
  });
});
