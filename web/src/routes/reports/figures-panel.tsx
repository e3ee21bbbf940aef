import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { meQuery } from '../../api/session';
import { dateIn } from '../../format/date';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Money } from '../../ui/Money';
import { figuresQuery } from './queries';

/**
 * The To do screen's receivables dashboard: outstanding, overdue, collected in the last 90 days and
 * DSO by countback, as at the organization's today, with a link to the ageing. Shown only to a
 * person who may read receivables (nothing is asked of the server otherwise).
 */
export function FiguresPanel() {
  const me = useQuery(meQuery);
  const allowed = me.data?.permissions.includes('receivables.invoice.read') ?? false;
  return allowed ? <Figures /> : null;
}

function Figures() {
  const { t } = useI18n();
  const { timeZone } = useDates();
  const today = dateIn(new Date(), timeZone);
  const figures = useQuery(figuresQuery(today));
  const f = figures.data;
  const item = (label: string, value: React.ReactNode, testId: string) => (
    <div className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm" data-testid={testId}>
      <dt className="text-base font-medium text-slate-800">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">{value}</dd>
    </div>
  );
  return (
    <section aria-labelledby="figures-title" className="mt-8">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="figures-title" className="text-xl font-semibold text-slate-900">
          {t('figures.title')}
        </h2>
        <Link to="/ageing" className="font-medium text-blue-800 underline underline-offset-2">
          {t('figures.openAgeing')}
        </Link>
      </div>
      {figures.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {figures.error ? <Alert tone="error">{problemMessage(problemOf(figures.error), t)}</Alert> : null}
      {f ? (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {item(t('figures.outstanding'), <Money amount={f.outstanding_base} currency={f.base_currency} />, 'figure-outstanding')}
          {item(t('figures.overdue'), <Money amount={f.overdue_base} currency={f.base_currency} />, 'figure-overdue')}
          {item(t('figures.collected'), <Money amount={f.collected.amount_base} currency={f.base_currency} />, 'figure-collected')}
          {item(t('figures.dso'), f.dso.days === null ? t('figures.dsoNone') : t('figures.dsoDays', { days: f.dso.days }), 'figure-dso')}
        </dl>
      ) : null}
    </section>
  );
}
