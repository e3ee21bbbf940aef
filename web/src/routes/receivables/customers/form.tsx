import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import { createCustomerInput, updateCustomerInput } from '../../../../../src/contract/receivables/customers';
import { PARTY_KINDS, REGISTRATION_TYPES } from '../../../../../src/domain/receivables';
import { isStale, problemOf } from '../../../api/problem';
import { problemMessage } from '../../../api/problem-message';
import { trpc, write } from '../../../api/trpc';
import { useSchemaForm } from '../../../forms/use-schema-form';
import { useI18n, type MessageKey } from '../../../i18n';
import { Alert, useToast } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { SelectField, TextField } from '../../../ui/Field';
import { PageTitle } from '../../layout';
import { customerFieldsQuery, customerQuery, RECEIVABLES_KEYS, type Customer } from './queries';
import { ReadinessPanel } from './readiness';

/**
 * Creating and changing a customer, on the procedures' own input schemas (create, update): every field
 * they take. A blank optional text is sent as null (cleared); the address is sent whole. A stale
 * revision reloads the customer and says so; the server's problems land on their fields.
 */
type CreateValues = z.input<typeof createCustomerInput>;
type Register = UseFormRegister<CreateValues>;

const nullIfBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const undefinedIfBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const NULLABLE = ['email', 'phone', 'registration_no', 'sst_registration_no', 'tin'] as const;
const ADDRESS = ['line1', 'line2', 'city', 'postcode', 'state'] as const;

const PARTY_LABEL: Record<(typeof PARTY_KINDS)[number], MessageKey> = { organization: 'customerForm.partyOrganization', individual: 'customerForm.partyIndividual' };
const REGISTRATION_LABEL: Record<(typeof REGISTRATION_TYPES)[number], MessageKey> = {
  brn: 'customerForm.regBrn',
  nric: 'customerForm.regNric',
  passport: 'customerForm.regPassport',
  army: 'customerForm.regArmy',
};
const FIELD_LABEL: Record<(typeof NULLABLE)[number], MessageKey> = {
  email: 'customerForm.email',
  phone: 'customerForm.phone',
  registration_no: 'customerForm.registrationNo',
  sst_registration_no: 'customerForm.sstNo',
  tin: 'customerForm.tin',
};
const ADDRESS_LABEL: Record<(typeof ADDRESS)[number], MessageKey> = {
  line1: 'customerForm.line1',
  line2: 'customerForm.line2',
  city: 'customerForm.city',
  postcode: 'customerForm.postcode',
  state: 'customerForm.state',
};

function errorAt(errors: FieldErrors<CreateValues>, path: string): string | undefined {
  let node: unknown = errors;
  for (const token of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** The fields both forms show. */
function CustomerFields({ register, errors }: { register: Register; errors: FieldErrors<CreateValues> }) {
  const { t } = useI18n();
  const customFields = useQuery(customerFieldsQuery);
  const section = 'grid gap-4 rounded-lg border border-slate-300 bg-white p-4 shadow-sm sm:grid-cols-2';
  return (
    <>
      <fieldset className={section}>
        <legend className="px-1 text-lg font-semibold">{t('customerForm.identity')}</legend>
        <TextField label={t('customerForm.code')} required autoComplete="off" error={errorAt(errors, 'code')} {...register('code')} />
        <TextField label={t('customerForm.legalName')} required autoComplete="organization" error={errorAt(errors, 'legal_name')} {...register('legal_name')} />
        <SelectField label={t('customerForm.partyKind')} error={errorAt(errors, 'party_kind')} {...register('party_kind')}>
          {PARTY_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(PARTY_LABEL[k])}
            </option>
          ))}
        </SelectField>
        <TextField label={t('customerForm.tin')} hint={t('customerForm.tinHint')} autoComplete="off" error={errorAt(errors, 'tin')} {...register('tin', { setValueAs: nullIfBlank })} />
        <SelectField label={t('customerForm.registrationType')} error={errorAt(errors, 'registration_type')} {...register('registration_type', { setValueAs: nullIfBlank })}>
          <option value="">{t('customerForm.none')}</option>
          {REGISTRATION_TYPES.map((k) => (
            <option key={k} value={k}>
              {t(REGISTRATION_LABEL[k])}
            </option>
          ))}
        </SelectField>
        {(['registration_no', 'sst_registration_no'] as const).map((name) => (
          <TextField key={name} label={t(FIELD_LABEL[name])} autoComplete="off" error={errorAt(errors, name)} {...register(name, { setValueAs: nullIfBlank })} />
        ))}
      </fieldset>
      <fieldset className={section}>
        <legend className="px-1 text-lg font-semibold">{t('customerForm.contact')}</legend>
        <TextField label={t('customerForm.email')} type="email" autoComplete="email" error={errorAt(errors, 'email')} {...register('email', { setValueAs: nullIfBlank })} />
        <TextField label={t('customerForm.phone')} hint={t('customerForm.phoneHint')} type="tel" autoComplete="tel" error={errorAt(errors, 'phone')} {...register('phone', { setValueAs: nullIfBlank })} />
        {ADDRESS.map((part) => (
          <TextField
            key={part}
            label={t(ADDRESS_LABEL[part])}
            {...(part === 'state' ? { hint: t('customerForm.stateHint') } : {})}
            autoComplete={part === 'line1' ? 'address-line1' : part === 'line2' ? 'address-line2' : part === 'city' ? 'address-level2' : part === 'postcode' ? 'postal-code' : 'off'}
            error={errorAt(errors, `address.${part}`)}
            {...register(`address.${part}`, { setValueAs: undefinedIfBlank })}
          />
        ))}
        <TextField label={t('customerForm.country')} hint={t('customerForm.countryHint')} autoComplete="country" maxLength={2} error={errorAt(errors, 'country_code')} {...register('country_code')} />
      </fieldset>
      <fieldset className={section}>
        <legend className="px-1 text-lg font-semibold">{t('customerForm.terms')}</legend>
        <TextField label={t('customerForm.currency')} hint={t('customerForm.currencyHint')} maxLength={3} autoComplete="off" error={errorAt(errors, 'currency')} {...register('currency')} />
        <TextField label={t('customerForm.paymentTerms')} type="number" inputMode="numeric" min={0} max={365} error={errorAt(errors, 'payment_terms_days')} {...register('payment_terms_days', { valueAsNumber: true })} />
        <label className="inline-flex min-h-11 items-center gap-3 self-end has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          <input type="checkbox" className="h-5 w-5" {...register('reminders_off')} />
          <span className="font-medium">{t('customerForm.remindersOff')}</span>
        </label>
        {(customFields.data ?? []).map((f) =>
          f.type === 'select' ? (
            <SelectField key={f.id} label={f.label} required={f.required} error={errorAt(errors, `custom_fields.${f.key}`)} {...register(`custom_fields.${f.key}`)}>
              <option value="">{t('customerForm.none')}</option>
              {f.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </SelectField>
          ) : (
            <TextField
              key={f.id}
              label={f.label}
              required={f.required}
              type={f.type === 'date' ? 'date' : 'text'}
              error={errorAt(errors, `custom_fields.${f.key}`)}
              {...register(`custom_fields.${f.key}`)}
            />
          ),
        )}
      </fieldset>
    </>
  );
}

/** Custom field values as sent: blank ones left out (an update replaces them all). */
function withCustomFields<T extends { custom_fields?: Record<string, string> | undefined }>(values: T): T {
  if (!values.custom_fields) return values;
  const kept = Object.fromEntries(Object.entries(values.custom_fields).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
  return { ...values, custom_fields: kept };
}

/** Blank parts of the address left out; blank optional texts sent as null (cleared). */
function withAddress<T extends { address?: Record<string, string | undefined> | undefined }>(values: T): T {
  const address = Object.fromEntries(Object.entries(values.address ?? {}).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const out: Record<string, unknown> = { ...values, address };
  for (const name of [...NULLABLE, 'registration_type']) if (out[name] === '') out[name] = null;
  return out as T;
}

export function NewCustomerPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [key] = useState(() => crypto.randomUUID());
  const form = useSchemaForm(createCustomerInput, {
    defaultValues: { code: '', legal_name: '', party_kind: 'organization', currency: 'MYR', country_code: 'MY', payment_terms_days: 30 },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const created = await trpc.receivables.customers.create.mutate(withAddress(withCustomFields(values)), write({ idempotencyKey: key }));
      queryClient.setQueryData(customerQuery(created.id).queryKey, created);
      void queryClient.invalidateQueries({ queryKey: ['receivables.customers.list'] });
      toast(t('customerForm.created', { name: created.legal_name }));
      await navigate({ to: '/customers/$customerId', params: { customerId: created.id } });
    } catch (error) {
      form.showProblem(error);
    }
  });
  return (
    <>
      <PageTitle intro={t('customerForm.newIntro')}>{t('customerForm.newTitle')}</PageTitle>
      <form noValidate onSubmit={onSubmit} className="flex max-w-3xl flex-col gap-4">
        <CustomerFields register={form.register} errors={form.formState.errors} />
        {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('customerForm.create')}
          </Button>
          <Link to="/customers" className="inline-flex min-h-11 items-center px-2 text-blue-800 underline">
            {t('customerForm.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}

/** What the edit form starts from: the customer as read, blanks for what it lacks. */
function valuesOf(c: Customer): z.input<typeof updateCustomerInput> {
  return {
    id: c.id,
    code: c.code,
    legal_name: c.legal_name,
    party_kind: c.party_kind,
    currency: c.currency,
    country_code: c.country_code,
    payment_terms_days: c.payment_terms_days,
    address: { line1: c.address.line1 ?? '', line2: c.address.line2 ?? '', city: c.address.city ?? '', postcode: c.address.postcode ?? '', state: c.address.state ?? '' },
    email: c.email ?? null,
    phone: c.phone ?? null,
    registration_no: c.registration_no ?? null,
    registration_type: c.registration_type ?? null,
    sst_registration_no: c.sst_registration_no ?? null,
    tin: c.tin ?? null,
    custom_fields: c.custom_fields ?? {},
    is_active: c.is_active,
    reminders_off: c.reminders_off,
  };
}

export function EditCustomerPage({ customerId }: { customerId: string }) {
  const { t } = useI18n();
  const customer = useQuery(customerQuery(customerId));
  // Said above the form, which is rebuilt from the customer as reloaded.
  const [stale, setStale] = useState(false);
  if (customer.isPending) return <p role="status">{t('app.loading')}</p>;
  if (customer.error || !customer.data) return <Alert tone="error">{problemMessage(problemOf(customer.error), t)}</Alert>;
  return <EditCustomerForm key={customer.data.revision} customer={customer.data} stale={stale} onStale={() => setStale(true)} />;
}

function EditCustomerForm({ customer, stale, onStale }: { customer: Customer; stale: boolean; onStale: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useSchemaForm(updateCustomerInput, { defaultValues: valuesOf(customer) });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const saved = await trpc.receivables.customers.update.mutate(withAddress(withCustomFields(values)), write({ revision: customer.revision }));
      for (const k of RECEIVABLES_KEYS) void queryClient.invalidateQueries({ queryKey: k });
      queryClient.setQueryData(customerQuery(saved.id).queryKey, saved);
      toast(t('customerForm.saved', { name: saved.legal_name }));
      await navigate({ to: '/customers/$customerId', params: { customerId: saved.id } });
    } catch (error) {
      const problem = form.showProblem(error);
      if (isStale(problem)) {
        form.clearProblem();
        onStale();
        await queryClient.invalidateQueries({ queryKey: customerQuery(customer.id).queryKey });
      }
    }
  });
  const register = form.register as unknown as Register;
  return (
    <>
      <PageTitle intro={customer.code}>{t('customerForm.editTitle', { name: customer.legal_name })}</PageTitle>
      {stale ? (
        <Alert tone="warning" className="mb-4">
          {t('problem.stale')}
        </Alert>
      ) : null}
      <div className="mb-4 max-w-3xl">
        <ReadinessPanel customerId={customer.id} />
      </div>
      <form noValidate onSubmit={onSubmit} className="flex max-w-3xl flex-col gap-4">
        <CustomerFields register={register} errors={form.formState.errors as FieldErrors<CreateValues>} />
        <label className="inline-flex min-h-11 items-center gap-2">
          <input type="checkbox" className="h-5 w-5" {...form.register('is_active')} />
          {t('customerForm.active')}
        </label>
        {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('customerForm.save')}
          </Button>
          <Link to="/customers/$customerId" params={{ customerId: customer.id }} className="inline-flex min-h-11 items-center px-2 text-blue-800 underline">
            {t('customerForm.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
