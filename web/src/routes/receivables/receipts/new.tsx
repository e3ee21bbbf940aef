import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { createReceiptInput } from '../../../../../src/contract/receivables/receipts';
import { RECEIPT_METHODS } from '../../../../../src/domain/receivables';
import { trpc, write } from '../../../api/trpc';
import { dateIn } from '../../../format/date';
import { useDates } from '../../../format/use-dates';
import { useSchemaForm } from '../../../forms/use-schema-form';
import { useI18n } from '../../../i18n';
import { Alert, useToast } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { SelectField, TextField } from '../../../ui/Field';
import { PageTitle } from '../../layout';
import { balanceQuery, customerListQuery, customerQuery, receiptQuery, RECEIVABLES_KEYS, type Customer } from '../customers/queries';
import { METHOD_LABEL } from './list';

const undefinedIfBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * Recording a receipt (receivables.receipts.create on its own input schema): the customer, what they
 * paid and how; then on to the receipt, where it is allocated over their open documents.
 */
export function NewReceiptPage({ customer }: { customer?: string | undefined }) {
  const { t } = useI18n();
  const customers = useQuery(customerListQuery({ limit: 100, is_active: true }));
  // The customer named in the address, though it may not be on the first page of the list.
  const named = useQuery({ ...customerQuery(customer ?? ''), enabled: !!customer });
  if (customers.isPending || (customer && named.isPending)) return <p role="status">{t('app.loading')}</p>;
  const choices = [...(named.data && !customers.data?.customers.some((c) => c.id === named.data.id) ? [named.data] : []), ...(customers.data?.customers ?? [])];
  return <NewReceiptForm customer={named.data?.id} choices={choices} />;
}

function NewReceiptForm({ customer, choices }: { customer: string | undefined; choices: Customer[] }) {
  const { t } = useI18n();
  const { timeZone } = useDates();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [key] = useState(() => crypto.randomUUID());
  const form = useSchemaForm(createReceiptInput, {
    defaultValues: { customer_id: customer ?? '', amount: '', received_on: dateIn(new Date(), timeZone), method: 'bank_transfer', reference: '' },
  });
  const customerId = form.watch('customer_id');
  const currency = form.watch('currency');
  const chosen = choices.find((c) => c.id === customerId);
  const balance = useQuery({ ...balanceQuery(customerId), enabled: !!chosen });
  const shownCurrency = currency || chosen?.currency || '';
  const foreign = !balance.data || (shownCurrency !== '' && shownCurrency !== balance.data.base_currency);

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const receipt = await trpc.receivables.receipts.create.mutate(values, write({ idempotencyKey: key }));
      queryClient.setQueryData(receiptQuery(receipt.id).queryKey, receipt);
      for (const k of RECEIVABLES_KEYS) void queryClient.invalidateQueries({ queryKey: k });
      toast(t('receiptNew.recorded', { reference: receipt.reference }));
      await navigate({ to: '/receipts/$receiptId', params: { receiptId: receipt.id } });
    } catch (error) {
      form.showProblem(error);
    }
  });

  return (
    <>
      <PageTitle intro={t('receiptNew.intro')}>{t('receiptNew.title')}</PageTitle>
      <form noValidate onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4 shadow-sm">
        <SelectField label={t('receiptNew.customer')} required error={form.formState.errors.customer_id?.message} {...form.register('customer_id')}>
          <option value="">{t('receiptNew.chooseCustomer')}</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {`${c.legal_name} (${c.code}, ${c.currency})`}
            </option>
          ))}
        </SelectField>
        <TextField label={t('receiptNew.amount')} required inputMode="decimal" autoComplete="off" error={form.formState.errors.amount?.message} {...form.register('amount')} />
        <TextField
          label={t('receiptNew.currency')}
          hint={chosen ? t('receiptNew.currencyHint', { currency: chosen.currency }) : undefined}
          maxLength={3}
          autoComplete="off"
          placeholder={chosen?.currency}
          error={form.formState.errors.currency?.message}
          {...form.register('currency', { setValueAs: undefinedIfBlank })}
        />
        {foreign ? (
          <TextField
            label={t('receiptNew.fxRate')}
            hint={balance.data ? t('receiptNew.fxRateHint', { base: balance.data.base_currency, currency: shownCurrency }) : undefined}
            inputMode="decimal"
            autoComplete="off"
            error={form.formState.errors.fx_rate?.message}
            {...form.register('fx_rate', { setValueAs: undefinedIfBlank })}
          />
        ) : null}
        <TextField label={t('receiptNew.receivedOn')} type="date" required error={form.formState.errors.received_on?.message} {...form.register('received_on')} />
        <SelectField label={t('receiptNew.method')} error={form.formState.errors.method?.message} {...form.register('method')}>
          {RECEIPT_METHODS.map((m) => (
            <option key={m} value={m}>
              {t(METHOD_LABEL[m] ?? 'receipts.method.other')}
            </option>
          ))}
        </SelectField>
        <TextField label={t('receiptNew.reference')} hint={t('receiptNew.referenceHint')} required maxLength={100} autoComplete="off" error={form.formState.errors.reference?.message} {...form.register('reference')} />
        {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('receiptNew.record')}
          </Button>
          <Link to="/receipts" className="inline-flex min-h-11 items-center px-2 text-blue-800 underline">
            {t('customerForm.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
