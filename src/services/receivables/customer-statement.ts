/**
 * A customer's statement (read only): the open items as at a day (the default), or the activity of a
 * period with its opening balance, each document, receipt, credit and allocation (reversals too) and
 * its closing balance; one section per currency. Rebuilt from invoice dates, days received and
 * allocation effective days, so a past day answers what the account said then. What the customer
 * owes is documents less receipts; an allocation moves nothing owed, it only says what settled what.
 */
import { activityBetween, balancesBefore, openItemsOn, type ActivityRow, type OpenItemRow } from '../../db/queries/customer-statements';
import { findCustomer } from '../../db/queries/customers';
import type { CustomerStatement, StatementLine, StatementType } from '../../contract/receivables/statements';
import { notFound } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { cachedWorkflow } from '../org-config-cache';
import { SETTLEABLE } from './allocations';

export interface StatementRequest {
  id: string;
  type?: StatementType | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

function checkedPeriod(ctx: ServiceContext, input: StatementRequest): { type: StatementType; from: string | null; to: string } {
  const type = input.type ?? 'open_items';
  const to = input.to ?? ctx.today;
  const r = new Refusals();
  r.check(to <= ctx.today, '/query/to', `is after the organization's today (${ctx.today}): a statement is as at a day that has come`);
  if (type === 'open_items') r.check(input.from === undefined, '/query/from', 'applies to activity statements only (type=activity)');
  const from = type === 'activity' ? (input.from ?? `${to.slice(0, 8)}01`) : null;
  if (from !== null) r.check(from <= to, '/query/from', 'is after `to`');
  r.throwIfAny();
  return { type, from, to };
}

function openLine(row: OpenItemRow, to: string): StatementLine {
  const debit = row.kind === 'sales_invoice' || row.kind === 'customer_debit_note';
  return {
    kind: row.kind,
    id: row.id,
    date: row.date,
    reference: row.reference,
    applied_to: null,
    customer_reference: row.source === 'document' ? row.customer_reference : null,
    due_on: row.due_on,
    days_overdue: debit && row.due_on ? Math.max(0, daysBetween(row.due_on, to)) : null,
    amount: formatAmount(row.amount, row.currency),
    applied: null,
    open: formatAmount(row.open, row.currency),
    balance: null,
  };
}

/** Rows ordered by currency, each with its currency's sums (closing balance and overdue part). */
function openItemsSections(rows: OpenItemRow[], to: string): CustomerStatement['currencies'] {
  const sections: CustomerStatement['currencies'] = [];
  for (const row of rows) {
    let s = sections.at(-1);
    if (!s || s.currency !== row.currency) {
      s = { currency: row.currency, opening_balance: null, lines: [], closing_balance: formatAmount(row.currency_open, row.currency), overdue: formatAmount(row.currency_overdue, row.currency) };
      sections.push(s);
    }
    s.lines.push(openLine(row, to));
  }
  return sections;
}

function activitySections(rows: ActivityRow[], opening: Map<string, string>): CustomerStatement['currencies'] {
  const currencies = [...new Set([...opening.keys(), ...rows.map((r) => r.currency)])].sort();
  return currencies.map((currency) => {
    let balance = new Dec(opening.get(currency) ?? 0);
    const openingBalance = formatAmount(balance, currency);
    const lines = rows
      .filter((r) => r.currency === currency)
      .map((r): StatementLine => {
        balance = balance.plus(r.amount);
        const allocation = r.kind === 'allocation' || r.kind === 'allocation_reversal';
        return {
          kind: r.kind,
          id: r.id,
          date: r.date,
          reference: r.reference,
          applied_to: r.applied_to,
          customer_reference: null,
          due_on: r.due_on,
          days_overdue: null,
          amount: formatAmount(r.amount, currency),
          applied: allocation && r.applied !== null ? formatAmount(r.applied, currency) : null,
          open: null,
          balance: formatAmount(balance, currency),
        };
      });
    return { currency, opening_balance: openingBalance, lines, closing_balance: formatAmount(balance, currency), overdue: null };
  });
}

export async function customerStatement(ctx: ServiceContext, input: StatementRequest): Promise<CustomerStatement> {
  const { type, from, to } = checkedPeriod(ctx, input);
  const customer = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: input.id, today: ctx.today });
  if (!customer) throw notFound('customer');
  const def = await cachedWorkflow(ctx, 'receivable_document');
  const q = { organizationId: ctx.org.id, customerId: customer.id, states: def.states.filter((s) => SETTLEABLE.has(s.semantic)).map((s) => s.key) };
  const currencies =
    from === null
      ? openItemsSections(await openItemsOn(ctx.db, { ...q, asOf: to }), to)
      : activitySections(await activityBetween(ctx.db, { ...q, from, to }), await balancesBefore(ctx.db, { ...q, from }));
  return {
    type,
    from,
    to,
    customer: { id: customer.id, code: customer.code, legal_name: customer.legalName, email: customer.email },
    currencies,
  };
}
