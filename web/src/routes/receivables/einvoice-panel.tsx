import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { qrImageOf } from './einvoice-qr-image';
import { einvoiceQuery, invoiceQuery, type EinvoiceAnswer, type InvoiceAnswer } from './invoice-api';
import { einvoiceStatusLabel, einvoiceStatusTone, isBuyerError, lhdnErrorSentence } from './invoice-states';

/** LHDN's window after validation in which the issuer may cancel and the buyer may ask to reject. */
export const WINDOW_MS = 72 * 3_600_000;

/** The time left until `end` as hours and minutes (0 when it has passed), ticking every half minute. */
function useTimeLeft(end: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (end === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [end]);
  return end === undefined ? undefined : Math.max(0, end - now);
}

/**
 * The e-invoice panel of an issued document (and of a draft LHDN found invalid): its status at LHDN,
 * UUID, long id, the validation link with its QR code, LHDN's errors as sentences with the next step,
 * and the time left of the 72 hours for a cancellation and for the buyer's rejection.
 */
export function EinvoicePanel({ doc }: { doc: InvoiceAnswer }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  // While the document is with LHDN, its e-invoice is read again every few seconds whatever the last
  // answer said: a draft issued again after an invalid one still shows that one until the new
  // submission is made by the job.
  const withLhdn = doc.state === 'submitted';
  const einvoice = useQuery({ ...einvoiceQuery(doc.id), ...(withLhdn ? { refetchInterval: 3_000 } : {}) });
  const status = einvoice.data?.status;
  // LHDN's answer moves the document too (submitted → issued, or back to draft): read it again.
  useEffect(() => {
    if (status && status !== 'submitted') void queryClient.invalidateQueries({ queryKey: invoiceQuery(doc.id).queryKey });
  }, [status, einvoice.dataUpdatedAt, doc.id, queryClient]);
  return (
    <section aria-labelledby="einvoice-panel" className="mb-6 rounded-lg border border-slate-300 bg-white p-4 shadow-sm" data-testid="einvoice-panel">
      <h2 id="einvoice-panel" className="mb-3 text-xl font-semibold">
        {t('einvoice.title')}
      </h2>
      {einvoice.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {einvoice.error ? <Alert tone="error">{problemMessage(problemOf(einvoice.error), t)}</Alert> : null}
      {einvoice.data ? <PanelBody doc={doc} e={einvoice.data} /> : null}
    </section>
  );
}

function PanelBody({ doc, e }: { doc: InvoiceAnswer; e: EinvoiceAnswer }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  return (
    <div className="flex flex-col gap-4">
      <p className="flex flex-wrap items-center gap-2" role="status">
        <span>{t('einvoice.status')}</span>
        <Badge tone={einvoiceStatusTone(e.status)}>
          <span data-testid="einvoice-status">{einvoiceStatusLabel(e.status, t)}</span>
        </Badge>
        {e.status === 'submitted' ? <span className="text-sm text-slate-700">{t('einvoice.waiting')}</span> : null}
      </p>
      {e.status === 'not_submitted' ? <p className="text-slate-700">{doc.semantic === 'draft' ? t('einvoice.notYet') : t('einvoice.notSubmitted')}</p> : null}
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {e.uuid ? (
          <>
            <dt className="font-medium">{t('einvoice.uuid')}</dt>
            <dd className="break-all font-mono" data-testid="einvoice-uuid">
              {e.uuid}
            </dd>
          </>
        ) : null}
        {e.long_id ? (
          <>
            <dt className="font-medium">{t('einvoice.longId')}</dt>
            <dd className="break-all font-mono">{e.long_id}</dd>
          </>
        ) : null}
        {e.submitted_at ? (
          <>
            <dt className="font-medium">{t('einvoice.submittedAt')}</dt>
            <dd>{dateTime(e.submitted_at)}</dd>
          </>
        ) : null}
        {e.validated_at ? (
          <>
            <dt className="font-medium">{t('einvoice.validatedAt')}</dt>
            <dd>{dateTime(e.validated_at)}</dd>
          </>
        ) : null}
        {e.cancelled_at ? (
          <>
            <dt className="font-medium">{t('einvoice.cancelledAt')}</dt>
            <dd>{dateTime(e.cancelled_at)}</dd>
          </>
        ) : null}
      </dl>
      {e.validation_link ? <ValidationLink link={e.validation_link} /> : null}
      {e.status === 'invalid' ? <InvalidErrors doc={doc} e={e} /> : null}
      {e.status === 'valid' || e.status === 'rejection_requested' ? <Windows doc={doc} e={e} /> : null}
      {e.last_error ? (
        <Alert tone="warning">
          <p>{t('einvoice.retrying', { attempts: e.attempts })}</p>
          <p className="text-sm">{e.last_error}</p>
          {e.next_attempt_at ? <p className="text-sm">{t('einvoice.nextAttempt', { when: dateTime(e.next_attempt_at) })}</p> : null}
        </Alert>
      ) : null}
      {doc.semantic === 'draft' && e.preflight.length ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900" data-testid="einvoice-preflight">
          <p className="font-medium">{t('einvoice.preflight')}</p>
          <ul className="list-disc pl-5">
            {e.preflight.map((p) => (
              <li key={`${p.pointer}:${p.code}`}>{p.detail}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function ValidationLink({ link }: { link: string }) {
  const { t } = useI18n();
  const [qr, setQr] = useState<string>();
  useEffect(() => {
    let live = true;
    void qrImageOf(link).then((src) => live && setQr(src));
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      {qr ? <img src={qr} width={160} height={160} alt={t('einvoice.qrAlt')} className="h-40 w-40 border border-slate-200" data-testid="einvoice-qr" /> : null}
      <p>
        <a href={link} target="_blank" rel="noopener noreferrer" className="break-all text-blue-800 underline" data-testid="einvoice-link">
          {t('einvoice.validationLink')}
        </a>
      </p>
    </div>
  );
}

/** LHDN's errors, each as a sentence with LHDN's own words, then what to do: the document is a draft again. */
function InvalidErrors({ doc, e }: { doc: InvoiceAnswer; e: EinvoiceAnswer }) {
  const { t } = useI18n();
  const buyer = e.errors.some(isBuyerError);
  return (
    <div className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900" data-testid="einvoice-errors">
      <p className="font-semibold">{t('einvoice.invalidIntro')}</p>
      <ul className="mt-2 flex list-disc flex-col gap-2 pl-5">
        {e.errors.map((error, i) => (
          <li key={`${error.code}-${i}`}>
            <p data-testid="einvoice-error-sentence">{lhdnErrorSentence(error, t)}</p>
            <p className="text-sm">
              {t('einvoice.lhdnSaid', { code: error.code })} <q>{error.detail}</q>
            </p>
          </li>
        ))}
      </ul>
      <p className="mt-3 font-medium" data-testid="einvoice-next-step">
        {buyer ? t('einvoice.nextStepBuyer') : t('einvoice.nextStepDraft')}
      </p>
      {doc.semantic === 'draft' ? (
        <p className="mt-2 flex flex-wrap gap-3">
          <Link to="/invoices/$invoiceId/edit" params={{ invoiceId: doc.id }} className="text-blue-800 underline">
            {t('einvoice.fixDraft')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** The 72 hours after validation: for cancelling, and for the buyer's rejection; after them, a credit note. */
function Windows({ doc, e }: { doc: InvoiceAnswer; e: EinvoiceAnswer }) {
  const { t } = useI18n();
  const end = e.validated_at ? new Date(e.validated_at).getTime() + WINDOW_MS : undefined;
  const left = useTimeLeft(end);
  const { dateTime } = useDates();
  if (left === undefined || end === undefined) return null;
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor((left % 3_600_000) / 60_000);
  const open = left > 0;
  return (
    <div className="flex flex-col gap-2" data-testid="einvoice-window">
      {e.status === 'rejection_requested' ? (
        <Alert tone="warning">
          <p className="font-medium">{t('einvoice.rejectionRequested')}</p>
          <p>{t('einvoice.rejectionChoice')}</p>
        </Alert>
      ) : null}
      {open ? (
        <p>
          {t('einvoice.windowLeft', { hours, minutes, end: dateTime(new Date(end).toISOString()) })}
        </p>
      ) : (
        <p>
          {t('einvoice.windowClosed')}{' '}
          {doc.kind === 'sales_invoice' ? (
            <Link to="/invoices/new" search={{ kind: 'customer_credit_note', original: doc.id }} className="text-blue-800 underline">
              {t('invoice.creditNote')}
            </Link>
          ) : null}
        </p>
      )}
    </div>
  );
}
