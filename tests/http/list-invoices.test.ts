import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { encodeCursor } from '../../src/lib/cursor';
import { createCompanyGroup, mapCounterparty } from '../factories/setup';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { allocate, createReceivablesSetup, issueTestDocument, recordReceipt, uploadTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';
const SECRET = 'test-cursor-secret-0123456789';

interface Spec {
  id: string;
  kind: string;
  customerId: string;
  legalName: string;
  customerReference: string;
  projects: string[];
  issued: boolean;
  settled: boolean;
  invoiceDate: string | null;
  reference: string | null;
}

/**
 * One organization with documents that tie on every sort key: three customers (one a group
 * company), drafts and issued documents of every kind, project-charged lines, settled invoices,
 * attachments, and another organization with documents of its own.
 */
async function listWorld() {
  const org = await createTestOrganization(t.db);
  const sibling = await createTestOrganization(t.db);
  await createCompanyGroup(t.db, `G ${randomUUID()}`, [org.id, sibling.id]);
  const ref = await createReceivablesSetup(t.db, org.id);
  const issuer = await createTestMember(t.db, org.id, { role: 'owner', name: 'Issuer' });
  const alpha = await createTestCustomer(t.db, org.id, { legalName: 'Alpha Holdings Sdn Bhd' });
  const beta = await createTestCustomer(t.db, org.id, { legalName: 'Beta 50%_Off Trading' });
  const sister = await createTestCustomer(t.db, org.id, { legalName: 'Sister Company Bhd' });
  await mapCounterparty(t.db, { organizationId: org.id, customerId: sister.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01' });
  const customers = [alpha, beta, sister];
  const specs: Spec[] = [];
  const token = org.owner.apiKey;

  for (let i = 0; i < 22; i++) {
    const customer = customers[i % 3]!;
    const kind = i % 7 === 3 ? 'customer_debit_note' : 'sales_invoice';
    const projects = i === 9 ? [ref.alpha.id, ref.beta.id] : i % 4 === 0 ? [ref.alpha.id] : i % 4 === 1 ? [ref.beta.id] : [];
    const customerReference = i === 5 ? 'PO_100%' : `PO-${1000 + i}`;
    const line = (project?: string) => ({
      account_id: ref.revenue.id,
      description: 'Consulting',
      quantity: '1',
      unit_price: `${100 + (i % 4) * 10}.00`,
      tax_code_id: ref.sv8.id,
      ...(project ? { shares: [{ analytic_account_id: project, percentage: '100' }] } : {}),
    });
    const lines = projects.length ? projects.map((p) => line(p)) : [line()];
    const res = await post(URL, { kind, customer_id: customer.id, customer_reference: customerReference, lines }, token);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const issued = i % 3 !== 2;
    let invoiceDate: string | null = null;
    let reference: string | null = null;
    let settled = false;
    if (issued) {
      invoiceDate = `2025-01-0${1 + (i % 5)}`;
      await issueTestDocument(t.db, org.id, id, issuer.id, new Date(`${invoiceDate}T04:00:00Z`));
      const doc = (await get(`${URL}/${id}`, token)).json();
      reference = doc.reference;
      if (i % 5 === 0) {
        const receipt = await recordReceipt(t.db, {
          organizationId: org.id,
          customerId: customer.id,
          reference: `OR-${i}`,
          currency: 'MYR',
          amount: doc.gross_amount,
          receivedOn: '2025-02-01',
          createdBy: org.owner.id,
        });
        await allocate(t.db, { organizationId: org.id, invoiceId: id, receiptId: receipt.id, amount: doc.gross_amount, effectiveOn: '2025-02-01', createdBy: org.owner.id });
        settled = true;
      }
    }
    specs.push({ id, kind, customerId: customer.id, legalName: customer.legalName, customerReference, projects, issued, settled, invoiceDate, reference });
  }
  // Ties on created_at: two groups of documents created at the same instant.
  const ids = specs.map((s) => s.id);
  await queryRows(t.db, sql`update receivable_documents set created_at = '2025-03-01T10:00:00.123456Z' where organization_id = ${org.id} and id in (${sql.join(ids.slice(0, 6).map((x) => sql`${x}::uuid`), sql`, `)})`);
  await queryRows(t.db, sql`update receivable_documents set created_at = '2025-03-01T10:00:00.123457Z' where organization_id = ${org.id} and id in (${sql.join(ids.slice(6, 9).map((x) => sql`${x}::uuid`), sql`, `)})`);

  // Another organization's documents never appear.
  const otherRef = await createReceivablesSetup(t.db, sibling.id);
  const otherCustomer = await createTestCustomer(t.db, sibling.id, { legalName: 'Alpha Holdings Sdn Bhd' });
  for (let i = 0; i < 3; i++) {
    const res = await post(
      URL,
      { kind: 'sales_invoice', customer_id: otherCustomer.id, customer_reference: 'PO-1001', lines: [{ account_id: otherRef.revenue.id, description: 'X', quantity: '1', unit_price: '100.00', tax_code_id: otherRef.sv8.id }] },
      sibling.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
  }
  return { org, sibling, ref, specs, token, alpha, beta, sister };
}

type World = Awaited<ReturnType<typeof listWorld>>;
let shared: Promise<World> | undefined;
/** Walk and filter tests only read, so they share one world (built on first use). */
const readWorld = () => (shared ??= listWorld());

function qs(params: Record<string, string | number | undefined>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Follows next_cursor to the end; answers every document in the order received and the pages. */
async function walk(token: string, params: Record<string, string | number | undefined>, limit: number) {
  const docs: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const res = await get(`${URL}${qs({ ...params, limit, cursor })}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.documents.length).toBeLessThanOrEqual(limit);
    docs.push(...body.documents);
    pages += 1;
    expect(pages).toBeLessThan(200);
    if (body.next_cursor === null) break;
    expect(body.documents.length).toBe(limit);
    cursor = body.next_cursor;
  }
  return { docs, pages };
}

const ORDER_SQL: Record<string, string> = {
  created_at: 'created_at',
  invoice_date: 'invoice_date',
  due_on: 'due_on',
  gross_amount: 'gross_amount',
};

/** The order the list promises, written independently of the list's own query. */
async function expectedOrder(organizationId: string, sort: string, order: 'asc' | 'desc') {
  const key = sort === 'reference' ? `reference collate "C" ${order} nulls last` : `${ORDER_SQL[sort]} ${order}`;
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id from receivable_documents where organization_id = ${organizationId} order by ${sql.raw(key)}, id ${sql.raw(order)}`,
  );
  return rows.map((r) => r.id);
}

const SORTS = ['created_at', 'invoice_date', 'due_on', 'gross_amount', 'reference'] as const;

describe('GET /v1/receivables/invoices walks every page', () => {
  for (const sort of SORTS) {
    for (const order of ['asc', 'desc'] as const) {
      it(`by ${sort} ${order}: every document exactly once, in order, ties broken by id`, async () => {
        const w = await readWorld();
        const expected = await expectedOrder(w.org.id, sort, order);
        expect(expected).toHaveLength(22);
        const { docs, pages } = await walk(w.token, { sort, order }, 4);
        expect(docs.map((d) => d.id)).toEqual(expected);
        expect(pages).toBe(6);
        if (sort === 'reference') {
          // Drafts (no reference) come last in both directions.
          const firstDraft = docs.findIndex((d) => d.reference === null);
          expect(docs.slice(firstDraft).every((d) => d.reference === null)).toBe(true);
          expect(firstDraft).toBe(22 - w.specs.filter((s) => !s.issued).length);
        }
        if (sort === 'gross_amount') {
          const amounts = docs.map((d) => new Decimal(d.gross_amount));
          for (let i = 1; i < amounts.length; i++) {
            expect(order === 'asc' ? amounts[i]!.gte(amounts[i - 1]!) : amounts[i]!.lte(amounts[i - 1]!)).toBe(true);
          }
        }
      });
    }
  }

  it('with the default sort: newest created first, limit 25 by default', async () => {
    const w = await readWorld();
    const res = await get(URL, w.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next_cursor).toBeNull();
    expect(body.documents.map((d: any) => d.id)).toEqual(await expectedOrder(w.org.id, 'created_at', 'desc'));
  });

  it('a page of exactly the remaining rows ends with next_cursor null', async () => {
    const w = await readWorld();
    const { docs, pages } = await walk(w.token, {}, 11);
    expect(docs).toHaveLength(22);
    expect(pages).toBe(2);
    const one = (await get(`${URL}${qs({ limit: 22 })}`, w.token)).json();
    expect(one.next_cursor).toBeNull();
    expect(one.documents).toHaveLength(22);
  });

  it('items carry every document field but lines, allocations, timeline and available transitions', async () => {
    const w = await readWorld();
    const spec = w.specs[0]!;
    const file = await uploadTestDocument(t.db, w.org.id, w.org.owner.id);
    const attached = await post(`${URL}/${spec.id}/attachments`, { attachment_ids: [file.id] }, w.token);
    expect(attached.statusCode, attached.body).toBe(200);
    const full = (await get(`${URL}/${spec.id}`, w.token)).json();
    const { docs } = await walk(w.token, {}, 100);
    const item = docs.find((d) => d.id === spec.id);
    const { lines, allocations, timeline, available_transitions, ...rest } = full;
    expect(lines.length).toBeGreaterThan(0);
    expect(allocations.length).toBeGreaterThan(0);
    expect(timeline.length).toBeGreaterThan(0);
    expect(available_transitions).toBeDefined();
    expect(item).toEqual(rest);
    expect(item.attachment_ids).toEqual([file.id]);
    const sisterDoc = docs.find((d) => d.customer_id === w.sister.id);
    expect(sisterDoc.is_group_transaction).toBe(true);
    expect(docs.find((d) => d.id === w.specs[9]!.id)).toMatchObject({ multiple_projects: true, project: null });
    expect(docs.find((d) => d.id === w.specs[4]!.id)).toMatchObject({ multiple_projects: false, project: { id: w.ref.alpha.id, code: 'P-ALPHA', name: 'Project Alpha' } });
  });
});

describe('GET /v1/receivables/invoices filters', () => {
  type Pred = (s: Spec, w: World) => boolean;
  const cases: { name: string; params: (w: World) => Record<string, string>; keep: Pred }[] = [
    { name: 'kind', params: () => ({ kind: 'customer_debit_note' }), keep: (s) => s.kind === 'customer_debit_note' },
    { name: 'group=only', params: () => ({ group: 'only' }), keep: (s, w) => s.customerId === w.sister.id },
    { name: 'group=none', params: () => ({ group: 'none' }), keep: (s, w) => s.customerId !== w.sister.id },
    { name: 'project_id', params: (w) => ({ project_id: w.ref.beta.id }), keep: (s, w) => s.projects.includes(w.ref.beta.id) },
    { name: 'project_id (upper case)', params: (w) => ({ project_id: w.ref.alpha.id.toUpperCase() }), keep: (s, w) => s.projects.includes(w.ref.alpha.id) },
    { name: 'outstanding=true', params: () => ({ outstanding: 'true' }), keep: (s) => s.issued && !s.settled },
    { name: 'outstanding=false', params: () => ({ outstanding: 'false' }), keep: (s) => s.issued && s.settled },
    { name: 'q on the customer name, any case', params: () => ({ q: 'hOLDINGS' }), keep: (s) => s.legalName.includes('Holdings') },
    { name: 'q on the customer reference', params: () => ({ q: '-1012' }), keep: (s) => s.customerReference === 'PO-1012' },
    { name: 'q with a literal %', params: () => ({ q: '50%_' }), keep: (s) => s.legalName.includes('50%_') },
    { name: 'q with a literal _ and %', params: () => ({ q: '_100%' }), keep: (s) => s.customerReference === 'PO_100%' },
    { name: 'q that a wildcard would match but the literal does not', params: () => ({ q: 'PO_10' }), keep: (s) => s.customerReference.includes('PO_10') },
    { name: 'q on the reference', params: (w) => ({ q: w.specs[1]!.reference!.toLowerCase() }), keep: (s, w) => s.reference === w.specs[1]!.reference },
    // Matches at the first character of the search text (a reference, or a draft's customer
    // reference) and further on are found by different indexes: both, and each alone.
    { name: 'q, the start of a document number, any case', params: () => ({ q: 'dn-2' }), keep: (s) => s.reference?.startsWith('DN-2') === true },
    { name: 'q, a document number without its first letter', params: () => ({ q: 'NV-20' }), keep: (s) => s.reference?.startsWith('INV-20') === true },
    { name: 'q, the end of a document number', params: (w) => ({ q: w.specs[4]!.reference!.slice(-6) }), keep: (s, w) => s.reference?.endsWith(w.specs[4]!.reference!.slice(-6)) === true },
    { name: "q, the start of a draft's customer reference", params: () => ({ q: 'po-1002' }), keep: (s) => s.customerReference.startsWith('PO-1002') },
    { name: "q, a customer name's first letters", params: () => ({ q: 'alph' }), keep: (s) => s.legalName.startsWith('Alpha') },
    { name: 'invoice_date_from', params: () => ({ invoice_date_from: '2025-01-03' }), keep: (s) => s.issued && s.invoiceDate! >= '2025-01-03' },
    { name: 'invoice_date_to', params: () => ({ invoice_date_to: '2025-01-02' }), keep: (s) => s.issued && s.invoiceDate! <= '2025-01-02' },
    {
      name: 'invoice_date range of one day',
      params: () => ({ invoice_date_from: '2025-01-04', invoice_date_to: '2025-01-04' }),
      keep: (s) => s.issued && s.invoiceDate === '2025-01-04',
    },
    {
      name: 'combined: kind, group=none, outstanding, q and a date range',
      params: () => ({ kind: 'sales_invoice', group: 'none', outstanding: 'true', q: 'po-10', invoice_date_from: '2025-01-02', invoice_date_to: '2025-01-05' }),
      keep: (s, w) =>
        s.kind === 'sales_invoice' && s.customerId !== w.sister.id && s.issued && !s.settled && s.customerReference.startsWith('PO-10') && s.invoiceDate! >= '2025-01-02',
    },
    {
      name: 'combined: project and group=only',
      params: (w) => ({ project_id: w.ref.alpha.id, group: 'only' }),
      keep: (s, w) => s.projects.includes(w.ref.alpha.id) && s.customerId === w.sister.id,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: exactly the matching documents, each once, with every sort`, async () => {
      const w = await readWorld();
      const expected = w.specs.filter((s) => c.keep(s, w)).map((s) => s.id).sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(22);
      for (const sort of ['created_at', 'reference'] as const) {
        const { docs } = await walk(w.token, { ...c.params(w), sort, order: 'asc' }, 2);
        expect(docs.map((d) => d.id).sort()).toEqual(expected);
        const order = (await expectedOrder(w.org.id, sort, 'asc')).filter((id) => expected.includes(id));
        expect(docs.map((d) => d.id)).toEqual(order);
      }
    });
  }

  it('a range filter leaves drafts out; no match answers an empty page', async () => {
    const w = await readWorld();
    const body = (await get(`${URL}${qs({ invoice_date_from: '2000-01-01' })}`, w.token)).json();
    expect(body.documents.every((d: any) => d.issued_at !== null)).toBe(true);
    expect(body.documents).toHaveLength(w.specs.filter((s) => s.issued).length);
    const none = await get(`${URL}${qs({ q: 'no such text anywhere' })}`, w.token);
    expect(none.json()).toEqual({ documents: [], next_cursor: null });
  });

  it("never shows another organization's documents, even on a matching filter", async () => {
    const w = await readWorld();
    const mine = new Set(w.specs.map((s) => s.id));
    for (const params of [{}, { q: 'Alpha' }, { q: 'PO-1001' }, { group: 'none' }, { sort: 'reference', order: 'asc' }]) {
      const { docs } = await walk(w.token, params, 100);
      expect(docs.every((d) => mine.has(d.id))).toBe(true);
    }
    const theirs = (await get(URL, w.sibling.owner.apiKey)).json();
    expect(theirs.documents).toHaveLength(3);
    expect(theirs.documents.every((d: any) => !mine.has(d.id))).toBe(true);
  });

  it('q on a name that many customers carry and on one that few carry answers alike, in every order, with a range', async () => {
    // Up to 32 customers matching a name, their documents are read per customer or through the
    // customer index; more, and the sort's index is walked (one statement picks). Both must give
    // exactly the plain substring search, alone and with an invoice-date range.
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const issuer = await createTestMember(t.db, org.id, { role: 'owner', name: 'Issuer' });
    const token = org.owner.apiKey;
    const many: { id: string; legalName: string }[] = [];
    for (let i = 0; i < 34; i++) many.push(await createTestCustomer(t.db, org.id, { legalName: `Widely Shared ${i} Sdn Bhd` }));
    const rare = await createTestCustomer(t.db, org.id, { legalName: 'Seldom Seen Berhad' });
    const docs: { id: string; customer: string }[] = [];
    for (const [i, c] of [...many.slice(0, 5), rare, many[33]!, rare].entries()) {
      const res = await post(URL, { kind: 'sales_invoice', customer_id: c.id, customer_reference: i === 2 ? 'WIDELY-REF' : `R-${i}`, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: `${i + 1}.00`, tax_code_id: ref.sv8.id }] }, token);
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as string;
      // Most issued, on four days (created after their invoice date: as openings are); some drafts.
      if (i % 3 !== 1) await issueTestDocument(t.db, org.id, id, issuer.id, new Date(`2025-01-0${1 + (i % 4)}T04:00:00Z`));
      docs.push({ id, customer: c.legalName });
    }
    const expectedFor = async (term: string, sort: string, order: 'asc' | 'desc', range: boolean) => {
      const key = sort === 'reference' ? `d.reference collate "C" ${order} nulls last` : `d.${sort} ${order}`;
      const rows = await queryRows<{ id: string }>(
        t.db,
        sql`select d.id from receivable_documents d join customers c on c.organization_id = d.organization_id and c.id = d.customer_id
            where d.organization_id = ${org.id} and (coalesce(d.reference, '') ilike ${`%${term}%`} or d.customer_reference ilike ${`%${term}%`} or c.legal_name ilike ${`%${term}%`})
              ${range ? sql`and d.issued_at is not null and d.invoice_date between '2025-01-02' and '2025-01-03'` : sql``}
            order by ${sql.raw(key)}, d.id ${sql.raw(order)}`,
      );
      return rows.map((r) => r.id);
    };
    for (const term of ['widely', 'seldom', 'shared 3']) {
      for (const sort of SORTS) {
        for (const order of ['desc', 'asc'] as const) {
          for (const range of [false, true]) {
            const want = await expectedFor(term, sort, order, range);
            expect(want.length, term).toBeGreaterThan(0);
            const params = { q: term, sort, order, ...(range ? { invoice_date_from: '2025-01-02', invoice_date_to: '2025-01-03' } : {}) };
            const { docs: got } = await walk(token, params, 2);
            expect(got.map((d) => d.id), `${term} ${sort} ${order}${range ? ' with a range' : ''}`).toEqual(want);
          }
        }
      }
    }
  });

  it('the q search follows a rename of the customer', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const c = await createTestCustomer(t.db, org.id, { legalName: 'Old Name Enterprise' });
    const res = await post(URL, { kind: 'sales_invoice', customer_id: c.id, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: '1.00', tax_code_id: ref.sv8.id }] }, org.owner.apiKey);
    expect(res.statusCode).toBe(201);
    const find = async (q: string) => (await get(`${URL}${qs({ q })}`, org.owner.apiKey)).json().documents.map((d: any) => d.id);
    expect(await find('old name')).toEqual([res.json().id]);
    await queryRows(t.db, sql`update customers set legal_name = 'Brand New Berhad' where organization_id = ${org.id} and id = ${c.id}`);
    expect(await find('old name')).toEqual([]);
    expect(await find('brand new')).toEqual([res.json().id]);
  });
});

describe('GET /v1/receivables/invoices: an invoice-date range in creation order', () => {
  // The list reads documents created within a few days of their invoice date between the bounds the
  // range implies, and the others (openings, long-kept drafts) apart; the answer must be exactly the
  // plain filter's, whatever the distance between creation and invoice date, at each boundary.
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  /** Creation relative to the invoice date's midnight UTC (ms); the bounds are -4 days and +2 days. */
  const OFFSETS = [HOUR, 10 * HOUR, -3 * DAY, -4 * DAY, 2 * DAY - 0.001, -4 * DAY - 0.001, 2 * DAY, -400 * DAY, 90 * DAY, 730 * DAY, 23 * HOUR, -1];

  async function rangeWorld() {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const issuer = await createTestMember(t.db, org.id, { role: 'owner', name: 'Issuer' });
    const c = await createTestCustomer(t.db, org.id, { legalName: 'Range Customer Sdn Bhd' });
    const token = org.owner.apiKey;
    const ids: string[] = [];
    for (let i = 0; i < 28; i++) {
      const kind = i % 5 === 2 ? 'customer_debit_note' : 'sales_invoice';
      const res = await post(URL, { kind, customer_id: c.id, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: `${10 + i}.00`, tax_code_id: ref.sv8.id }] }, token);
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as string;
      ids.push(id);
      if (i < 24) await issueTestDocument(t.db, org.id, id, issuer.id, new Date('2025-01-01T04:00:00Z'));
    }
    for (let i = 0; i < ids.length; i++) {
      const invoiceDate = `2025-01-${String(1 + ((i * 7) % 20)).padStart(2, '0')}`;
      const createdAt = new Date(Date.parse(`${invoiceDate}T00:00:00Z`) + OFFSETS[i % OFFSETS.length]!);
      // Microseconds matter at the bounds: written as text, not through a JS Date.
      const micro = OFFSETS[i % OFFSETS.length] === 2 * DAY - 0.001 || OFFSETS[i % OFFSETS.length] === -4 * DAY - 0.001;
      const text = micro ? `${new Date(Math.floor(createdAt.getTime())).toISOString().slice(0, 19)}.999999Z` : createdAt.toISOString();
      await queryRows(
        t.db,
        sql`update receivable_documents set invoice_date = ${invoiceDate}::date, created_at = ${text}::timestamptz, is_opening = ${OFFSETS[i % OFFSETS.length]! >= 90 * DAY}
            where organization_id = ${org.id} and id = ${ids[i]!}::uuid`,
      );
    }
    // Ties on created_at across invoice dates (on-date with off-date, on-date with on-date).
    for (const [a, b] of [[0, 8], [1, 13], [14, 15]] as const) {
      await queryRows(t.db, sql`update receivable_documents set created_at = (select created_at from receivable_documents where organization_id = ${org.id} and id = ${ids[a]!}::uuid)
        where organization_id = ${org.id} and id = ${ids[b]!}::uuid`);
    }
    // One settled invoice, for the outstanding filter.
    const settledDoc = (await get(`${URL}/${ids[0]}`, token)).json();
    const receipt = await recordReceipt(t.db, { organizationId: org.id, customerId: c.id, reference: 'OR-R', currency: 'MYR', amount: settledDoc.gross_amount, receivedOn: '2025-02-01', createdBy: org.owner.id });
    await allocate(t.db, { organizationId: org.id, invoiceId: ids[0]!, receiptId: receipt.id, amount: settledDoc.gross_amount, effectiveOn: '2025-02-01', createdBy: org.owner.id });
    return { org, token };
  }

  /** The plain filter, written independently of the list's query. */
  async function expected(organizationId: string, p: { from?: string; to?: string; kind?: string; outstanding?: boolean }, order: 'asc' | 'desc') {
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select id from receivable_documents where organization_id = ${organizationId} and issued_at is not null
          ${p.from ? sql`and invoice_date >= ${p.from}::date` : sql``} ${p.to ? sql`and invoice_date <= ${p.to}::date` : sql``}
          ${p.kind ? sql`and kind = ${p.kind}` : sql``} ${p.outstanding ? sql`and outstanding <> 0` : sql``}
          order by created_at ${sql.raw(order)}, id ${sql.raw(order)}`,
    );
    return rows.map((r) => r.id);
  }

  it('answers exactly the plain filter, in order, each document once, on every page size', async () => {
    const w = await rangeWorld();
    const ranges: { from?: string; to?: string; kind?: string; outstanding?: boolean }[] = [
      { from: '2025-01-05', to: '2025-01-12' },
      { from: '2025-01-10' },
      { to: '2025-01-08' },
      { from: '2025-01-08', to: '2025-01-08' },
      { from: '2025-01-01', to: '2025-01-20' },
      { from: '2024-01-01', to: '2024-12-31' },
      { from: '2025-01-03', to: '2025-01-15', kind: 'sales_invoice', outstanding: true },
    ];
    let compared = 0;
    for (const r of ranges) {
      for (const order of ['desc', 'asc'] as const) {
        const want = await expected(w.org.id, r, order);
        for (const limit of [1, 3, 100]) {
          const params = { invoice_date_from: r.from, invoice_date_to: r.to, kind: r.kind, outstanding: r.outstanding ? 'true' : undefined, sort: 'created_at', order };
          const { docs } = await walk(w.token, params, limit);
          expect(docs.map((d) => d.id), `${JSON.stringify(r)} ${order} limit ${limit}`).toEqual(want);
          compared += want.length;
        }
      }
    }
    // The world reaches both kinds of documents: created on their invoice date's days and far from them.
    const [mix] = await queryRows<{ near: number; far: number }>(
      t.db,
      sql`select count(*) filter (where created_at >= (invoice_date - 4)::timestamp at time zone 'UTC' and created_at < (invoice_date + 2)::timestamp at time zone 'UTC')::int as near,
                 count(*) filter (where created_at < (invoice_date - 4)::timestamp at time zone 'UTC' or created_at >= (invoice_date + 2)::timestamp at time zone 'UTC')::int as far
          from receivable_documents where organization_id = ${w.org.id} and issued_at is not null`,
    );
    expect(Number(mix!.near)).toBeGreaterThan(8);
    expect(Number(mix!.far)).toBeGreaterThan(6);
    expect(compared).toBeGreaterThan(100);
  });
});

describe('GET /v1/receivables/invoices while documents are created', () => {
  it('a walk sees every document that existed when it started exactly once; new ones at most once', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const c = await createTestCustomer(t.db, org.id);
    const create = async () => {
      const res = await post(URL, { kind: 'sales_invoice', customer_id: c.id, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: '5.00', tax_code_id: ref.sv8.id }] }, org.owner.apiKey);
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };
    const before: string[] = [];
    for (let i = 0; i < 9; i++) before.push(await create());
    for (const order of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      const created: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const body = (await get(`${URL}${qs({ order, limit: 2, cursor })}`, org.owner.apiKey)).json();
        seen.push(...body.documents.map((d: any) => d.id));
        created.push(await create());
        if (!body.next_cursor) break;
        cursor = body.next_cursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
      // Newest first: documents created during the walk sort before the cursor and are not seen;
      // oldest first: they come after it and are.
      if (order === 'desc') expect(seen.filter((id) => created.includes(id))).toEqual([]);
      else expect(seen.filter((id) => created.includes(id)).length).toBeGreaterThan(0);
      before.push(...created);
    }
  });
});

describe('GET /v1/receivables/invoices refuses', () => {
  it('a cursor sent with another sort, order or filter (422 at /query/cursor)', async () => {
    const w = await readWorld();
    const first = (await get(`${URL}${qs({ sort: 'due_on', order: 'asc', kind: 'sales_invoice', limit: 2 })}`, w.token)).json();
    expect(first.next_cursor).toEqual(expect.any(String));
    const cursor = first.next_cursor as string;
    for (const params of [
      { sort: 'invoice_date', order: 'asc', kind: 'sales_invoice' },
      { sort: 'due_on', order: 'desc', kind: 'sales_invoice' },
      { sort: 'due_on', order: 'asc' },
      { sort: 'due_on', order: 'asc', kind: 'sales_invoice', q: 'PO' },
      { order: 'asc', kind: 'sales_invoice' },
    ]) {
      const p = expectProblem(await get(`${URL}${qs({ ...params, cursor })}`, w.token), 422, 'validation');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    // A different limit is fine: the cursor is not bound to the page size.
    const next = await get(`${URL}${qs({ sort: 'due_on', order: 'asc', kind: 'sales_invoice', limit: 5, cursor })}`, w.token);
    expect(next.statusCode).toBe(200);
  });

  it('a cursor of another organization answers only this organization\'s rows', async () => {
    const w = await readWorld();
    const theirs = (await get(`${URL}${qs({ limit: 1 })}`, w.sibling.owner.apiKey)).json();
    const res = await get(`${URL}${qs({ cursor: theirs.next_cursor })}`, w.token);
    expect(res.statusCode).toBe(200);
    const mine = new Set(w.specs.map((s) => s.id));
    expect(res.json().documents.every((d: any) => mine.has(d.id))).toBe(true);
  });

  it('a cursor that does not decode or verify (400 at /query/cursor)', async () => {
    const w = await readWorld();
    const good = (await get(`${URL}${qs({ limit: 2 })}`, w.token)).json().next_cursor as string;
    const [body, mac] = good.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k[1] = randomUUID();
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    const flipped = `${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherSecret = encodeCursor('another-secret-0123456789', { sort: 'created_at', order: 'desc', filters: {} }, { value: '2025-01-01 00:00:00+00', id: randomUUID() });
    for (const cursor of ['nope', 'a.b.c', forged, flipped, otherSecret, `${body}.`, good.slice(1)]) {
      const p = expectProblem(await get(`${URL}?cursor=${encodeURIComponent(cursor)}`, w.token), 400, 'invalid_request');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    // Signed with the right secret but carrying a value the sort cannot hold: still 400, never a 500.
    const odd = encodeCursor(SECRET, { sort: 'created_at', order: 'desc', filters: {} }, { value: "x'); drop table customers; --", id: randomUUID() });
    expectProblem(await get(`${URL}?cursor=${encodeURIComponent(odd)}`, w.token), 400, 'invalid_request');
  });

  it('limit out of 1 to 100, or not an integer (400 at /query/limit)', async () => {
    const w = await readWorld();
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '1e1', '100000', ' 5']) {
      const p = expectProblem(await get(`${URL}?limit=${encodeURIComponent(limit)}`, w.token), 400, 'invalid_request');
      expect(p.errors?.[0]?.pointer).toBe('/query/limit');
    }
    expect((await get(`${URL}?limit=100`, w.token)).statusCode).toBe(200);
    expect((await get(`${URL}?limit=1`, w.token)).json().documents).toHaveLength(1);
  });

  it('malformed parameters (400) and broken rules (422), naming the parameter', async () => {
    const w = await readWorld();
    const cases: [string, number, string][] = [
      ['kind=invoice', 400, '/query/kind'],
      ['group=some', 400, '/query/group'],
      ['project_id=nope', 400, '/query/project_id'],
      ['outstanding=yes', 400, '/query/outstanding'],
      ['outstanding=1', 400, '/query/outstanding'],
      ['outstanding=TRUE', 400, '/query/outstanding'],
      ['sort=customer', 400, '/query/sort'],
      ['order=up', 400, '/query/order'],
      ['invoice_date_from=2025-13-01', 400, '/query/invoice_date_from'],
      ['invoice_date_to=yesterday', 400, '/query/invoice_date_to'],
      ['unknown=1', 400, '/query/unknown'],
      [`q=${'x'.repeat(101)}`, 422, '/query/q'],
      ['kind=sales_invoice&kind=customer_debit_note', 400, '/query/kind'],
      ['q=a%01b', 400, '/query/q'],
      ['invoice_date_from=2025-02-01&invoice_date_to=2025-01-31', 422, '/query/invoice_date_to'],
    ];
    for (const [query, status, pointer] of cases) {
      const res = await get(`${URL}?${query}`, w.token);
      expect(res.statusCode, query).toBe(status);
      const p = expectProblem(res, status, status === 400 ? 'invalid_request' : 'validation');
      expect(p.errors?.map((e) => e.pointer), query).toContain(pointer);
    }
    expect((await get(`${URL}?q=${'x'.repeat(100)}`, w.token)).statusCode).toBe(200);
    // An empty parameter is no parameter (the REST adapter drops empty query values).
    expect((await get(`${URL}?q=&limit=&cursor=`, w.token)).json().documents).toHaveLength(22);
  });

  it('without authentication (401) or without receivables.invoice.read (403)', async () => {
    const w = await readWorld();
    expectProblem(await get(URL), 401, 'unauthenticated');
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expectProblem(await get(URL, employee.apiKey), 403, 'forbidden');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expect((await get(URL, viewer.apiKey)).statusCode).toBe(200);
  });
});

describe('the page statement built once per shape', () => {
  it('answers, for any organization and values of one shape, what a statement built for those values answers', async () => {
    const w = await readWorld();
    const { listDocuments, listDocumentsQuery } = await import('../../src/db/queries/receivable-document-list');
    const cursorOf = async (organizationId: string, sort: 'created_at' | 'reference') => {
      const rows = await listDocumentsQuery(t.db, { organizationId, today: '2025-06-01', sort, order: 'asc', filters: {}, take: 3 });
      return { value: rows[2]!.sortValue, id: rows[2]!.doc.id };
    };
    const draft = w.specs.find((s) => !s.issued)!;
    // Each shape runs with values of both organizations and several terms, in turn: the second and
    // later calls of a shape reuse its statement with other values.
    const queries = [];
    for (const organizationId of [w.org.id, w.sibling.id, w.org.id]) {
      for (const q of ['hold', 'PO-1001', '50%_', 'zz']) queries.push({ organizationId, sort: 'created_at' as const, filters: { q } });
      for (const kind of ['sales_invoice', 'customer_debit_note'] as const) queries.push({ organizationId, sort: 'reference' as const, filters: { kind, outstanding: true } });
      queries.push({ organizationId, sort: 'created_at' as const, filters: { invoiceDateFrom: '2025-01-02', invoiceDateTo: '2025-01-04' } });
      queries.push({ organizationId, sort: 'created_at' as const, filters: {}, after: await cursorOf(organizationId, 'created_at') });
      queries.push({ organizationId, sort: 'reference' as const, filters: {}, after: await cursorOf(organizationId, 'reference') });
      // A draft's position (no reference) and an issued document's: the cursor's leading flag is a value too.
      queries.push({ organizationId, sort: 'reference' as const, filters: {}, after: { value: null, id: draft.id } });
    }
    let nonEmpty = 0;
    for (const q of queries) {
      const query = { ...q, today: '2025-06-01', order: 'asc' as const, take: 26 };
      const cached = await listDocuments(t.db, query);
      const fresh = await listDocumentsQuery(t.db, query);
      expect(cached.map((r) => [r.id, r.sortValue, r.organizationId]), JSON.stringify(q)).toEqual(fresh.map((r) => [r.doc.id, r.sortValue, r.doc.organizationId]));
      expect(cached.every((r) => r.organizationId === q.organizationId)).toBe(true);
      if (cached.length) nonEmpty += 1;
    }
    expect(nonEmpty).toBeGreaterThan(10);
  });
});

describe('the cursor secret without CURSOR_SECRET', () => {
  it('is generated once and stored, so every process on the database signs alike', async () => {
    const { cursorSecret } = await import('../../src/services/access/cursor-secret');
    const { sharedSecret } = await import('../../src/db/queries/server-secrets');
    const first = await cursorSecret(t.db, undefined);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await cursorSecret(t.db, undefined)).toBe(first);
    // Another process (no cache) reads the stored one instead of generating its own.
    expect(await sharedSecret(t.db, 'cursor', () => 'a-different-secret')).toBe(first);
    expect(await cursorSecret(t.db, 'configured-secret-0123')).toBe('configured-secret-0123');
  });
});
