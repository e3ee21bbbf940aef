import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { dateIn } from '../../format/date';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button, buttonClass } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Money } from '../../ui/Money';
import { PageTitle } from '../layout';
import { ageingDownloadUrl, ageingQuery } from './queries';

export interface AgeingSearch {
  as_of?: string | undefined;
  group?: 'only' | 'none' | undefined;
}

type T = ReturnType<typeof useI18n>['t'];

/** A bucket key's words: current, "1–30 days", "over 120 days". */
export function bucketLabel(key: string, t: T): string {
  if (key === 'current') return t('ageing.bucket.current');
  const over = /^over_(\d+)$/.exec(key);
  if (over) return t('ageing.bucket.over', { days: over[1]! });
  const days = /^days_(\d+)_(\d+)$/.exec(key);
  return days ? t('ageing.bucket.days', { from: days[1]!, to: days[2]! }) : key;
}

/**
 * The ageing as at a day: a line per customer and currency with its buckets, its total and its
 * total in base, the totals per bucket in base last; the customer's name opens their open documents
 * in the invoice list; the same report downloads as CSV or PDF.
 */
export function AgeingPage({ as_of, group }: AgeingSearch) {
  const { t } = useI18n();
  const { date, timeZone } = useDates();
  const navigate = useNavigate();
  const today = dateIn(new Date(), timeZone);
  const asOf = as_of ?? today;
  const input = { as_of: asOf, ...(group ? { group } : {}) };
  const report = useQuery(ageingQuery(input));
  const [day, setDay] = useState(asOf);
  const [who, setWho] = useState<string>(group ?? '');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void navigate({ to: '/ageing', search: { ...(day ? { as_of: day } : {}), ...(who === 'only' || who === 'none' ? { group: who } : {}) } });
  };
  const data = report.data;
  return (
    <>
      <PageTitle intro={t('ageing.intro')}>{t('ageing.title')}</PageTitle>
      <form onSubmit={onSubmit} className="mb-4 grid max-w-3xl grid-cols-1 items-end gap-3 sm:grid-cols-[1fr_1fr_auto]" aria-label={t('ageing.title')}>
        <TextField label={t('ageing.asOf')} hint={t('ageing.asOfHint')} type="date" name="as_of" max={today} value={day} onChange={(e) => setDay(e.target.value)} required />
        <SelectField label={t('ageing.group')} name="group" value={who} onChange={(e) => setWho(e.target.value)}>
          <option value="">{t('ageing.groupAll')}</option>
          <option value="only">{t('ageing.groupOnly')}</option>
          <option value="none">{t('ageing.groupNone')}</option>
        </SelectField>
        <Button type="submit">{t('ageing.show')}</Button>
      </form>
      <div className="mb-4 flex flex-wrap gap-3">
        <a href={ageingDownloadUrl(input, 'csv')} className={buttonClass('secondary')} download>
          {t('ageing.downloadCsv')}
        </a>
        <a href={ageingDownloadUrl(input, 'pdf')} className={buttonClass('secondary')} download>
          {t('ageing.downloadPdf')}
        </a>
      </div>
      {report.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {report.error ? <Alert tone="error">{problemMessage(problemOf(report.error), t)}</Alert> : null}
      {data && data.customers.length === 0 ? <p className="text-slate-700">{t('ageing.none', { date: date(data.as_of) })}</p> : null}
      {data && data.customers.length > 0 ? (
        <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white shadow-sm" role="region" aria-label={t('ageing.tableCaption', { date: date(data.as_of) })} tabIndex={0}>
          <table className="min-w-full text-sm" data-testid="ageing-table">
            <caption className="sr-only">{t('ageing.tableCaption', { date: date(data.as_of) })}</caption>
            <thead className="bg-slate-50 text-left text-slate-900">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('ageing.customer')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('ageing.currency')}
                </th>
                {data.bucket_keys.map((k) => (
                  <th key={k} scope="col" className="px-3 py-2 text-right font-semibold whitespace-nowrap">
                    {bucketLabel(k, t)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {t('ageing.total')}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold whitespace-nowrap">
                  {t('ageing.totalBase', { currency: data.base_currency })}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.customers.map((c) => (
                <tr key={`${c.customer_id}-${c.currency}`} className="border-t border-slate-200" data-customer-code={c.code} data-currency={c.currency}>
                  <th scope="row" className="px-3 py-2 text-left font-normal">
                    <Link
                      to="/invoices"
                      search={{ customer_id: c.customer_id, currency: c.currency, outstanding: 'true' }}
                      className="font-semibold text-blue-800 underline underline-offset-2"
                      aria-label={t('ageing.documents', { name: c.legal_name })}
                    >
                      {c.legal_name}
                    </Link>
                    <span className="block text-slate-700">{c.code}</span>
                    {c.is_group_company ? <Badge tone="info">{t('ageing.groupCompany')}</Badge> : null}
                  </th>
                  <td className="px-3 py-2">{c.currency}</td>
                  {data.bucket_keys.map((k) => (
                    <td key={k} className="px-3 py-2 text-right" data-bucket={k}>
                      <Money amount={c.buckets[k] ?? '0.00'} currency={c.currency} />
                    </td>
                  ))}
                  <td className="px-3 py-2 text-right font-semibold" data-bucket="total">
                    <Money amount={c.total} currency={c.currency} />
                  </td>
                  <td className="px-3 py-2 text-right" data-bucket="total_base">
                    <Money amount={c.total_base} currency={data.base_currency} />
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t-2 border-slate-400 bg-slate-50 font-semibold">
              <tr data-testid="ageing-totals">
                <th scope="row" colSpan={2} className="px-3 py-2 text-left">
                  {t('ageing.totalsRow', { currency: data.base_currency })}
                </th>
                {data.bucket_keys.map((k) => (
                  <td key={k} className="px-3 py-2 text-right" data-bucket={k}>
                    <Money amount={data.totals_base[k] ?? '0.00'} currency={data.base_currency} />
                  </td>
                ))}
                <td />
                <td className="px-3 py-2 text-right" data-bucket="total_base">
                  <Money amount={data.total_base} currency={data.base_currency} />
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      ) : null}
    </>
  );
}
