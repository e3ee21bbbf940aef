import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { changePasswordInput } from '../../../../src/contract/auth';
import { memberNamesQuery, myDelegationsQuery, myPayoutChannelsQuery, type Delegation, type PayoutChannel } from '../../api/approvals';
import { problemOf, type ConsoleProblem } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { meQuery } from '../../api/session';
import { trpc, write } from '../../api/trpc';
import { dateIn } from '../../format/date';
import { useDates } from '../../format/use-dates';
import { useSchemaForm } from '../../forms/use-schema-form';
import { fieldNameOf } from '../../forms/pointers';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';

/** A problem's pointers by form field name (`fields.account_number`), and what no field shows. */
function fieldErrors(problem: ConsoleProblem | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problem?.pointers ?? []) {
    const name = fieldNameOf(p.pointer);
    if (name && !(name in out)) out[name] = p.detail;
  }
  return out;
}

const section = 'flex flex-col gap-3';

/** Change password: the current one required; success says the other sessions ended. */
export function ChangePassword() {
  const { t } = useI18n();
  const form = useSchemaForm(changePasswordInput, { defaultValues: { current_password: '', new_password: '' } });
  const [done, setDone] = useState(false);
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    setDone(false);
    try {
      await trpc.auth.changePassword.mutate(values);
      form.reset({ current_password: '', new_password: '' });
      setDone(true);
    } catch (error) {
      const problem = form.showProblem(error);
      if (problem.code === 'current_password_wrong') form.setError('current_password', { type: 'server', message: t('me.currentPasswordWrong') }, { shouldFocus: true });
    }
  });
  const problem = form.problem;
  const message = !problem ? undefined : problem.code === 'current_password_wrong' ? undefined : problem.status === 429 ? t('signIn.rateLimited') : form.formMessage;
  return (
    <section aria-labelledby="password-title" className={section}>
      <h2 id="password-title" className="text-lg font-semibold">
        {t('me.password')}
      </h2>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <TextField label={t('me.currentPassword')} type="password" autoComplete="current-password" required error={form.formState.errors.current_password?.message} {...form.register('current_password')} />
        <TextField
          label={t('me.newPassword')}
          hint={t('me.newPasswordHint')}
          type="password"
          autoComplete="new-password"
          required
          error={form.formState.errors.new_password?.message}
          {...form.register('new_password')}
        />
        {message ? <Alert tone="error">{message}</Alert> : null}
        {done ? <Alert tone="success">{t('me.passwordChanged')}</Alert> : null}
        <div>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('me.changePassword')}
          </Button>
        </div>
      </form>
    </section>
  );
}

type ChannelKind = 'bank_transfer' | 'duitnow';
const DUITNOW_TYPES = ['mobile', 'nric', 'business_reg', 'passport'] as const;

/** The person's payout channels: masked, add one, deactivate one. */
export function PayoutChannels() {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const toast = useToast();
  const channels = useQuery(myPayoutChannelsQuery);
  const [kind, setKind] = useState<ChannelKind>('bank_transfer');
  const [values, setValues] = useState<Record<string, string>>({ name: '', bank: '', account_holder: '', account_number: '', id_type: 'mobile', id_value: '' });
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const [rowError, setRowError] = useState<string>();
  const errors = fieldErrors(problem);
  const set = (key: string) => (e: { target: { value: string } }) => setValues((all) => ({ ...all, [key]: e.target.value }));

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const input =
        kind === 'bank_transfer'
          ? { channel_key: 'bank_transfer' as const, name: values.name ?? '', fields: { bank: values.bank ?? '', account_holder: values.account_holder ?? '', account_number: values.account_number ?? '' } }
          : { channel_key: 'duitnow' as const, name: values.name ?? '', fields: { id_type: (values.id_type ?? 'mobile') as (typeof DUITNOW_TYPES)[number], id_value: values.id_value ?? '' } };
      await trpc.me.payoutChannels.create.mutate(input, write());
      setValues({ name: '', bank: '', account_holder: '', account_number: '', id_type: 'mobile', id_value: '' });
      toast(t('me.channelAdded'));
      await queryClient.invalidateQueries({ queryKey: ['me.payoutChannels.list'] });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  const onDeactivate = async (channel: PayoutChannel) => {
    setRowError(undefined);
    try {
      await trpc.me.payoutChannels.deactivate.mutate({ id: channel.id }, write({ revision: channel.revision }));
      toast(t('me.channelDeactivated', { name: channel.name }));
    } catch (error) {
      setRowError(problemMessage(problemOf(error), t));
    }
    await queryClient.invalidateQueries({ queryKey: ['me.payoutChannels.list'] });
  };

  const unplaced = problem && Object.keys(errors).length === 0 ? problemMessage(problem, t) : undefined;
  return (
    <section aria-labelledby="channels-title" className={section}>
      <h2 id="channels-title" className="text-lg font-semibold">
        {t('me.channels')}
      </h2>
      <p className="text-sm text-slate-700">{t('me.channelsHint')}</p>
      {channels.error ? <Alert tone="error">{problemMessage(problemOf(channels.error), t)}</Alert> : null}
      {rowError ? <Alert tone="error">{rowError}</Alert> : null}
      {channels.data?.items.length === 0 ? <p className="text-slate-700">{t('me.noChannels')}</p> : null}
      <ul className="flex flex-col gap-2">
        {channels.data?.items.map((c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 bg-white p-3">
            <span>
              <span className="font-medium">{c.name}</span>
              <span className="block text-sm text-slate-700">{c.fields.map((f) => `${language === 'ms' ? f.label.ms : f.label.en}: ${f.display}`).join(' · ')}</span>
            </span>
            <Button variant="secondary" onClick={() => void onDeactivate(c)} aria-label={t('me.deactivateChannel', { name: c.name })}>
              {t('me.deactivate')}
            </Button>
          </li>
        ))}
      </ul>
      <form noValidate onSubmit={onAdd} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
        <h3 className="font-semibold">{t('me.addChannel')}</h3>
        <SelectField label={t('me.channelKind')} value={kind} onChange={(e) => setKind(e.target.value as ChannelKind)}>
          <option value="bank_transfer">{t('payments.channel.bank_transfer')}</option>
          <option value="duitnow">{t('payments.channel.duitnow')}</option>
        </SelectField>
        <TextField label={t('me.channelName')} hint={t('me.channelNameHint')} value={values.name} onChange={set('name')} error={errors.name} />
        {kind === 'bank_transfer' ? (
          <>
            <TextField label={t('me.bank')} hint={t('me.bankHint')} value={values.bank} onChange={set('bank')} error={errors['fields.bank']} autoCapitalize="characters" />
            <TextField label={t('me.accountHolder')} value={values.account_holder} onChange={set('account_holder')} error={errors['fields.account_holder']} />
            <TextField label={t('me.accountNumber')} inputMode="numeric" value={values.account_number} onChange={set('account_number')} error={errors['fields.account_number']} />
          </>
        ) : (
          <>
            <SelectField label={t('me.duitnowType')} value={values.id_type} onChange={set('id_type')} error={errors['fields.id_type']}>
              {DUITNOW_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`me.duitnow.${type}`)}
                </option>
              ))}
            </SelectField>
            <TextField label={t('me.duitnowValue')} value={values.id_value} onChange={set('id_value')} error={errors['fields.id_value']} />
          </>
        )}
        {unplaced ? <Alert tone="error">{unplaced}</Alert> : null}
        <div>
          <Button type="submit" busy={busy}>
            {t('me.addChannel')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** The person's delegations of their approval authority: give one, end one. */
export function Delegations() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { date, timeZone } = useDates();
  const me = useQuery(meQuery);
  const names = useQuery(memberNamesQuery);
  const delegations = useQuery(myDelegationsQuery);
  const today = dateIn(new Date(), timeZone);
  const [values, setValues] = useState({ delegate_member_id: '', valid_from: today, valid_to: today, reason: '' });
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const [rowError, setRowError] = useState<string>();
  const errors = fieldErrors(problem);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((all) => ({ ...all, [key]: e.target.value }));
  const others = [...(names.data ?? new Map<string, string>())].filter(([id]) => id !== me.data?.member.id).sort((a, b) => a[1].localeCompare(b[1]));
  const nameOf = (id: string) => names.data?.get(id) ?? t('inbox.someoneElse');

  const onGive = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await trpc.me.delegations.create.mutate(
        { delegate_member_id: values.delegate_member_id, valid_from: values.valid_from, valid_to: values.valid_to, ...(values.reason.trim() ? { reason: values.reason.trim() } : {}) },
        write(),
      );
      setValues({ delegate_member_id: '', valid_from: today, valid_to: today, reason: '' });
      toast(t('me.delegationGiven'));
      await queryClient.invalidateQueries({ queryKey: ['me.delegations.list'] });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  const onEnd = async (d: Delegation) => {
    setRowError(undefined);
    try {
      await trpc.me.delegations.deactivate.mutate({ id: d.id }, write({ revision: d.revision }));
      toast(t('me.delegationEnded', { name: nameOf(d.delegate_member_id) }));
    } catch (error) {
      setRowError(problemMessage(problemOf(error), t));
    }
    await queryClient.invalidateQueries({ queryKey: ['me.delegations.list'] });
  };

  const unplaced = problem && Object.keys(errors).length === 0 ? problemMessage(problem, t) : undefined;
  const active = delegations.data?.items.filter((d) => d.active) ?? [];
  return (
    <section aria-labelledby="delegations-title" className={section}>
      <h2 id="delegations-title" className="text-lg font-semibold">
        {t('me.delegations')}
      </h2>
      <p className="text-sm text-slate-700">{t('me.delegationsHint')}</p>
      {delegations.error ? <Alert tone="error">{problemMessage(problemOf(delegations.error), t)}</Alert> : null}
      {rowError ? <Alert tone="error">{rowError}</Alert> : null}
      {delegations.data && active.length === 0 ? <p className="text-slate-700">{t('me.noDelegations')}</p> : null}
      <ul className="flex flex-col gap-2">
        {active.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 bg-white p-3">
            <span>
              <span className="font-medium">{nameOf(d.delegate_member_id)}</span> <Badge>{t(`me.scope.${d.scope}`)}</Badge>
              <span className="block text-sm text-slate-700">{t('me.delegationPeriod', { from: date(d.valid_from), to: date(d.valid_to) })}</span>
              {d.reason ? <span className="block text-sm text-slate-700">{d.reason}</span> : null}
            </span>
            <Button variant="secondary" onClick={() => void onEnd(d)} aria-label={t('me.endDelegation', { name: nameOf(d.delegate_member_id) })}>
              {t('me.end')}
            </Button>
          </li>
        ))}
      </ul>
      <form noValidate onSubmit={onGive} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
        <h3 className="font-semibold">{t('me.giveDelegation')}</h3>
        <SelectField label={t('me.delegate')} value={values.delegate_member_id} onChange={set('delegate_member_id')} error={errors.delegate_member_id}>
          <option value="">{t('me.chooseDelegate')}</option>
          {others.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </SelectField>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField type="date" label={t('me.validFrom')} value={values.valid_from} onChange={set('valid_from')} error={errors.valid_from} />
          <TextField type="date" label={t('me.validTo')} hint={t('me.validToHint')} value={values.valid_to} onChange={set('valid_to')} error={errors.valid_to} />
        </div>
        <TextField label={t('me.delegationReason')} value={values.reason} onChange={set('reason')} error={errors.reason} />
        {unplaced ? <Alert tone="error">{unplaced}</Alert> : null}
        <div>
          <Button type="submit" busy={busy}>
            {t('me.giveDelegation')}
          </Button>
        </div>
      </form>
    </section>
  );
}
