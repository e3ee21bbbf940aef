import { queryRows, sql, type Database } from '../src/db/client';
import { addMember, createApiKey, createOrganization, rolePermissions } from '../src/services/access/admin';
import { createCompanyGroup } from '../tests/factories/setup';
import { createAccount, createAnalyticAccount, createAnalyticAxis, createTaxCode } from '../tests/factories/setup';

/**
 * Seeds one organization with `documents` receivables documents, set-based (INSERT ... SELECT
 * generate_series), for the list benchmark and the PostgreSQL plan checks. The shape:
 * - customers (documents / 330, at least 50): ~2% mapped to a sister company of the group;
 * - projects (customers / 1.5): every fourth document has one line charged to a project;
 * - ~91% sales invoices, 5% debit notes, 4% credit notes; 2% drafts (no reference);
 * - created_at two documents per instant (ties), evenly over 7 years; an issued document's invoice
 *   date is the day it was issued (an hour after it was created), as the service writes it, except
 *   for opening balances (one in 199, is_opening), dated up to a year before they were created;
 * - ~1% settled by a receipt and an allocation (outstanding 0), the rest outstanding;
 * - states: drafts two in three `draft`, one in three `discarded`; issued one in 101 `disputed`, the
 *   rest `issued`; one document in 29 in US dollars (rate 4.5); updated_at an hour after creation
 *   (its issue), or the day a receipt settled it.
 * Every derived column (totals, outstanding, project, search text) is written consistent with the
 * rows, so the same answers come out as if the documents had been prepared and issued one by one.
 */
export interface SeededOrganization {
  organizationId: string;
  ownerId: string;
  apiKey: string;
  projectIds: string[];
}

export async function seedListOrganization(
  db: Database,
  opts: { name: string; documents: number; log?: (line: string) => void; /** Drop indexes and skip triggers while loading (superuser, own database). */ bulk?: boolean },
): Promise<SeededOrganization> {
  const log = opts.log ?? (() => {});
  const n = opts.documents;
  const customerCount = Math.max(50, Math.round(n / 330));
  const projectCount = Math.max(20, Math.round(customerCount / 1.5));

  const org = await createOrganization(db, { name: opts.name });
  const organizationId = org.id;
  const sister = await createOrganization(db, { name: `${opts.name} (sister company)` });
  await createCompanyGroup(db, `${opts.name} group`, [organizationId, sister.id]);
  const owner = await addMember(db, { organizationId, name: 'Bench owner', roles: ['owner'] });
  const key = await createApiKey(db, { organizationId, ownerMemberId: owner.id, permissions: rolePermissions('owner') });
  const revenue = await createAccount(db, organizationId, { code: '4000', name: 'Sales revenue' });
  const sv8 = await createTaxCode(db, organizationId, { code: 'SV8', name: 'Service tax 8%', rate: '8', taxType: '02' });
  const axis = await createAnalyticAxis(db, organizationId, { code: 'PRJ', name: 'Projects', isProjectAxis: true });
  await createAnalyticAccount(db, organizationId, { axisId: axis.id, code: 'P-00000', name: 'Project 0' });

  const t0 = Date.now();
  const step = (what: string) => log(`  ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const exec = (q: ReturnType<typeof sql>) => queryRows(db, q);

  await exec(sql`
    insert into analytic_accounts (organization_id, axis_id, code, name)
    select ${organizationId}::uuid, ${axis.id}::uuid, 'P-' || lpad(g::text, 5, '0'), 'Project ' || g
    from generate_series(1, ${projectCount - 1}) g`);
  await exec(sql`
    insert into customers (organization_id, code, legal_name, party_kind, currency)
    select ${organizationId}::uuid, 'C' || lpad(g::text, 6, '0'),
      (array['Alpha','Bintang','Cahaya','Delta','Emas','Fajar','Gemilang','Harmoni','Intan','Jaya','Kencana','Lestari','Mutiara','Nusantara','Orkid','Permata','Restu','Sinar','Teguh','Utama'])[1 + g % 20]
      || ' ' || (array['Trading','Holdings','Engineering','Logistics','Foods','Builders','Textiles','Digital','Marine','Agro','Motors','Pharma'])[1 + (g / 20) % 12]
      || ' ' || g || ' Sdn Bhd',
      'organization', 'MYR'
    from generate_series(1, ${customerCount}) g`);
  await exec(sql`
    insert into counterparty_mappings (organization_id, customer_id, company_organization_id, valid_from)
    select organization_id, id, ${sister.id}::uuid, '2019-01-01' from customers
    where organization_id = ${organizationId} and substring(code from 2)::int % 50 = 7`);
  step(`${customerCount} customers, ${projectCount} projects`);

  // Bulk load: foreign keys and the search-text trigger are skipped (session_replication_role) and
  // the secondary indexes rebuilt afterwards; the rows are consistent by construction.
  await db.transaction(async (tx) => {
    const run = (q: ReturnType<typeof sql>) => queryRows(tx as unknown as Database, q);
    const indexes = opts.bulk
      ? await queryRows<{ indexname: string; indexdef: string }>(
          tx as unknown as Database,
          sql`select indexname, indexdef from pg_indexes where schemaname = 'public'
              and tablename in ('receivable_documents', 'receivable_document_lines', 'receivable_line_shares')
              and not exists (select 1 from pg_constraint c where c.conname = indexname)`,
        )
      : [];
    if (opts.bulk) {
      await run(sql`set local session_replication_role = replica`);
      await run(sql`set local maintenance_work_mem = '512MB'`);
    }
    for (const i of indexes) await run(sql`drop index ${sql.identifier(i.indexname)}`);

    await run(sql`
      create temp table bench_docs on commit drop as
      with c as (select array_agg(id order by code) ids, array_agg(legal_name order by code) names from customers where organization_id = ${organizationId}),
           p as (select array_agg(id order by code) ids from analytic_accounts where organization_id = ${organizationId} and axis_id = ${axis.id})
      select g,
        gen_random_uuid() as id,
        case when g % 20 = 0 then 'customer_debit_note' when g % 25 = 3 then 'customer_credit_note' else 'sales_invoice' end as kind,
        g % 50 <> 1 as issued,
        c.ids[(1 + (g * 7919) % ${customerCount})::int] as customer_id,
        c.names[(1 + (g * 7919) % ${customerCount})::int] as legal_name,
        'PO-' || lpad(((g * 104729) % 1000000)::text, 6, '0') as customer_reference,
        -- An issued document's invoice date is the day it was issued (in the organization's time
        -- zone), an hour after it was created; a draft's is the day it was created. Opening balances
        -- (brought in by migration, one in 199) carry an invoice date up to a year before they were created.
        ((ts.created_at + case when g % 50 <> 1 then interval '1 hour' else interval '0' end) at time zone 'Asia/Kuala_Lumpur')::date
          - case when g % 199 = 5 and g % 50 <> 1 then (1 + (g * 31) % 365)::int else 0 end as invoice_date,
        g % 199 = 5 and g % 50 <> 1 as opening,
        ts.created_at,
        (10 + (g * 7777) % 500000 / 100.0)::numeric(20, 4) as net,
        case when g % 4 = 0 then p.ids[(1 + (g / 4) % ${projectCount})::int] end as project_id,
        g % 97 = 0 and g % 50 <> 1 and g % 25 <> 3 as settled,
        -- One in 29 in US dollars; of the drafts a third discarded; of the issued one in 101 disputed.
        case when g % 29 = 4 then 'USD' else 'MYR' end as currency,
        case when g % 29 = 4 then 4.5 else 1 end::numeric(20, 10) as fx,
        case when g % 50 = 1 then (case when g % 3 = 0 then 'discarded' else 'draft' end)
          when g % 101 = 17 then 'disputed' else 'issued' end as state
      from generate_series(1::bigint, ${n}::bigint) g, c, p,
        -- Two documents per instant (ties), evenly over seven years (2019 to 2025).
        lateral (select timestamptz '2019-01-01 00:00:00+00' + (g / 2) * (interval '2557 days' / ${sql.raw(String(Math.ceil(n / 2) + 1))}) as created_at) ts`);
    step('documents planned');
    await run(sql`
      insert into receivable_documents (organization_id, id, kind, state, revision, reference, customer_id, customer_reference, currency, fx_rate,
        invoice_date, due_on, payment_terms_days, prepared_by, created_at, issued_at, updated_at, is_opening, reason, buyer, seller,
        net_total, tax_total, gross_amount, gross_base, outstanding, outstanding_base, project_id, multiple_projects, search_text)
      select ${organizationId}::uuid, id, kind, state, case when issued then 2 else 1 end,
        case when issued then (case kind when 'sales_invoice' then 'INV' when 'customer_debit_note' then 'DN' else 'CN' end) || '-' || lpad(g::text, 8, '0') end,
        customer_id, customer_reference, currency, fx, invoice_date, invoice_date + 30, 30, ${owner.id}::uuid, created_at,
        case when issued then created_at + interval '1 hour' end,
        -- Last changed: when issued (or discarded), or when the receipt settled it (20 days after its invoice date).
        case when settled then ((invoice_date + 20)::timestamp at time zone 'Asia/Kuala_Lumpur') + interval '10 hours'
          else created_at + interval '1 hour' end,
        opening,
        case when kind = 'customer_credit_note' then 'Returned goods' end,
        case when issued then jsonb_build_object('name', legal_name, 'address', jsonb_build_object('country_code', 'MY'), 'email', null, 'phone', null,
          'registration_no', null, 'registration_type', null, 'sst_no', null, 'tin', null) end,
        case when issued then ${JSON.stringify({ name: opts.name, address: { country_code: 'MY' }, msic: null, registration_no: null, sst_no: null, tin: null })}::jsonb end,
        net, round(net * 0.08, 2), net + round(net * 0.08, 2), round((net + round(net * 0.08, 2)) * fx, 2),
        case when settled then 0 else net + round(net * 0.08, 2) end, case when settled then 0 else round((net + round(net * 0.08, 2)) * fx, 2) end,
        project_id, false,
        concat_ws(chr(31), case when issued then (case kind when 'sales_invoice' then 'INV' when 'customer_debit_note' then 'DN' else 'CN' end) || '-' || lpad(g::text, 8, '0') end, customer_reference, legal_name)
      from bench_docs`);
    step(`${n} documents`);
    await run(sql`
      insert into receivable_document_lines (organization_id, id, document_id, line_no, account_id, classification_code, description, quantity, unit_price,
        discount_amount, net_amount, net_base, tax_amount, tax_base, tax_code_id, tax_code, tax_type, tax_pack_kind, tax_rate)
      select ${organizationId}::uuid, gen_random_uuid(), id, 1, ${revenue.id}::uuid, '022', 'Services', 1, net, 0, net, round(net * fx, 2),
        round(net * 0.08, 2), round(round(net * 0.08, 2) * fx, 2), ${sv8.id}::uuid, 'SV8', '02', 'my_sst', 8
      from bench_docs`);
    step('lines');
    await run(sql`
      insert into receivable_line_shares (organization_id, line_id, position, analytic_account_id, axis_id, percentage)
      select l.organization_id, l.id, 1, b.project_id, ${axis.id}::uuid, 100
      from bench_docs b join receivable_document_lines l on l.organization_id = ${organizationId} and l.document_id = b.id
      where b.project_id is not null`);
    step('project shares');
    await run(sql`
      create temp table bench_receipts on commit drop as
      select b.id as document_id, b.customer_id, gen_random_uuid() as receipt_id, net + round(net * 0.08, 2) as amount,
        round((net + round(net * 0.08, 2)) * fx, 2) as base_amount, currency, invoice_date + 20 as received_on
      from bench_docs b where settled`);
    await run(sql`
      insert into receipts (organization_id, id, customer_id, reference, currency, amount, base_amount, received_on, created_by)
      select ${organizationId}::uuid, receipt_id, customer_id, 'OR-' || row_number() over (), currency, amount, base_amount, received_on, ${owner.id}::uuid from bench_receipts`);
    await run(sql`
      insert into allocations (organization_id, invoice_id, source_kind, receipt_id, currency, amount, base_amount, effective_on, created_by)
      select ${organizationId}::uuid, document_id, 'receipt', receipt_id, currency, amount, base_amount, received_on, ${owner.id}::uuid from bench_receipts`);
    step('receipts and allocations');
    await run(sql`
      insert into sequences (organization_id, name, last_value)
      values (${organizationId}::uuid, 'sales_invoice:2025', ${n}), (${organizationId}::uuid, 'customer_debit_note:2025', ${n}), (${organizationId}::uuid, 'customer_credit_note:2025', ${n})
      on conflict do nothing`);
    for (const i of indexes) {
      await run(sql.raw(i.indexdef));
      step(`index ${i.indexname}`);
    }
  });
  // The bulk seed is left as autovacuum leaves a table at rest: vacuumed (the visibility map set, so
  // index-only scans read no table pages; the trigram indexes' pending entries merged, without which
  // the planner prices them far above a sequential scan) and analyzed. The plan test's smaller seed
  // is analyzed only, as its expectations were written for.
  const maintain = opts.bulk ? 'vacuum analyze' : 'analyze';
  for (const table of ['receivable_documents', 'receivable_document_lines', 'receivable_line_shares', 'customers']) {
    await exec(sql.raw(`${maintain} ${table}`));
  }
  step(opts.bulk ? 'vacuumed and analyzed' : 'analyzed');
  const projects = await queryRows<{ id: string }>(db, sql`select id from analytic_accounts where organization_id = ${organizationId} and axis_id = ${axis.id} order by code`);
  return { organizationId, ownerId: owner.id, apiKey: key.token, projectIds: projects.map((p) => p.id) };
}
