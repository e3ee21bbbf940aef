import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, createTradeLine, issueTestDocument, uploadTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';
import { countTenantRows } from '../helpers/rows';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

async function tenant() {
  const org = await createTestOrganization(t.db);
  const ref = await createReceivablesSetup(t.db, org.id);
  const customer = await createTestCustomer(t.db, org.id);
  const trade = await createTradeLine(t.db, org.id, { customerId: customer.id, kind: 'delivery', reference: 'DO-1', description: 'x', quantity: '10' });
  const draft = (
    await post(URL, { kind: 'sales_invoice', customer_id: customer.id, lines: [{ account_id: ref.revenue.id, description: 'x', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id }] }, org.owner.apiKey)
  ).json();
  await issueTestDocument(t.db, org.id, draft.id, org.owner.id);
  const file = await uploadTestDocument(t.db, org.id, org.owner.id);
  return { org, ref, customer, trade, invoiceId: draft.id as string, fileId: file.id };
}

type Tenant = Awaited<ReturnType<typeof tenant>>;

/** Where each id goes in a request body of `mine`, with `id` in that place. */
const places: [string, (m: Tenant, id: string) => unknown][] = [
  ['customer_id', (m, id) => body(m, { customer_id: id })],
  ['lines/0/account_id', (m, id) => body(m, {}, { account_id: id })],
  ['lines/0/tax_code_id', (m, id) => body(m, {}, { tax_code_id: id })],
  ['lines/0/shares/0/analytic_account_id', (m, id) => body(m, {}, { shares: [{ analytic_account_id: id, percentage: '100' }] })],
  ['lines/0/trade_line_id', (m, id) => body(m, {}, { trade_line_id: id })],
  ['original_invoice_id', (m, id) => body(m, { kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: id })],
  ['attachment_ids/0', (m, id) => body(m, { attachment_ids: [id] })],
];

function body(m: Tenant, over: Record<string, unknown>, line: Record<string, unknown> = {}) {
  return {
    kind: 'sales_invoice',
    customer_id: m.customer.id,
    ...over,
    lines: [{ account_id: m.ref.revenue.id, description: 'x', quantity: '1', unit_price: '10.00', tax_code_id: m.ref.sv8.id, ...line }],
  };
}

const theirId: Record<string, (o: Tenant) => string> = {
  customer_id: (o) => o.customer.id,
  'lines/0/account_id': (o) => o.ref.revenue.id,
  'lines/0/tax_code_id': (o) => o.ref.sv8.id,
  'lines/0/shares/0/analytic_account_id': (o) => o.ref.alpha.id,
  'lines/0/trade_line_id': (o) => o.trade.id,
  original_invoice_id: (o) => o.invoiceId,
  'attachment_ids/0': (o) => o.fileId,
};

const strip = (p: any) => ({ status: p.status, code: p.code, title: p.title, detail: p.detail, errors: p.errors });

describe('cross-tenant matrix: an id of another organization is refused exactly like an unknown id', () => {
  it.each(places)('%s', async (field, make) => {
    const mine = await tenant();
    const theirs = await tenant();
    const before = await countTenantRows(t.db, mine.org.id);
    const foreign = await post(URL, make(mine, theirId[field]!(theirs)), mine.org.owner.apiKey);
    const unknown = await post(URL, make(mine, randomUUID()), mine.org.owner.apiKey);
    const a = expectProblem(foreign, unknown.statusCode);
    expect([422]).toContain(foreign.statusCode);
    expect(a.errors?.map((e) => e.pointer)).toContain(`/${field}`);
    expect(strip(a)).toEqual(strip(unknown.json()));
    expect(await countTenantRows(t.db, mine.org.id)).toEqual(before);
  });

  it('a document of another organization reads as 404, like a random id', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const a = expectProblem(await get(`${URL}/${theirs.invoiceId}`, mine.org.owner.apiKey), 404, 'not_found');
    const b = expectProblem(await get(`${URL}/${randomUUID()}`, mine.org.owner.apiKey), 404, 'not_found');
    expect(strip(a)).toEqual(strip(b));
  });

  it('attaching to a document of another organization is 404, and their upload is document_unknown', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const mineFile = await uploadTestDocument(t.db, mine.org.id, mine.org.owner.id);
    const a = expectProblem(await post(`${URL}/${theirs.invoiceId}/attachments`, { attachment_ids: [mineFile.id] }, mine.org.owner.apiKey), 404, 'not_found');
    const b = expectProblem(await post(`${URL}/${randomUUID()}/attachments`, { attachment_ids: [mineFile.id] }, mine.org.owner.apiKey), 404, 'not_found');
    expect(strip(a)).toEqual(strip(b));
    const c = expectProblem(await post(`${URL}/${mine.invoiceId}/attachments`, { attachment_ids: [theirs.fileId] }, mine.org.owner.apiKey), 422, 'document_unknown');
    const d = expectProblem(await post(`${URL}/${mine.invoiceId}/attachments`, { attachment_ids: [randomUUID()] }, mine.org.owner.apiKey), 422, 'document_unknown');
    expect(strip(c)).toEqual(strip(d));
  });
});
