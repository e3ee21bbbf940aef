import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { allocateReceiptInput, reverseAllocationInput } from '../../../../../src/contract/receivables/receipts';
import { fieldNameOf } from '../../../forms/pointers';
import { problemOf, type ConsoleProblem } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { meQuery } from '../../../api/session';
import { trpc, write } from '../../../api/trpc';
import { addDecimals, fillInOrder, isDecimal, signOfDecimal, subtractDecimals } from '../../../format/decimal';
import { formatMoney } from '../../../format/money';
import { useDates } from '../../../format/use-dates';
import { useSchemaForm } from '../../../forms/use-schema-form';
import { useI18n } from '../../../i18n';
import { Alert, useToast } from '../../../ui/Alert';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextAreaField, TextField } from '../../../ui/Field';
import { Money } from '../../../ui/Money';
import { PageTitle } from '../../layout';
import { KIND_LABEL } from '../customers/detail';
import { customerQuery, documentQuery, openItemsQuery, receiptQuery, RECEIVABLES_KEYS, type OpenItem, type Receipt, type ReceiptAllocation } from '../customers/queries';
import { METHOD_LABEL } from './list';

const section = 'flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 shadow-sm';

/** A receipt: what was paid, what is allocated and what is left (the server's figures), its allocations, allocating the rest. */
export function ReceiptPage({ receiptId }: { receiptId: string }) {
  const { t } = useI18n();
  const { date } = useDates();
  const me = useQuery(meQuery);
  const receipt = useQuery(receiptQuery(receiptId));
  const customer = useQuery({ ...customerQuery(receipt.data?.customer_id ?? ''), enabled: !!receipt.data });
  if (receipt.isPending) return <p role="status">{t('app.loading')}</p>;
  if (receipt.error) return <Alert tone="error">{problemMessage(problemOf(receipt.error), t)}</Alert>;
  const r = receipt.data;
  const mayWrite = !!me.data?.permissions.includes('receivables.receipt.create');
  return (
    <>
      <PageTitle intro={customer.data ? customer.data.legal_name : undefined}>{t('receipt.title', { reference: r.reference })}</PageTitle>
      <div className="flex flex-col gap-4">
        <section aria-labelledby="summary-title" className={section}>
          <h2 id="summary-title" className="text-lg font-semibold">
            {t('receipt.summary')}
          </h2>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 sm:max-w-md">
            <dt>{t('receipt.customer')}</dt>
            <dd className="text-right">
              <Link to="/customers/$customerId" params={{ customerId: r.customer_id }} className="text-blue-800 underline">
                {customer.data?.code ?? t('app.loading')}
              </Link>
            </dd>
            <dt>{t('receipt.receivedOn')}</dt>
            <dd className="text-right">{date(r.received_on)}</dd>
            <dt>{t('receiptNew.method')}</dt>
            <dd className="text-right">{t(METHOD_LABEL[r.method] ?? 'receipts.method.other')}</dd>
            {r.fx_rate !== '1' ? (
              <>
                <dt>{t('receiptNew.fxRate')}</dt>
                <dd className="text-right tabular-nums">{r.fx_rate}</dd>
              </>
            ) : null}
            <dt>{t('receipt.amount')}</dt>
            <dd className="text-right" data-testid="receipt-amount">
              <Money amount={r.amount} currency={r.currency} />
            </dd>
            <dt>{t('receipt.allocated')}</dt>
            <dd className="text-right" data-testid="receipt-allocated">
              <Money amount={r.allocated} currency={r.currency} />
            </dd>
            <dt className="font-semibold">{t('receipt.unallocated')}</dt>
            <dd className="text-right font-semibold" data-testid="receipt-unallocated">
              <Money amount={r.unallocated} currency={r.currency} />
            </dd>
          </dl>
        </section>
        <Allocations receipt={r} mayWrite={mayWrite} />
        {mayWrite && signOfDecimal(r.unallocated) > 0 ? <Allocate key={`${r.id}-${r.revision}`} receipt={r} /> : null}
      </div>
    </>
  );
}

/** Every allocation of the receipt, reversals included, each reversible once with a reason. */
function Allocations({ receipt, mayWrite }: { receipt: Receipt; mayWrite: boolean }) {
  const { t } = useI18n();
  const { date } = useDates();
  const [reversing, setReversing] = useState<ReceiptAllocation>();
  const docIds = [...new Set(receipt.allocations.map((a) => a.invoice_id))];
  const docs = useQueries({ queries: docIds.map((id) => documentQuery(id)) });
  const referenceOf = (id: string) => docs.find((d) => d.data?.id === id)?.data?.reference ?? '…';
  return (
    <section aria-labelledby="allocations-title" className={section}>
      <h2 id="allocations-title" className="text-lg font-semibold">
        {t('receipt.allocations')}
      </h2>
      {receipt.allocations.length === 0 ? <p className="text-slate-700">{t('receipt.noAllocations')}</p> : null}
      {receipt.allocations.length ? (
        <ul className="flex flex-col gap-2" data-testid="allocations">
          {receipt.allocations.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3" data-allocation-id={a.id} data-reference={referenceOf(a.invoice_id)}>
              <div>
                <a href={`/invoices/${a.invoice_id}`} className="font-semibold text-blue-800 underline">
                  {referenceOf(a.invoice_id)}
                </a>
                <p className="text-sm text-slate-700">{t('receipt.effectiveOn', { date: date(a.effective_on) })}</p>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                <Money amount={a.amount} currency={a.currency} className="font-semibold" />
                {a.reverses_id ? <Badge tone="neutral">{t('receipt.reversal')}</Badge> : null}
                {a.reversed_by_id ? <Badge tone="warning">{t('receipt.reversed')}</Badge> : null}
                {mayWrite && !a.reverses_id && !a.reversed_by_id ? (
                  <Button variant="secondary" onClick={() => setReversing(a)} aria-label={t('receipt.reverseOf', { reference: referenceOf(a.invoice_id) })}>
                    {t('receipt.reverse')}
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog open={!!reversing} title={t('receipt.reversing.title')} onClose={() => setReversing(undefined)}>
        {reversing ? <ReverseAllocation allocation={reversing} reference={referenceOf(reversing.invoice_id)} onDone={() => setReversing(undefined)} /> : null}
      </Dialog>
    </section>
  );
}

function ReverseAllocation({ allocation, reference, onDone }: { allocation: ReceiptAllocation; reference: string; onDone: () => void }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key] = useState(() => crypto.randomUUID());
  const form = useSchemaForm(reverseAllocationInput, { defaultValues: { allocation_id: allocation.id, reason: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      await trpc.receivables.receipts.reverseAllocation.mutate({ allocation_id: values.allocation_id, ...(values.reason?.trim() ? { reason: values.reason.trim() } : {}) }, write({ idempotencyKey: key }));
      for (const k of RECEIVABLES_KEYS) await queryClient.invalidateQueries({ queryKey: k });
      toast(t('receipt.reversing.done', { reference }));
      onDone();
    } catch (error) {
      form.showProblem(error);
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p>{t('receipt.reversing.body', { amount: formatMoney(allocation.amount, allocation.currency, locale), reference })}</p>
      <TextAreaField label={t('receipt.reversing.reason')} hint={t('receipt.reversing.reasonHint')} rows={3} error={form.formState.errors.reason?.message} {...form.register('reason')} />
      {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
      <Button type="submit" variant="danger" busy={form.formState.isSubmitting}>
        {t('receipt.reversing.confirm')}
      </Button>
    </form>
  );
}

/** What the amounts typed add up to (only the decimals; a malformed one is the schema's to refuse). */
const sumOf = (amounts: string[]) => amounts.filter((a) => isDecimal(a)).reduce((s, a) => addDecimals(s, a.trim()), '0');

/**
 * Allocating what is left of the receipt over the customer's open invoices and debit notes in its
 * currency: amounts filled oldest first and editable, the remainder shown as typed (exact decimal
 * arithmetic), sent together in one allocate call; the server's refusals land on their rows.
 */
function Allocate({ receipt }: { receipt: Receipt }) {
  const { t } = useI18n();
  const items = useQuery(openItemsQuery({ id: receipt.customer_id, currency: receipt.currency, side: 'debit', limit: 100 }));
  if (items.isPending) return <p role="status">{t('app.loading')}</p>;
  if (items.error) return <Alert tone="error">{problemMessage(problemOf(items.error), t)}</Alert>;
  // Filled afresh only when what is open changed: a background read that answers the same keeps
  // what the person typed.
  const openNow = items.data.documents.map((d) => `${d.id}:${d.outstanding}`).join(' ');
  return <AllocateForm key={openNow} receipt={receipt} documents={items.data.documents} />;
}

function AllocateForm({ receipt, documents }: { receipt: Receipt; documents: OpenItem[] }) {
  const { t, locale } = useI18n();
  const { date } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const filled = () => fillInOrder(receipt.unallocated, documents.map((d) => d.outstanding));
  const [amounts, setAmounts] = useState<string[]>(filled);
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [key] = useState(() => crypto.randomUUID());
  const remainder = subtractDecimals(receipt.unallocated, sumOf(amounts));
  const over = signOfDecimal(remainder) < 0;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setRowErrors({});
    setMessage(undefined);
    const rows = amounts.map((amount, i) => ({ i, amount: amount.trim() })).filter((r) => r.amount !== '' && !(isDecimal(r.amount) && signOfDecimal(r.amount) === 0));
    if (rows.length === 0) return setMessage(t('receipt.allocate.nothing'));
    const input = { receipt_id: receipt.id, allocations: rows.map((r) => ({ invoice_id: documents[r.i]!.id, amount: r.amount })) };
    const parsed = allocateReceiptInput.safeParse(input);
    if (!parsed.success) {
      const errors: Record<number, string> = {};
      for (const issue of parsed.error.issues) if (issue.path[0] === 'allocations' && typeof issue.path[1] === 'number') errors[rows[issue.path[1]]!.i] = t('receipt.allocate.notAmount');
      setRowErrors(errors);
      return setMessage(t('problem.fixFields'));
    }
    setBusy(true);
    try {
      await trpc.receivables.receipts.allocate.mutate(parsed.data, write({ idempotencyKey: key }));
      toast(t('receipt.allocate.done', { count: rows.length }));
      for (const k of RECEIVABLES_KEYS) await queryClient.invalidateQueries({ queryKey: k });
    } catch (error) {
      const problem: ConsoleProblem = problemOf(error);
      const errors: Record<number, string> = {};
      for (const p of problem.pointers) {
        const at = fieldNameOf(p.pointer)?.split('.');
        if (at?.[0] === 'allocations' && at[1] !== undefined && rows[Number(at[1])]) errors[rows[Number(at[1])]!.i] = p.detail;
      }
      setRowErrors(errors);
      setMessage(Object.keys(errors).length ? t('problem.fixFields') : problemMessage(problem, t));
      if (problem.status === 422 || problem.status === 409) void queryClient.invalidateQueries({ queryKey: ['receivables.customers.openItems'] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="allocate-title" className={section}>
      <h2 id="allocate-title" className="text-lg font-semibold">
        {t('receipt.allocate.title')}
      </h2>
      <p className="text-slate-700">{t('receipt.allocate.intro', { currency: receipt.currency })}</p>
      {documents.length === 0 ? (
        <p className="text-slate-700">{t('receipt.allocate.noOpen', { currency: receipt.currency })}</p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          <ul className="flex flex-col gap-2" data-testid="allocate-rows">
            {documents.map((d, i) => (
              <li key={d.id} className="grid gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_14rem] sm:items-end" data-reference={d.reference ?? ''}>
                <div>
                  <a href={`/invoices/${d.id}`} className="font-semibold text-blue-800 underline">
                    {d.reference}
                  </a>
                  <p className="text-sm text-slate-700">
                    {t(KIND_LABEL[d.kind] ?? 'customer.kind.sales_invoice')} · {t('customer.dated', { date: date(d.invoice_date) })} · {t('customer.due', { date: date(d.due_on) })}
                  </p>
                  <p className="text-sm text-slate-700">
                    {t('customer.outstanding')} <Money amount={d.outstanding} currency={d.currency} />
                  </p>
                </div>
                <TextField
                  label={t('receipt.allocate.amountFor', { reference: d.reference ?? '' })}
                  inputMode="decimal"
                  autoComplete="off"
                  name={`allocation-${i}`}
                  value={amounts[i] ?? ''}
                  error={rowErrors[i]}
                  onChange={(e) => setAmounts((all) => all.map((a, j) => (j === i ? e.target.value : a)))}
                />
              </li>
            ))}
          </ul>
          <p className={`text-lg font-semibold ${over ? 'text-red-700' : ''}`} aria-live="polite" data-testid="allocate-remainder">
            {t('receipt.allocate.remainder')} {formatMoney(remainder, receipt.currency, locale)}
          </p>
          {over ? <Alert tone="warning">{t('receipt.allocate.overSpent')}</Alert> : null}
          {message ? <Alert tone="error">{message}</Alert> : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" busy={busy}>
              {t('receipt.allocate.submit')}
            </Button>
            <Button variant="secondary" onClick={() => setAmounts(filled())}>
              {t('receipt.allocate.fillOldest')}
            </Button>
            <Button variant="ghost" onClick={() => setAmounts(documents.map(() => ''))}>
              {t('receipt.allocate.clear')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
