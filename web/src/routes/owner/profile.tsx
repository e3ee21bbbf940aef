import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { updateProfileInput } from '../../../../src/contract/organization/profile';
import { RECORD_LANGUAGES } from '../../../../src/domain/organization';
import stateCodes from '../../../../data/state-codes.json';
import { isStale, problemOf } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n, type MessageKey } from '../../i18n';
import { useToast } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ProblemAlert, SettingsTitle } from './shared';

export type Profile = Awaited<ReturnType<typeof trpc.organization.profile.get.query>>;

export const profileQuery = queryOptions({ queryKey: ['organization.profile.get'], queryFn: () => trpc.organization.profile.get.query() });

const IDENTITY = ['tin', 'registration_no', 'sst_no', 'tourism_tax_no', 'msic', 'business_activity', 'phone', 'email'] as const;
const ADDRESS = ['line1', 'line2', 'line3', 'city', 'postcode', 'state', 'country_code'] as const;
const LANGUAGE_NAME: Record<(typeof RECORD_LANGUAGES)[number], MessageKey> = {
  en: 'settings.profile.language.en',
  ms: 'settings.profile.language.ms',
  zh: 'settings.profile.language.zh',
  ta: 'settings.profile.language.ta',
};

type FormValues = {
  name: string;
  base_currency: string;
  time_zone: string;
  record_languages: string[];
  address: Record<(typeof ADDRESS)[number], string>;
} & Record<(typeof IDENTITY)[number], string>;

function valuesOf(p: Profile): FormValues {
  const address = Object.fromEntries(ADDRESS.map((k) => [k, p.address?.[k] ?? (k === 'country_code' ? 'MY' : '')])) as FormValues['address'];
  return {
    name: p.name,
    base_currency: p.base_currency,
    time_zone: p.time_zone,
    record_languages: p.record_languages,
    address,
    ...(Object.fromEntries(IDENTITY.map((k) => [k, p[k] ?? ''])) as Record<(typeof IDENTITY)[number], string>),
  };
}

/** Only what changed: a blank identity field is cleared (null); an address with no first line is removed. */
function changesOf(before: FormValues, after: FormValues) {
  const out: Record<string, unknown> = {};
  for (const k of ['name', 'base_currency', 'time_zone'] as const) if (after[k] !== before[k]) out[k] = after[k];
  if (JSON.stringify([...after.record_languages].sort()) !== JSON.stringify([...before.record_languages].sort())) out.record_languages = after.record_languages;
  for (const k of IDENTITY) if (after[k].trim() !== before[k]) out[k] = after[k].trim() === '' ? null : after[k].trim();
  if (JSON.stringify(after.address) !== JSON.stringify(before.address)) {
    const a = after.address;
    out.address = ADDRESS.every((k) => k === 'country_code' || a[k].trim() === '')
      ? null
      : { line1: a.line1, city: a.city, state: a.state, country_code: a.country_code, line2: a.line2 || null, line3: a.line3 || null, postcode: a.postcode || null };
  }
  return out;
}

/**
 * The organization's profile and seller identity: what every invoice and e-invoice says of the
 * seller (TIN, BRN, SST, MSIC, address, contact). Only the changed fields are sent, with the
 * profile's revision; a field the server refuses is marked.
 */
export function ProfilePage() {
  const { t } = useI18n();
  const profile = useQuery(profileQuery);
  return (
    <>
      <SettingsTitle intro={t('settings.profile.intro')}>{t('settings.profile.title')}</SettingsTitle>
      {profile.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {profile.error ? <ProblemAlert problem={problemOf(profile.error)} /> : null}
      {profile.data ? <ProfileForm key={profile.data.revision} profile={profile.data} /> : null}
    </>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const initial = valuesOf(profile);
  const form = useSchemaForm(updateProfileInput, { defaultValues: initial as never });
  const errors = form.formState.errors as Record<string, { message?: string } & Record<string, { message?: string }>>;
  const text = (name: string, label: MessageKey, extra: { hint?: string; autoComplete?: string; type?: string } = {}) => {
    const [group, field] = name.split('.');
    const error = field ? errors[group!]?.[field]?.message : errors[name]?.message;
    return <TextField label={t(label)} error={error} autoComplete={extra.autoComplete ?? 'off'} hint={extra.hint} type={extra.type ?? 'text'} {...form.register(name as never)} />;
  };
  const onSubmit = form.handleSubmit(async () => {
    form.clearProblem();
    const changes = changesOf(initial, form.getValues() as unknown as FormValues);
    if (Object.keys(changes).length === 0) {
      toast(t('settings.profile.unchanged'), 'info');
      return;
    }
    try {
      await trpc.organization.profile.update.mutate(changes as never, write({ revision: profile.revision }));
      toast(t('settings.profile.saved'));
      await queryClient.invalidateQueries({ queryKey: ['organization.profile.get'] });
      await queryClient.invalidateQueries({ queryKey: ['organization.readiness'] });
      await queryClient.invalidateQueries({ queryKey: ['auth.me'] });
    } catch (error) {
      const problem = form.showProblem(error);
      if (isStale(problem)) await queryClient.invalidateQueries({ queryKey: ['organization.profile.get'] });
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} className="flex max-w-3xl flex-col gap-8" data-testid="profile-form">
      <fieldset className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('settings.profile.organization')}</legend>
        {text('name', 'settings.profile.name')}
        {text('base_currency', 'settings.profile.baseCurrency', { hint: t('settings.profile.baseCurrencyHint') })}
        {text('time_zone', 'settings.profile.timeZone', { hint: t('settings.profile.timeZoneHint') })}
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 font-medium">{t('settings.profile.recordLanguages')}</legend>
          {RECORD_LANGUAGES.map((l) => (
            <label key={l} className="inline-flex min-h-11 items-center gap-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
              <input type="checkbox" value={l} className="h-5 w-5" {...form.register('record_languages')} />
              <span>{t(LANGUAGE_NAME[l])}</span>
            </label>
          ))}
          {errors.record_languages?.message ? <p className="text-sm font-medium text-red-700">{errors.record_languages.message}</p> : null}
        </fieldset>
      </fieldset>
      <fieldset className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('settings.profile.seller')}</legend>
        <p className="text-sm text-slate-700 sm:col-span-2">{t('settings.profile.sellerHint')}</p>
        {text('tin', 'settings.profile.tin', { hint: t('settings.profile.tinHint') })}
        {text('registration_no', 'settings.profile.registrationNo')}
        {text('sst_no', 'settings.profile.sstNo', { hint: t('settings.profile.optionalNA') })}
        {text('tourism_tax_no', 'settings.profile.tourismTaxNo', { hint: t('settings.profile.optionalNA') })}
        {text('msic', 'settings.profile.msic', { hint: t('settings.profile.msicHint') })}
        {text('business_activity', 'settings.profile.businessActivity')}
        {text('phone', 'settings.profile.phone', { autoComplete: 'tel', type: 'tel' })}
        {text('email', 'settings.profile.email', { autoComplete: 'email', type: 'email' })}
      </fieldset>
      <fieldset className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('settings.profile.address')}</legend>
        {text('address.line1', 'settings.profile.line1')}
        {text('address.line2', 'settings.profile.line2')}
        {text('address.line3', 'settings.profile.line3')}
        {text('address.city', 'settings.profile.city')}
        {text('address.postcode', 'settings.profile.postcode')}
        <SelectField label={t('settings.profile.state')} error={errors.address?.state?.message} {...form.register('address.state' as never)}>
          <option value="">{t('settings.choose')}</option>
          {stateCodes.entries.map((s) => (
            <option key={s.code} value={s.code}>
              {s.code} {s.name}
            </option>
          ))}
        </SelectField>
        {text('address.country_code', 'settings.profile.countryCode', { hint: t('settings.profile.countryCodeHint') })}
      </fieldset>
      <ProblemAlert problem={form.problem} message={form.formMessage} />
      <div>
        <Button type="submit" busy={form.formState.isSubmitting}>
          {t('settings.profile.save')}
        </Button>
      </div>
    </form>
  );
}
