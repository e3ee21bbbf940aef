import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { problemOf } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { meQuery } from '../../../api/session';
import { useI18n } from '../../../i18n';
import { Alert } from '../../../ui/Alert';
import { Badge } from '../../../ui/Badge';
import { Button, buttonClass } from '../../../ui/Button';
import { TextField } from '../../../ui/Field';
import { PageTitle } from '../../layout';
import { customerListQuery, type CustomerListInput } from './queries';

export interface CustomersSearch {
  q?: string | undefined;
  cursor?: string | undefined;
  inactive?: boolean | undefined;
}

/** The customers: a search by code or name, a keyset page at a time (the server's cursor in the address). */
export function CustomersPage({ q, cursor, inactive }: CustomersSearch) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const [term, setTerm] = useState(q ?? '');
  const input: CustomerListInput = { limit: 25, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}), ...(inactive ? {} : { is_active: true }) };
  const list = useQuery(customerListQuery(input));
  const mayCreate = me.data?.permissions.includes('receivables.customer.create');

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    const value = term.trim();
    void navigate({ to: '/customers', search: { ...(value ? { q: value } : {}), ...(inactive ? { inactive } : {}) } });
  };

  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-3">
        <PageTitle intro={t('customers.intro')}>{t('customers.title')}</PageTitle>
        {mayCreate ? (
          <Link to="/customers/new" className={buttonClass('primary')}>
            {t('customers.new')}
          </Link>
        ) : null}
      </div>
      <form role="search" onSubmit={onSearch} className="mb-4 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <TextField label={t('customers.search')} hint={t('customers.searchHint')} type="search" name="q" value={term} onChange={(e) => setTerm(e.target.value)} maxLength={100} />
        </div>
        <Button type="submit" variant="secondary">
          {t('customers.searchButton')}
        </Button>
        <label className="inline-flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={Boolean(inactive)}
            onChange={(e) => void navigate({ to: '/customers', search: { ...(q ? { q } : {}), ...(e.target.checked ? { inactive: true } : {}) } })}
          />
          {t('customers.showInactive')}
        </label>
      </form>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && list.data.customers.length === 0 ? <p className="text-slate-700">{q ? t('customers.noneFound', { q }) : t('customers.none')}</p> : null}
      {list.data?.customers.length ? (
        <ul aria-label={t('customers.listLabel')} className="flex flex-col gap-2" data-testid="customer-list">
          {list.data.customers.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white p-3 shadow-sm" data-customer-code={c.code}>
              <div className="min-w-0">
                <Link to="/customers/$customerId" params={{ customerId: c.id }} className="text-lg font-semibold text-blue-800 underline underline-offset-2">
                  {c.legal_name}
                </Link>
                <p className="text-sm text-slate-700">
                  {c.code} · {c.currency} · {t('customers.termsDays', { days: c.payment_terms_days })}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {c.is_group_company ? <Badge tone="info">{t('customers.groupCompany')}</Badge> : null}
                {c.is_active ? null : <Badge>{t('customers.inactive')}</Badge>}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        {cursor ? (
          <Link to="/customers" search={{ ...(q ? { q } : {}), ...(inactive ? { inactive } : {}) }} className={buttonClass('secondary')}>
            {t('customers.firstPage')}
          </Link>
        ) : null}
        {list.data?.next_cursor ? (
          <Link to="/customers" search={{ ...(q ? { q } : {}), ...(inactive ? { inactive } : {}), cursor: list.data.next_cursor }} className={buttonClass('secondary')}>
            {t('customers.more')}
          </Link>
        ) : null}
      </div>
    </>
  );
}
