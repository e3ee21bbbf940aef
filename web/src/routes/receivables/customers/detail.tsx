import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { applyCreditNoteInput } from '../../../../../src/contract/receivables/receipts';
import { problemOf } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { meQuery } from '../../../api/session';
import { trpc, write } from '../../../api/trpc';
import { compareDecimals } from '../../../format/decimal';
import { useDates } from '../../../format/use-dates';
import { useSchemaForm } from '../../../forms/use-schema-form';
import { useI18n, type MessageKey } from '../../../i18n';
import { Alert, useToast } from '../../../ui/Alert';
import { Badge } from '../../../ui/Badge';
import { Button, buttonClass } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { SelectField, TextField } from '../../../ui/Field';
import { Money } from '../../../ui/Money';
import { PageTitle } from '../../layout';
import { balanceQuery, customerQuery, openItemsQuery, RECEIVABLES_KEYS, type OpenItem } from './queries';
import { ReadinessPanel } from './readiness';

export const KIND_LABEL: Record<string, MessageKey> = {
  sales_invoice: 'customer.kind.sales_invoice',
  customer_credit_note: 'customer.kind.customer_credit_note',
  customer_debit_note: 'customer.kind.customer_debit_note',
};

const section = 'flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 shadow-sm';

/** A customer: identity and MyInvois readiness, the balance per currency and the open items, oldest first. */
export function CustomerPage({ customerId }: { customerId: string }) {
  const { t } = useI18n();
  const me = useQuery(meQuery);
  const customer = useQuery(customerQuery(customerId));
  const permissions = new Set(me.data?.permissions ?? []);
  if (customer.isPending) return <p role="status">{t('app.loading')}</p>;
  if (customer.error) return <Alert tone="error">{problemMessage(problemOf(customer.error), t)}</Alert>;
  const c = customer.data;
  const address = [c.address.line1, c.address.line2, [c.address.postcode, c.address.city].filter(Boolean).join(' '), c.address.state, c.country_code].filter(Boolean).join(', ');
  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-3">
        <PageTitle intro={`${c.code} · ${c.currency}`}>{c.legal_name}</PageTitle>
        <div className="flex flex-wrap gap-2">
          {permissions.has('receivables.customer.update') ? (
            <Link to="/customers/$customerId/edit" params={{ customerId }} className={buttonClass('secondary')}>
              {t('customer.edit')}
            </Link>
          ) : null}
          {permissions.has('receivables.invoice.read') ? (
            <a href={`/v1/receivables/customers/${customerId}/statement/pdf`} target="_blank" rel="noopener" className={buttonClass('ghost')} data-testid="statement-pdf-link">
              {t('customer.statementPdf')}
            </a>
          ) : null}
          {permissions.has('receivables.receipt.create') ? (
            <Link to="/receipts/new" search={{ customer: customerId }} className={buttonClass('primary')}>
              {t('customer.recordReceipt')}
            </Link>
          ) : null}
        </div>
      </div>
      <div className="flex flex-col gap-4">
        <section aria-labelledby="identity-title" className={section}>
          <h2 id="identity-title" className="text-lg font-semibold">
            {t('customer.identity')}
          </h2>
          <ReadinessPanel customerId={customerId} />
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-700">{t('customerForm.tin')}</dt>
            <dd>{c.tin || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('customerForm.registrationNo')}</dt>
            <dd>{c.registration_no ? `${c.registration_type ? `${c.registration_type.toUpperCase()} ` : ''}${c.registration_no}` : '—'}</dd>
            <dt className="font-medium text-slate-700">{t('customerForm.phone')}</dt>
            <dd>{c.phone || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('customerForm.email')}</dt>
            <dd className="break-all">{c.email || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('customer.address')}</dt>
            <dd>{address || '—'}</dd>
            <dt className="font-medium text-slate-700">{t('customerForm.paymentTerms')}</dt>
            <dd>{t('customers.termsDays', { days: c.payment_terms_days })}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            {c.is_active ? null : <Badge>{t('customers.inactive')}</Badge>}
            {c.is_group_company ? <Badge tone="info">{t('customers.groupCompany')}</Badge> : null}
          </div>
        </section>
        {permissions.has('receivables.invoice.read') ? <Account customerId={customerId} mayApply={permissions.has('receivables.receipt.create')} /> : null}
      </div>
    </>
  );
}

function Account({ customerId, mayApply }: { customerId: string; mayApply: boolean }) {
  const { t } = useI18n();
  const { date } = useDates();
  const balance = useQuery(balanceQuery(customerId));
  const items = useQuery(openItemsQuery({ id: customerId, limit: 100 }));
  const [applying, setApplying] = useState<OpenItem>();
  return (
    <>
      <section aria-labelledby="balance-title" className={section}>
        <h2 id="balance-title" className="text-lg font-semibold">
          {t('customer.balance')}
        </h2>
        {balance.isPending ? <p role="status">{t('app.loading')}</p> : null}
        {balance.error ? <Alert tone="error">{problemMessage(problemOf(balance.error), t)}</Alert> : null}
        {balance.data && balance.data.currencies.length === 0 ? <p className="text-slate-700">{t('customer.nothingOpen')}</p> : null}
        {balance.data?.currencies.map((b) => (
          <dl key={b.currency} className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1" data-testid={`balance-${b.currency}`}>
            <dt>{t('customer.openDocuments', { count: b.open_documents_count })}</dt>
            <dd className="text-right">
              <Money amount={b.open_documents} currency={b.currency} />
            </dd>
            <dt>{t('customer.openCredits', { count: b.open_credit_notes_count })}</dt>
            <dd className="text-right">
              <Money amount={b.open_credit_notes} currency={b.currency} />
            </dd>
            <dt>{t('customer.unallocatedReceipts', { count: b.unallocated_receipts_count })}</dt>
            <dd className="text-right">
              <Money amount={b.unallocated_receipts} currency={b.currency} />
            </dd>
            <dt className="font-semibold">{t('customer.balanceDue', { currency: b.currency })}</dt>
            <dd className="text-right font-semibold" data-testid={`balance-due-${b.currency}`}>
              <Money amount={b.balance} currency={b.currency} />
            </dd>
          </dl>
        ))}
        <p>
          <Link to="/receipts" search={{ customer: customerId }} className="text-blue-800 underline">
            {t('customer.receipts')}
          </Link>
        </p>
      </section>
      <section aria-labelledby="open-title" className={section}>
        <h2 id="open-title" className="text-lg font-semibold">
          {t('customer.openItems')}
        </h2>
        {items.isPending ? <p role="status">{t('app.loading')}</p> : null}
        {items.error ? <Alert tone="error">{problemMessage(problemOf(items.error), t)}</Alert> : null}
        {items.data && items.data.documents.length === 0 ? <p className="text-slate-700">{t('customer.noOpenItems')}</p> : null}
        {items.data?.documents.length ? (
          <ul className="flex flex-col gap-2" aria-labelledby="open-title" data-testid="open-items">
            {items.data.documents.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3" data-reference={d.reference ?? ''}>
                <div>
                  <a href={`/invoices/${d.id}`} className="font-semibold text-blue-800 underline">
                    {d.reference ?? t('customer.unnumbered')}
                  </a>
                  <p className="text-sm text-slate-700">
                    {t(KIND_LABEL[d.kind] ?? 'customer.kind.sales_invoice')} · {t('customer.dated', { date: date(d.invoice_date) })} · {t('customer.due', { date: date(d.due_on) })}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <span className="text-right">
                    <span className="block text-sm text-slate-700">{t('customer.outstanding')}</span>
                    <Money amount={d.outstanding} currency={d.currency} className="font-semibold" />
                  </span>
                  {mayApply && d.kind === 'customer_credit_note' ? (
                    <Button variant="secondary" onClick={() => setApplying(d)}>
                      {t('customer.applyCredit')}
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        {items.data?.next_cursor ? <p className="text-sm text-slate-700">{t('customer.oldestShown', { count: 100 })}</p> : null}
      </section>
      <Dialog open={!!applying} title={t('customer.apply.title', { reference: applying?.reference ?? '' })} onClose={() => setApplying(undefined)}>
        {applying ? <ApplyCreditNote note={applying} candidates={(items.data?.documents ?? []).filter((d) => d.kind !== 'customer_credit_note' && d.currency === applying.currency)} onDone={() => setApplying(undefined)} /> : null}
      </Dialog>
    </>
  );
}

/** The lesser of the note's and the document's outstanding: what applying can take at most. */
const lesser = (a: string, b: string) => (compareDecimals(a, b) <= 0 ? a : b);

/** Applies a credit note to one of the customer's open invoices or debit notes in its currency. */
function ApplyCreditNote({ note, candidates, onDone }: { note: OpenItem; candidates: OpenItem[]; onDone: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key] = useState(() => crypto.randomUUID());
  const first = candidates[0];
  const form = useSchemaForm(applyCreditNoteInput, { defaultValues: { credit_note_id: note.id, invoice_id: first?.id ?? '', amount: first ? lesser(note.outstanding, first.outstanding) : '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const doc = await trpc.receivables.receipts.applyCreditNote.mutate(values, write({ idempotencyKey: key }));
      for (const k of RECEIVABLES_KEYS) void queryClient.invalidateQueries({ queryKey: k });
      toast(t('customer.apply.done', { reference: doc.reference ?? '' }));
      onDone();
    } catch (error) {
      form.showProblem(error);
    }
  });
  if (!first) return <p>{t('customer.apply.nothing')}</p>;
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p>
        {t('customer.apply.left')} <Money amount={note.outstanding} currency={note.currency} className="font-semibold" />
      </p>
      <SelectField
        label={t('customer.apply.invoice')}
        error={form.formState.errors.invoice_id?.message}
        {...form.register('invoice_id', {
          onChange: (e: { target: { value: string } }) => {
            const doc = candidates.find((d) => d.id === e.target.value);
            if (doc) form.setValue('amount', lesser(note.outstanding, doc.outstanding));
          },
        })}
      >
        {candidates.map((d) => (
          <option key={d.id} value={d.id}>
            {`${d.reference ?? ''} · ${d.outstanding} ${d.currency}`}
          </option>
        ))}
      </SelectField>
      <TextField label={t('customer.apply.amount', { currency: note.currency })} inputMode="decimal" autoComplete="off" error={form.formState.errors.amount?.message} {...form.register('amount')} />
      {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
      <Button type="submit" busy={form.formState.isSubmitting}>
        {t('customer.apply.apply')}
      </Button>
    </form>
  );
}
