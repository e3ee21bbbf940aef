import { useQuery } from '@tanstack/react-query';
import { problemOf } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { useI18n, type MessageKey } from '../../../i18n';
import { Alert } from '../../../ui/Alert';
import { readinessQuery, type Readiness } from './queries';

/** The buyer problems the preflight names, in the person's words; another code shows the server's sentence. */
const PROBLEM_TEXT: Record<string, MessageKey> = {
  buyer_tin_missing: 'customer.readiness.tinMissing',
  buyer_registration_missing: 'customer.readiness.registrationMissing',
  phone_not_e164: 'customer.readiness.phone',
  address_line_missing: 'customer.readiness.addressLine',
  address_city_missing: 'customer.readiness.addressCity',
  address_state_missing: 'customer.readiness.addressState',
  state_not_applicable_in_malaysia: 'customer.readiness.stateNotApplicable',
};

export function problemText(p: Readiness['problems'][number], t: (key: MessageKey) => string): string {
  const key = PROBLEM_TEXT[p.code];
  return key ? t(key) : p.detail;
}

/** The green mark, as a word too: the customer can be e-invoiced (the server's preflight of the buyer found nothing). */
export function ReadyMark({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-green-300 bg-green-50 px-2 py-0.5 text-sm font-medium text-green-900" data-testid="myinvois-ready">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-green-700">
        <path d="M10 0a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 14.2-4-4 1.4-1.4 2.6 2.6 5-5 1.4 1.4-6.4 6.4Z" />
      </svg>
      {label}
    </span>
  );
}

/** MyInvois readiness of a customer: the mark when ready, else what is missing before an e-invoice can go to them. */
export function ReadinessPanel({ customerId }: { customerId: string }) {
  const { t } = useI18n();
  const readiness = useQuery(readinessQuery(customerId));
  if (readiness.isPending) return <p role="status">{t('app.loading')}</p>;
  if (readiness.error) return <Alert tone="error">{problemMessage(problemOf(readiness.error), t)}</Alert>;
  if (readiness.data.ready) return <ReadyMark label={t('customer.readiness.ready')} />;
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900" data-testid="myinvois-not-ready">
      <p className="font-medium">{t('customer.readiness.notReady')}</p>
      <ul className="list-disc pl-5">
        {readiness.data.problems.map((p) => (
          <li key={`${p.pointer}-${p.code}`}>{problemText(p, t)}</li>
        ))}
      </ul>
    </div>
  );
}
