import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { problemOf } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { meQuery } from '../../../api/session';
import { signOfDecimal } from '../../../format/decimal';
import { useDates } from '../../../format/use-dates';
import { useI18n, type MessageKey } from '../../../i18n';
import { Alert } from '../../../ui/Alert';
import { Badge } from '../../../ui/Badge';
import { buttonClass } from '../../../ui/Button';
import { SelectField } from '../../../ui/Field';
import { Money } from '../../../ui/Money';
import { PageTitle } from '../../layout';
import { customerQuery, receiptListQuery, type ReceiptListInput } from '../customers/queries';

export interface ReceiptsSearch {
  customer?: string | undefined;
  open?: boolean | undefined;
  cursor?: string | undefined;
}

export const METHOD_LABEL: Record<string, MessageKey> = {
  bank_transfer: 'receipts.method.bank_transfer',
  cheque: 'receipts.method.cheque',
  cash: 'receipts.method.cash',
  card: 'receipts.method.card',
  fpx: 'receipts.method.fpx',
  duitnow: 'receipts.method.duitnow',
  other: 'receipts.method.other',
};

/** Receipts, newest received first: all, or those with something left to allocate; one customer's when named. */
export function ReceiptsPage({ customer, open, cursor }: ReceiptsSearch) {
  const { t } = useI18n();
  const { date } = useDates();
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const input: ReceiptListInput = { limit: 25, ...(customer ? { customer_id: customer } : {}), ...(open ? { unallocated: true } : {}), ...(cursor ? { cursor } : {}) };
  const list = useQuery(receiptListQuery(input));
  const who = useQuery({ ...customerQuery(customer ?? ''), enabled: !!customer });
  const base = { ...(customer ? { customer } : {}), ...(open ? { open } : {}) };
  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-3">
        <PageTitle intro={who.data ? t('receipts.ofCustomer', { name: who.data.legal_name }) : t('receipts.intro')}>{t('receipts.title')}</PageTitle>
        {me.data?.permissions.includes('receivables.receipt.create') ? (
          <Link to="/receipts/new" search={customer ? { customer } : {}} className={buttonClass('primary')}>
            {t('receipts.new')}
          </Link>
        ) : null}
      </div>
      <form role="search" className="mb-4 max-w-sm" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={t('receipts.show')}
          name="open"
          value={open ? 'open' : ''}
          onChange={(e) => void navigate({ to: '/receipts', search: { ...(customer ? { customer } : {}), ...(e.target.value ? { open: true } : {}) } })}
        >
          <option value="">{t('receipts.showAll')}</option>
          <option value="open">{t('receipts.showOpen')}</option>
        </SelectField>
      </form>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && list.data.receipts.length === 0 ? <p className="text-slate-700">{t('receipts.none')}</p> : null}
      {list.data?.receipts.length ? (
        <ul className="flex flex-col gap-2" aria-label={t('receipts.listLabel')} data-testid="receipt-list">
          {list.data.receipts.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white p-3 shadow-sm" data-receipt-reference={r.reference}>
              <div>
                <Link to="/receipts/$receiptId" params={{ receiptId: r.id }} className="text-lg font-semibold text-blue-800 underline underline-offset-2">
                  {r.reference}
                </Link>
                <p className="text-sm text-slate-700">
                  {date(r.received_on)} · {t(METHOD_LABEL[r.method] ?? 'receipts.method.other')}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                <Money amount={r.amount} currency={r.currency} className="font-semibold" />
                {signOfDecimal(r.unallocated) === 0 ? (
                  <Badge tone="success">{t('receipts.fullyAllocated')}</Badge>
                ) : (
                  <Badge tone="warning">
                    {t('receipts.left')} <Money amount={r.unallocated} currency={r.currency} />
                  </Badge>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        {cursor ? (
          <Link to="/receipts" search={base} className={buttonClass('secondary')}>
            {t('customers.firstPage')}
          </Link>
        ) : null}
        {list.data?.next_cursor ? (
          <Link to="/receipts" search={{ ...base, cursor: list.data.next_cursor }} className={buttonClass('secondary')}>
            {t('customers.more')}
          </Link>
        ) : null}
      </div>
    </>
  );
}
