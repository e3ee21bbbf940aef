import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Money } from '../../ui/Money';
import { PageTitle } from '../layout';
import { customersQuery, einvoiceQuery, invoiceListQuery, type InvoiceListInput, type InvoiceListItem } from './invoice-api';
import { lhdnErrorSentence } from './invoice-states';

/** The monitor's sections: documents in a workflow state that waits on LHDN or on the issuer. */
const SECTIONS: { state: string; title: MessageKey; empty: MessageKey }[] = [
  { state: 'submitted', title: 'einvoices.submitted', empty: 'einvoices.noneSubmitted' },
  { state: 'rejection_requested', title: 'einvoices.rejectionRequested', empty: 'einvoices.noneRejection' },
  { state: 'cancel_requested', title: 'einvoices.cancelPending', empty: 'einvoices.noneCancel' },
];

const byState = (state: string): InvoiceListInput => ({ state: [state], limit: 100 });

/**
 * The e-invoice monitor: documents LHDN found invalid (back in draft with their number, to correct
 * and issue again) first, then those submitted and waiting for LHDN, those whose buyer asked to
 * reject them, and those with a cancellation pending.
 */
export function EinvoiceMonitorPage() {
  const { t } = useI18n();
  return (
    <>
      <PageTitle intro={t('einvoices.intro')}>{t('einvoices.title')}</PageTitle>
      <InvalidSection />
      {SECTIONS.map((s) => (
        <StateSection key={s.state} state={s.state} title={t(s.title)} empty={t(s.empty)} />
      ))}
    </>
  );
}

function DocumentLink({ doc, children }: { doc: InvoiceListItem; children?: React.ReactNode }) {
  const { t } = useI18n();
  const customers = useQuery(customersQuery);
  const { date } = useDates();
  const name = customers.data?.find((c) => c.id === doc.customer_id)?.legal_name ?? doc.buyer?.name ?? '';
  return (
    <li className="rounded-lg border border-slate-300 bg-white p-3" data-monitor-row={doc.id} data-reference={doc.reference ?? ''}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link to="/invoices/$invoiceId" params={{ invoiceId: doc.id }} className="font-semibold text-blue-800 underline">
          {doc.reference ?? t('invoices.draftReference')}
        </Link>
        <Money amount={doc.gross_amount} currency={doc.currency} />
      </div>
      <p className="text-sm text-slate-700">
        {name} · {date(doc.invoice_date)}
      </p>
      {children}
    </li>
  );
}

function StateSection({ state, title, empty }: { state: string; title: string; empty: string }) {
  const { t } = useI18n();
  const list = useQuery(invoiceListQuery(byState(state)));
  const id = `monitor-${state}`;
  const docs = list.data?.documents ?? [];
  return (
    <section aria-labelledby={id} className="mb-6" data-section={state}>
      <h2 id={id} className="mb-2 text-xl font-semibold">
        {title} {list.data ? <span className="text-base font-normal text-slate-700">({docs.length}{list.data.next_cursor ? '+' : ''})</span> : null}
      </h2>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && docs.length === 0 ? <p className="text-slate-700">{empty}</p> : null}
      <ul className="flex flex-col gap-2">
        {docs.map((doc) => (
          <DocumentLink key={doc.id} doc={doc} />
        ))}
      </ul>
    </section>
  );
}

/** Drafts that carry a number were issued once and sent back by LHDN: each with LHDN's first error as a sentence. */
function InvalidSection() {
  const { t } = useI18n();
  const list = useQuery(invoiceListQuery(byState('draft')));
  const numbered = (list.data?.documents ?? []).filter((d) => d.reference !== null);
  const statuses = useQueries({ queries: numbered.map((d) => ({ ...einvoiceQuery(d.id), refetchInterval: false as const })) });
  const invalid = numbered.map((doc, i) => ({ doc, e: statuses[i]?.data })).filter((x) => x.e?.status === 'invalid');
  const loading = list.isPending || statuses.some((s) => s.isPending);
  return (
    <section aria-labelledby="monitor-invalid" className="mb-6" data-section="invalid">
      <h2 id="monitor-invalid" className="mb-2 text-xl font-semibold">
        {t('einvoices.invalid')} {!loading ? <span className="text-base font-normal text-slate-700">({invalid.length})</span> : null}
      </h2>
      {loading ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {!loading && invalid.length === 0 ? <p className="text-slate-700">{t('einvoices.noneInvalid')}</p> : null}
      <ul className="flex flex-col gap-2">
        {invalid.map(({ doc, e }) => (
          <DocumentLink key={doc.id} doc={doc}>
            {e?.errors[0] ? <p className="mt-1 text-sm text-red-800">{lhdnErrorSentence(e.errors[0], t)}</p> : null}
          </DocumentLink>
        ))}
      </ul>
    </section>
  );
}
