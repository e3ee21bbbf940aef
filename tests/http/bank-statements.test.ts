import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/**
 * Bank statements: a CSV upload read with the bank account's mapping (lines stored once), the
 * suggestions of each credit among open items and unallocated receipts, and accept, split, ignore
 * and undo through the receipt and allocation services.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);

const withCommas = (v: string) => {
  const [int, frac] = v.split('.');
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
};
const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
const cents = (v: string) => BigInt(v.replace('.', ''));
const MONTHS = ['Jan', 'Feb', 'Mar'];

interface Spec {
  k: number;
  date: string;
  cents: bigint;
  description: string;
  reference: string;
  balance: bigint;
}

/** The same lines in CIMB BizChannel's layout (amount + CR/DR, DD/MM/YYYY) under two rows of account details. */
function cimbCsv(lines: Spec[]) {
  const rows = ['Account Statement,,,,,,', 'Account No.,8001234567,,,,,', 'Tran Date,Description,Payment Details,Doc Ref No.,Tran Amt.,Tran Type,Balance'];
  for (const l of lines) {
    const [y, m, d] = l.date.split('-');
    const abs = l.cents < 0n ? -l.cents : l.cents;
    rows.push([`${d}/${m}/${y}`, `"${l.description}"`, 'IBG', l.reference, `"${withCommas(money(abs))}"`, l.cents < 0n ? 'DR' : 'CR', `"${withCommas(money(l.balance))}"`].join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

/** The same lines with debit and credit columns and dates as "05 Mar 2025". */
function genericCsv(lines: Spec[]) {
  const rows = ['Date,Description,Reference,Debit,Credit,Balance'];
  for (const l of lines) {
    const [y, m, d] = l.date.split('-');
    const abs = money(l.cents < 0n ? -l.cents : l.cents);
    rows.push([`${d} ${MONTHS[Number(m) - 1]} ${y}`, `"${l.description}"`, l.reference, l.cents < 0n ? abs : '', l.cents < 0n ? '' : abs, money(l.balance)].join(','));
  }
  return rows.join('\n');
}

async function account(w: ReceiptWorld, body: Record<string, unknown>) {
  const res = await call('receivables.bankStatements.createAccount', { name: 'Current account', ...body }, w.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { id: string };
}

async function allLines(id: string, token: string) {
  const lines: any[] = [];
  let cursor: string | undefined;
  do {
    const res = await get(`/v1/receivables/bank-accounts/${id}/lines?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    lines.push(...res.json().lines);
    cursor = res.json().next_cursor ?? undefined;
  } while (cursor);
  return lines;
}

describe('bank statements: 200 lines in two layouts against 150 open invoices', () => {
  it('suggests every unique exact match first, settles them exactly when accepted, stores lines once', async () => {
    const w = await createReceiptWorld(t);
    // 150 invoices: 140 of distinct amounts (100.00 + i, SST 8%), 10 in pairs of the same amount.
    const invoices: { id: string; reference: string; gross: string }[] = [];
    for (let i = 0; i < 150; i++) {
      const price = i < 140 ? `${100 + i}.00` : `${500 + Math.floor((i - 140) / 2)}.00`;
      const doc = await w.issued({ lines: [w.line({ quantity: '1', unit_price: price, discount_amount: '0' })] });
      invoices.push({ id: doc.id, reference: doc.reference, gross: doc.gross_amount });
    }
    const specs: Spec[] = [];
    let balance = 1_000_000n;
    for (let k = 0; k < 200; k++) {
      let c: bigint;
      let description = 'DUITNOW TRANSFER';
      let reference = `TRF${k}`;
      if (k < 130) {
        c = cents(invoices[k]!.gross);
        if (k % 2 === 0) description = `IBG CREDIT ${invoices[k]!.reference}`;
        if (k % 3 === 0) reference = invoices[k]!.reference;
      } else if (k < 140) c = cents(invoices[140 + (k - 130)]!.gross);
      else if (k < 160) c = BigInt(900_037 + k * 100);
      else c = -BigInt(5_000 + k * 100);
      balance += c;
      specs.push({ k, date: `2025-03-${String(1 + (k % 28)).padStart(2, '0')}`, cents: c, description, reference, balance });
    }
    const cimb = await account(w, { preset: 'cimb_bizchannel' });
    const generic = await account(w, { name: 'Savings', preset: 'generic_debit_credit', mapping: { ...(await presetMapping(w, 'generic_debit_credit')), date_format: 'DD MMM YYYY' } });
    const fileA = cimbCsv(specs.filter((s) => s.k % 2 === 0));
    const fileB = genericCsv(specs.filter((s) => s.k % 2 === 1));

    const upA = await post(`/v1/receivables/bank-accounts/${cimb.id}/statements`, { csv: fileA }, w.token);
    expect(upA.statusCode, upA.body).toBe(200);
    expect(upA.json()).toEqual({ bank_account_id: cimb.id, lines_read: 100, added: 100, already_there: 0, first_date: '2025-03-01', last_date: '2025-03-27' });
    const upB = await post(`/v1/receivables/bank-accounts/${generic.id}/statements`, { csv: fileB }, w.token);
    expect(upB.json()).toMatchObject({ lines_read: 100, added: 100, already_there: 0 });

    const lines = [...(await allLines(cimb.id, w.token)), ...(await allLines(generic.id, w.token))];
    expect(lines).toHaveLength(200);
    const open = new Map(invoices.map((inv) => [inv.id, inv]));
    // Independently: the lines whose amount exactly one open invoice has.
    const unique = lines.filter((l) => invoices.filter((inv) => inv.gross === l.amount).length === 1);
    expect(unique).toHaveLength(130);
    for (const l of unique) {
      const match = invoices.find((inv) => inv.gross === l.amount)!;
      expect(l.suggestions[0], `line ${l.description} ${l.amount}`).toMatchObject({ kind: 'document', id: match.id, open_amount: match.gross });
      expect(l.suggestions[0].reasons).toEqual(expect.arrayContaining(['unique_exact_amount', 'exact_amount']));
    }
    const withNumber = unique.find((l) => l.description.startsWith('IBG CREDIT'))!;
    expect(withNumber.suggestions[0].reasons).toContain('document_number');
    const pairLine = lines.find((l) => l.amount === invoices[140]!.gross)!;
    expect(pairLine.suggestions.slice(0, 2).map((s: any) => s.reasons)).toEqual([['exact_amount'], ['exact_amount']]);
    expect(lines.filter((l) => l.amount.startsWith('-')).every((l) => l.suggestions.length === 0 && l.available_transitions.length === 0)).toBe(true);

    for (const l of unique) {
      const s = l.suggestions[0];
      const res = await post(`/v1/receivables/bank-statement-lines/${l.id}/accept`, { allocations: [{ invoice_id: s.id, amount: l.amount }] }, w.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().receipt).toMatchObject({ amount: l.amount, received_on: l.date, method: 'bank_transfer', unallocated: '0.00', customer_id: w.customer.id });
      expect(res.json().line).toMatchObject({ status: 'matched', available_transitions: ['undo'] });
      open.delete(s.id);
    }
    const rows = await queryRows<{ id: string; outstanding: string }>(t.db, sql`select id, outstanding::text from receivable_documents where organization_id = ${w.org.id}`);
    for (const row of rows) {
      const inv = invoices.find((i) => i.id === row.id)!;
      expect(row.outstanding).toBe(open.has(row.id) ? `${inv.gross}00` : '0.0000');
    }
    const settled = await get(`/v1/receivables/invoices/${unique[0]!.suggestions[0].id}`, w.token);
    expect(settled.json()).toMatchObject({ outstanding: '0.00' });

    // The same files again: nothing added.
    const againA = await post(`/v1/receivables/bank-accounts/${cimb.id}/statements`, { csv: fileA }, w.token);
    expect(againA.json()).toMatchObject({ lines_read: 100, added: 0, already_there: 100 });
    const againB = await post(`/v1/receivables/bank-accounts/${generic.id}/statements`, { csv: fileB }, w.token);
    expect(againB.json()).toMatchObject({ lines_read: 100, added: 0, already_there: 100 });
    const [count] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from bank_statement_lines where organization_id = ${w.org.id}`);
    expect(count!.n).toBe(200);
    // An overlapping file: its new lines only.
    const extra: Spec = { k: 500, date: '2025-03-29', cents: 12345n, description: 'CASH DEPOSIT', reference: 'CD1', balance: balance + 12345n };
    const overlap = await post(`/v1/receivables/bank-accounts/${cimb.id}/statements`, { csv: cimbCsv([...specs.filter((s) => s.k % 2 === 0).slice(-10), extra]) }, w.token);
    expect(overlap.json()).toMatchObject({ lines_read: 11, added: 1, already_there: 10 });
  }, 240_000);
});

async function presetMapping(w: ReceiptWorld, key: string) {
  const found = (await get('/trpc/receivables.bankStatements.presets', w.token)).json().result.data;
  return found.presets.find((p: any) => p.key === key).mapping;
}

describe('bank statements: decisions, refusals and other organizations', () => {
  /** An organization with an account on the generic signed layout and one line per amount given. */
  async function world(amounts: string[], descriptions: string[] = []) {
    const w = await createReceiptWorld(t);
    const acc = await account(w, { preset: 'generic_signed', mapping: { ...(await presetMapping(w, 'generic_signed')), date_format: 'YYYY-MM-DD' } });
    const csv = ['Date,Description,Reference,Amount,Balance', ...amounts.map((a, i) => `2025-03-0${1 + i},"${descriptions[i] ?? 'TRANSFER'}",R${i},${a},`)].join('\n');
    const up = await post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv }, w.token);
    expect(up.statusCode, up.body).toBe(200);
    const lines = await allLines(acc.id, w.token);
    return { w, acc, lines };
  }
  const accept = (w: ReceiptWorld, id: string, body: unknown, headers: Record<string, string> = {}) => post(`/v1/receivables/bank-statement-lines/${id}/accept`, body, w.token, headers);
  const readLine = async (w: ReceiptWorld, id: string) =>
    (await get(`/trpc/receivables.bankStatements.getLine?input=${encodeURIComponent(JSON.stringify({ id }))}`, w.token)).json().result.data;
  const outstanding = async (w: ReceiptWorld, id: string) => (await get(`/v1/receivables/invoices/${id}`, w.token)).json().outstanding;

  it("splits a line over two invoices, ignores one, undoes both, and accepts again on the line's receipt", async () => {
    const { w, lines } = await world(['800.00', '(50.00)', '25.00'], ['IBG CREDIT', 'CHARGES', 'INTEREST']);
    const a = await w.invoice();
    const b = await w.invoice();
    const split = await accept(w, lines[0].id, { allocations: [{ invoice_id: a.id, amount: '379.62' }, { invoice_id: b.id, amount: '379.62' }] });
    expect(split.statusCode, split.body).toBe(200);
    expect(split.json().receipt).toMatchObject({ amount: '800.00', allocated: '759.24', unallocated: '40.76' });
    expect(split.json().line.allocation_ids).toHaveLength(2);
    expect([await outstanding(w, a.id), await outstanding(w, b.id)]).toEqual(['0.00', '0.00']);

    expect(lines[1]).toMatchObject({ amount: '-50.00', available_transitions: [] });
    const debit = await accept(w, lines[1].id, { customer_id: w.customer.id, allocations: [] });
    expect(expectProblem(debit, 409, 'conflict').errors).toEqual([{ pointer: '/id', detail: expect.stringContaining('money out') }]);

    const ignored = await call('receivables.bankStatements.ignore', { id: lines[2].id }, w.token);
    expect(ignored.data).toMatchObject({ status: 'ignored', available_transitions: ['undo'] });
    const again = await call('receivables.bankStatements.ignore', { id: lines[2].id }, w.token);
    expect(again.statusCode).toBe(409);
    expect(again.problem.detail).toBe('The line is already ignored; undo it before deciding again');
    expect((await call('receivables.bankStatements.undo', { id: lines[2].id }, w.token)).data).toMatchObject({ status: 'open' });

    const undone = await call('receivables.bankStatements.undo', { id: lines[0].id }, w.token);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.data).toMatchObject({ status: 'open', allocation_ids: [], receipt_id: split.json().receipt.id });
    expect([await outstanding(w, a.id), await outstanding(w, b.id)]).toEqual(['379.62', '379.62']);
    const receipt = (await get(`/v1/receivables/receipts/${split.json().receipt.id}`, w.token)).json();
    expect(receipt).toMatchObject({ unallocated: '800.00', allocated: '0.00' });
    expect(receipt.allocations.filter((x: any) => x.reverses_id)).toHaveLength(2);
    // Accepted again: the line's receipt is spent, no second receipt is written.
    const second = await accept(w, lines[0].id, { allocations: [{ invoice_id: a.id, amount: '379.62' }] });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().receipt).toMatchObject({ id: receipt.id, unallocated: '420.38' });
    const [n] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from receipts where organization_id = ${w.org.id}`);
    expect(n!.n).toBe(1);
    expect(second.json().line.allocation_ids).toHaveLength(1);
  });

  it('accepting twice with one Idempotency-Key answers the first result; without it the second is 409', async () => {
    const { w, lines } = await world(['379.62']);
    const a = await w.invoice();
    const body = { allocations: [{ invoice_id: a.id, amount: '379.62' }] };
    const first = await accept(w, lines[0].id, body, { 'idempotency-key': 'bank-line-accept-1' });
    const replay = await accept(w, lines[0].id, body, { 'idempotency-key': 'bank-line-accept-1' });
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await accept(w, lines[0].id, body);
    expect(expectProblem(other, 409, 'conflict').detail).toBe('The line is already matched; undo it before deciding again');
  });

  it('two accepts of one line at once: one receipt, the other 409; two uploads of one file at once store it once', async () => {
    const { w, acc, lines } = await world(['379.62', '10.00']);
    const a = await w.invoice();
    const body = { allocations: [{ invoice_id: a.id, amount: '379.62' }] };
    const answers = await Promise.all([accept(w, lines[0].id, body), accept(w, lines[0].id, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [n] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from receipts where organization_id = ${w.org.id}`);
    expect(n!.n).toBe(1);
    expect(await outstanding(w, a.id)).toBe('0.00');
    const csv = ['Date,Description,Reference,Amount,Balance', ...['1.00', '2.00', '3.00'].map((v, i) => `2025-04-0${1 + i},X,Q${i},${v},`)].join('\n');
    const ups = await Promise.all([0, 1].map(() => post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv }, w.token)));
    expect(ups.map((u) => u.json().added).reduce((x, y) => x + y)).toBe(3);
    expect(ups.map((u) => u.json().already_there).reduce((x, y) => x + y)).toBe(3);
  });

  it('refuses a line matched to an invoice paid meanwhile, with a sentence naming it', async () => {
    const { w, lines } = await world(['379.62']);
    const a = await w.invoice();
    expect((await readLine(w, lines[0].id)).suggestions[0]).toMatchObject({ id: a.id, reasons: ['unique_exact_amount', 'exact_amount'] });
    const paid = await post('/v1/receivables/receipts', w.receiptBody({ amount: '379.62', allocations: [{ invoice_id: a.id, amount: '379.62' }] }), w.token);
    expect(paid.statusCode, paid.body).toBe(201);
    const res = await accept(w, lines[0].id, { allocations: [{ invoice_id: a.id, amount: '379.62' }] });
    const problem = expectProblem(res, 409, 'conflict');
    expect(problem.detail).toBe(`${a.reference} is already paid, so the line was not matched; choose another document or leave the money unallocated`);
    expect(problem.errors).toEqual([{ pointer: '/allocations/0/invoice_id', detail: expect.stringContaining('nothing outstanding') }]);
    expect(await readLine(w, lines[0].id)).toMatchObject({ status: 'open', receipt_id: null });
    // Partly paid meanwhile: the allocation service's own refusal (more than is outstanding).
    const b = await w.invoice();
    await post('/v1/receivables/receipts', w.receiptBody({ amount: '100.00', allocations: [{ invoice_id: b.id, amount: '100.00' }] }), w.token);
    const partly = await accept(w, lines[0].id, { allocations: [{ invoice_id: b.id, amount: '379.62' }] });
    expect(expectProblem(partly, 422, 'validation').errors).toEqual([{ pointer: '/allocations/0/amount', detail: 'is more than the document has outstanding (279.62)' }]);
  });

  it("suggests an unallocated receipt and a customer's name, and accepts a line as the receipt already recorded", async () => {
    const w0 = await createReceiptWorld(t);
    const name = (await get(`/v1/receivables/customers/${w0.customer.id}`, w0.token)).json().legal_name as string;
    const acc = await account(w0, { preset: 'generic_signed', mapping: { ...(await presetMapping(w0, 'generic_signed')), date_format: 'DD/MM/YYYY' } });
    const rc = (await post('/v1/receivables/receipts', w0.receiptBody({ amount: '1234.56', reference: 'OR-77812' }), w0.token)).json();
    const inv = await w0.invoice();
    const csv = `Date,Description,Reference,Amount\n02/03/2025,"DUITNOW ${name.toUpperCase()} OR-77812",,"1,234.56"\n03/03/2025,"IBG ${name.toUpperCase()}",,500.00\n`;
    expect((await post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv }, w0.token)).statusCode).toBe(200);
    const [l1, l2] = await allLines(acc.id, w0.token);
    expect(l1.suggestions[0]).toMatchObject({ kind: 'receipt', id: rc.id, reasons: ['exact_amount', 'receipt_reference', 'customer_name'] });
    expect(l2.suggestions[0]).toMatchObject({ kind: 'document', id: inv.id, reasons: ['customer_name'] });
    const res = await accept(w0, l1.id, { receipt_id: rc.id, allocations: [{ invoice_id: inv.id, amount: '379.62' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().receipt).toMatchObject({ id: rc.id, unallocated: '854.94' });
    // The receipt is now this line's money: another line cannot be it.
    const taken = await accept(w0, l2.id, { receipt_id: rc.id, allocations: [] });
    expect(expectProblem(taken, 409, 'conflict').errors).toEqual([{ pointer: '/receipt_id', detail: 'the receipt is already the money of another statement line' }]);
  });

  it('changes an account\'s mapping at the revision read (If-Match), and reads the next upload with it', async () => {
    const w = await createReceiptWorld(t);
    const acc = await account(w, { preset: 'generic_signed' });
    const mapping = { ...(await presetMapping(w, 'generic_signed')), date_format: 'DD-MM-YYYY', amount: ['Nilai'] };
    const stale = await call('receivables.bankStatements.updateAccount', { id: acc.id, mapping }, w.token, { 'if-match': '"7"' });
    expect(stale.statusCode).toBe(409);
    expect(stale.problem.code).toBe('revision_mismatch');
    expect((await call('receivables.bankStatements.updateAccount', { id: acc.id, mapping }, w.token)).statusCode).toBe(428);
    const ok = await call('receivables.bankStatements.updateAccount', { id: acc.id, mapping }, w.token, { 'if-match': '"1"' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data).toMatchObject({ revision: 2, mapping: { date_format: 'DD-MM-YYYY', amount: ['Nilai'] } });
    const up = await post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv: 'Date,Description,Nilai\n05-03-2025,X,"1,500.00"\n' }, w.token);
    expect(up.json()).toMatchObject({ added: 1, first_date: '2025-03-05' });
  });

  it('refuses a CSV it cannot read, pointing at the row and column, and stores nothing', async () => {
    const w = await createReceiptWorld(t);
    const acc = await account(w, { preset: 'cimb_bizchannel' });
    const url = `/v1/receivables/bank-accounts/${acc.id}/statements`;
    const head = 'Tran Date,Description,Doc Ref No.,Tran Amt.,Tran Type,Balance';
    const bad = await post(url, { csv: `${head}\n01/03/2025,A,R1,100.00,CR,100.00\n31/02/2025,B,R2,1x0.00,CR,200.00\n02/03/2025,C,R3,5.00,XX,205.00` }, w.token);
    expect(expectProblem(bad, 422, 'validation').errors).toEqual([
      { pointer: '/csv/rows/3/Tran Date', detail: 'row 3, column "Tran Date": "31/02/2025" is not a date in the format DD/MM/YYYY' },
      { pointer: '/csv/rows/3/Tran Amt.', detail: 'row 3, column "Tran Amt.": "1x0.00" is not an amount' },
      { pointer: '/csv/rows/4/Tran Type', detail: 'row 4, column "Tran Type": "XX" is neither CR nor DR' },
    ]);
    const noHeader = expectProblem(await post(url, { csv: 'Date,Amount\n01/03/2025,5.00' }, w.token), 422, 'validation');
    expect(noHeader.errors![0]).toMatchObject({ pointer: '/csv', detail: expect.stringContaining('date ("Tran Date" or') });
    const quote = expectProblem(await post(url, { csv: `${head}\n01/03/2025,"open,R1,1.00,CR,1.00` }, w.token), 422, 'validation');
    expect(quote.errors).toEqual([{ pointer: '/csv', detail: 'a quote opened in row 2 is never closed' }]);
    const empty = expectProblem(await post(url, { csv: `${head}\n` }, w.token), 422, 'validation');
    expect(empty.errors).toEqual([{ pointer: '/csv', detail: 'no line follows the heading row (row 1)' }]);
    const many = [head, ...Array.from({ length: 5001 }, (_, i) => `01/03/2025,A,R${i},1.00,CR,`)].join('\n');
    expect(expectProblem(await post(url, { csv: many }, w.token), 422, 'validation').errors).toEqual([{ pointer: '/csv', detail: 'the file has more than 5000 rows; upload it in parts' }]);
    const [n] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from bank_statement_lines where organization_id = ${w.org.id}`);
    expect(n!.n).toBe(0);
    const mapping = await call('receivables.bankStatements.createAccount', { name: 'X', preset: 'generic_signed', mapping: { ...(await presetMapping(w, 'generic_signed')), amount_layout: 'debit_credit' } }, w.token);
    expect(mapping.statusCode).toBe(422);
    expect(mapping.problem.errors).toEqual([
      { pointer: '/mapping/debit', detail: 'is required when amount_layout is debit_credit' },
      { pointer: '/mapping/credit', detail: 'is required when amount_layout is debit_credit' },
    ]);
  });

  it("another organization cannot see or accept the lines (404), and a viewer reads but cannot upload (403)", async () => {
    const { w, acc, lines } = await world(['379.62']);
    const a = await w.invoice();
    const other = await createTestOrganization(t.db);
    expectProblem(await get(`/v1/receivables/bank-accounts/${acc.id}/lines`, other.owner.apiKey), 404, 'not_found');
    expectProblem(await post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv: 'x' }, other.owner.apiKey), 404, 'not_found');
    const res = await post(`/v1/receivables/bank-statement-lines/${lines[0].id}/accept`, { allocations: [{ invoice_id: a.id, amount: '379.62' }] }, other.owner.apiKey);
    expectProblem(res, 404, 'not_found');
    expect((await call('receivables.bankStatements.undo', { id: lines[0].id }, other.owner.apiKey)).statusCode).toBe(404);
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expect((await get(`/v1/receivables/bank-accounts/${acc.id}/lines`, viewer.apiKey)).statusCode).toBe(200);
    expectProblem(await post(`/v1/receivables/bank-accounts/${acc.id}/statements`, { csv: 'x' }, viewer.apiKey), 403, 'forbidden');
    expect(await outstanding(w, a.id)).toBe('379.62');
  });
});
