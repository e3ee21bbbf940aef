import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { meQuery } from '../../api/session';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { buttonClass, Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Money } from '../../ui/Money';
import { PageTitle } from '../layout';
import { customersQuery, invoiceListQuery, invoiceReferenceQuery, type InvoiceListInput, type InvoiceListItem } from './invoice-api';
import { invoiceListSearch, type InvoiceListSearch } from './invoice-search';
import { INVOICE_TABS, invoiceStateLabel, invoiceStateTone, kindLabel, type InvoiceTab } from './invoice-states';


/** Each saved tab as the list's own filters (the server decides what is overdue, outstanding or paid). */
const TAB_FILTERS: Record<InvoiceTab, Partial<Record<string, string>>> = {
  all: {},
  drafts: { state: 'draft' },
  submitted: { state: 'submitted' },
  awaiting_payment: { outstanding: 'true' },
  overdue: { overdue: 'true' },
  paid: { outstanding: 'false' },
};

const TAB_LABELS: Record<InvoiceTab, MessageKey> = {
  all: 'invoices.tab.all',
  drafts: 'invoices.tab.drafts',
  submitted: 'invoices.tab.submitted',
  awaiting_payment: 'invoices.tab.awaitingPayment',
  overdue: 'invoices.tab.overdue',
  paid: 'invoices.tab.paid',
};

const FILTER_KEYS = ['state', 'customer_id', 'currency', 'kind', 'q', 'invoice_date_from', 'invoice_date_to', 'group', 'project_id', 'outstanding', 'overdue'] as const;

/** The tab shown: the one asked for, the To do screen's view, else All. */
export function tabOf(search: InvoiceListSearch): InvoiceTab {
  if (search.tab) return search.tab;
  if (search.view === 'drafts') return 'drafts';
  if (search.view === 'overdue') return 'overdue';
  return 'all';
}

/** The list procedure's input for a tab and the filters chosen (a filter chosen wins over the tab's). */
export function listInputOf(search: InvoiceListSearch, tab: InvoiceTab): InvoiceListInput {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(TAB_FILTERS[tab])) if (v !== undefined) merged[k] = v;
  for (const k of FILTER_KEYS) {
    const v = search[k];
    if (v !== undefined) merged[k] = v;
  }
  const { outstanding, overdue, state, ...rest } = merged;
  return {
    ...rest,
    ...(state ? { state: [state] } : {}),
    ...(outstanding ? { outstanding: outstanding === 'true' } : {}),
    ...(overdue ? { overdue: true } : {}),
    ...(search.cursor ? { cursor: search.cursor } : {}),
    limit: 25,
  };
}

/**
 * Invoices: saved tabs (All, Drafts, Submitted to LHDN, Awaiting payment, Overdue, Paid), the list's
 * filters, and a page of documents, newest first, with the next page's link (keyset paging).
 */
export function InvoiceListPage({ search }: { search: InvoiceListSearch }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const tab = tabOf(search);
  const input = listInputOf(search, tab);
  const list = useQuery(invoiceListQuery(input));
  const me = useQuery(meQuery);
  const mayCreate = me.data?.permissions.includes('receivables.invoice.create') ?? false;
  const documents = list.data?.documents ?? [];
  const filtered = FILTER_KEYS.some((k) => search[k] !== undefined);

  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-3">
        <PageTitle intro={t('invoices.intro')}>{t('invoices.title')}</PageTitle>
        <div className="flex flex-wrap gap-2">
          <Link to="/einvoices" className={buttonClass('secondary')}>
            {t('einvoices.title')}
          </Link>
          {mayCreate ? (
            <Link to="/invoices/new" className={buttonClass('primary')}>
              {t('invoices.new')}
            </Link>
          ) : null}
        </div>
      </div>
      <nav aria-label={t('invoices.tabs')} className="mb-4 overflow-x-auto">
        <ul className="flex gap-1 border-b border-slate-300">
          {INVOICE_TABS.map((key) => (
            <li key={key}>
              <Link
                to="/invoices"
                search={key === 'all' ? {} : { tab: key }}
                aria-current={key === tab ? 'page' : undefined}
                data-tab={key}
                className={`inline-flex min-h-11 items-center whitespace-nowrap border-b-2 px-3 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${
                  key === tab ? 'border-blue-700 text-blue-900' : 'border-transparent text-slate-700 hover:text-slate-900'
                }`}
              >
                {t(TAB_LABELS[key])}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Filters search={search} tab={tab} />
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && documents.length === 0 ? <p className="text-slate-700">{filtered || tab !== 'all' ? t('invoices.noneMatch') : t('invoices.none')}</p> : null}
      {documents.length ? (
        <ul className="flex flex-col gap-2" aria-label={t('invoices.listLabel')} data-testid="invoice-list">
          {documents.map((doc) => (
            <InvoiceRow key={doc.id} doc={doc} />
          ))}
        </ul>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {search.cursor ? (
          <Button variant="secondary" onClick={() => void navigate({ to: '/invoices', search: { ...search, cursor: undefined } })}>
            {t('invoices.firstPage')}
          </Button>
        ) : null}
        {list.data?.next_cursor ? (
          <Link to="/invoices" search={{ ...search, cursor: list.data.next_cursor }} className={buttonClass('secondary')} data-testid="next-page">
            {t('invoices.nextPage')}
          </Link>
        ) : null}
      </div>
    </>
  );
}

function InvoiceRow({ doc }: { doc: InvoiceListItem }) {
  const { t } = useI18n();
  const { date } = useDates();
  const customers = useQuery(customersQuery);
  const customer = customers.data?.find((c) => c.id === doc.customer_id);
  const issued = doc.issued_at !== null;
  return (
    <li className="rounded-lg border border-slate-300 bg-white p-3 shadow-sm" data-invoice-row={doc.id} data-reference={doc.reference ?? ''}>
      <div className="grid gap-x-4 gap-y-1 sm:grid-cols-[1fr_auto_auto] sm:items-center">
        <div className="min-w-0">
          <Link to="/invoices/$invoiceId" params={{ invoiceId: doc.id }} className="font-semibold text-blue-800 underline underline-offset-2">
            {doc.reference ?? t('invoices.draftReference')}
          </Link>
          <span className="ml-2 text-sm text-slate-700">{kindLabel(doc.kind, t)}</span>
          <p className="truncate text-slate-800">{customer?.legal_name ?? doc.buyer?.name ?? '…'}</p>
          <p className="text-sm text-slate-700">
            {issued ? t('invoices.issuedOn', { date: date(doc.invoice_date) }) : t('invoices.preparedOn', { date: date(doc.invoice_date) })}
            {issued ? ` · ${t('invoices.dueOn', { date: date(doc.due_on) })}` : ''}
          </p>
        </div>
        <Badge tone={invoiceStateTone(doc.semantic)}>{invoiceStateLabel(doc.state, t)}</Badge>
        <dl className="grid grid-cols-[auto_auto] gap-x-3 text-sm sm:text-right">
          <dt className="text-slate-700">{t('invoices.gross')}</dt>
          <dd className="font-semibold text-slate-900">
            <Money amount={doc.gross_amount} currency={doc.currency} />
          </dd>
          {issued ? (
            <>
              <dt className="text-slate-700">{t('invoices.outstanding')}</dt>
              <dd className="text-slate-900" data-outstanding>
                <Money amount={doc.outstanding} currency={doc.currency} />
              </dd>
            </>
          ) : null}
        </dl>
      </div>
    </li>
  );
}

/** The list's filters, in a disclosure (open when any is set); applying them starts again from the first page. */
function Filters({ search, tab }: { search: InvoiceListSearch; tab: InvoiceTab }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const customers = useQuery(customersQuery);
  const reference = useQuery(invoiceReferenceQuery);
  const projectAxis = reference.data?.axes.find((a) => a.is_project_axis);
  const projects = reference.data?.analyticAccounts.filter((a) => a.axis_id === projectAxis?.id) ?? [];
  const active = FILTER_KEYS.filter((k) => search[k] !== undefined).length;
  const [open, setOpen] = useState(active > 0);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const next: Record<string, string> = {};
    for (const k of FILTER_KEYS) {
      const v = String(data.get(k) ?? '').trim();
      if (v) next[k] = k === 'currency' ? v.toUpperCase() : v;
    }
    void navigate({ to: '/invoices', search: { ...(tab === 'all' ? {} : { tab }), ...(invoiceListSearch.parse(next) as object) } });
  };

  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="mb-4 rounded-lg border border-slate-300 bg-white">
      <summary className="min-h-11 cursor-pointer px-4 py-2 font-medium text-slate-900">{active ? t('invoices.filtersActive', { count: active }) : t('invoices.filters')}</summary>
      <form role="search" aria-label={t('invoices.filters')} onSubmit={apply} className="grid gap-3 border-t border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-3" key={JSON.stringify(search)}>
        <TextField label={t('invoices.filter.q')} name="q" defaultValue={search.q ?? ''} hint={t('invoices.filter.qHint')} maxLength={100} />
        <SelectField label={t('invoices.filter.customer')} name="customer_id" defaultValue={search.customer_id ?? ''}>
          <option value="">{t('invoices.filter.any')}</option>
          {customers.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.legal_name} ({c.code})
            </option>
          ))}
        </SelectField>
        <SelectField label={t('invoices.filter.state')} name="state" defaultValue={search.state ?? ''}>
          <option value="">{t('invoices.filter.any')}</option>
          {['draft', 'submitted', 'issued', 'disputed', 'rejection_requested', 'cancel_requested', 'discarded', 'cancelled'].map((s) => (
            <option key={s} value={s}>
              {invoiceStateLabel(s, t)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('invoices.filter.kind')} name="kind" defaultValue={search.kind ?? ''}>
          <option value="">{t('invoices.filter.any')}</option>
          {(['sales_invoice', 'customer_credit_note', 'customer_debit_note'] as const).map((k) => (
            <option key={k} value={k}>
              {kindLabel(k, t)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('invoices.filter.currency')} name="currency" defaultValue={search.currency ?? ''} maxLength={3} autoCapitalize="characters" hint={t('invoices.filter.currencyHint')} />
        <SelectField label={t('invoices.filter.outstanding')} name="outstanding" defaultValue={search.outstanding ?? ''}>
          <option value="">{t('invoices.filter.any')}</option>
          <option value="true">{t('invoices.filter.outstandingTrue')}</option>
          <option value="false">{t('invoices.filter.outstandingFalse')}</option>
        </SelectField>
        <label className="flex min-h-11 items-center gap-2 self-end font-medium text-slate-900">
          <input type="checkbox" name="overdue" value="true" defaultChecked={search.overdue === 'true'} className="h-5 w-5" />
          {t('invoices.filter.overdue')}
        </label>
        <TextField type="date" label={t('invoices.filter.from')} name="invoice_date_from" defaultValue={search.invoice_date_from ?? ''} />
        <TextField type="date" label={t('invoices.filter.to')} name="invoice_date_to" defaultValue={search.invoice_date_to ?? ''} />
        <SelectField label={t('invoices.filter.group')} name="group" defaultValue={search.group ?? ''}>
          <option value="">{t('invoices.filter.any')}</option>
          <option value="only">{t('invoices.filter.groupOnly')}</option>
          <option value="none">{t('invoices.filter.groupNone')}</option>
        </SelectField>
        {projects.length ? (
          <SelectField label={t('invoices.filter.project')} name="project_id" defaultValue={search.project_id ?? ''}>
            <option value="">{t('invoices.filter.any')}</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.code} · {p.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-3">
          <Button type="submit">{t('invoices.filter.apply')}</Button>
          {active ? (
            <Link to="/invoices" search={tab === 'all' ? {} : { tab }} className={buttonClass('ghost')}>
              {t('invoices.filter.clear')}
            </Link>
          ) : null}
        </div>
      </form>
    </details>
  );
}
