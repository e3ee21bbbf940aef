import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createApiKeyInput } from '../../../../src/contract/organization/api-keys';
import { problemOf } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { useMembers, useRoles } from './members';
import { PermissionChoices, permissionLabel } from './roles';
import { ConfirmDialog, MoreButton, ProblemAlert, SettingsTitle, usePagedList } from './shared';

type ApiKey = Awaited<ReturnType<typeof trpc.organization.apiKeys.list.query>>['items'][number];
type CreatedKey = Awaited<ReturnType<typeof trpc.organization.apiKeys.create.mutate>>;


const STATE_TONE = { active: 'success', expired: 'neutral', revoked: 'danger' } as const;

/**
 * Integration keys: a key for a member, with some of that member's permissions and an optional
 * expiry (its secret shown once, never again); the keys with their last use; revoking one.
 */
export function KeysPage() {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const keys = usePagedList<ApiKey>(['organization.apiKeys.list'], (cursor) => trpc.organization.apiKeys.list.query({ limit: 50, ...(cursor ? { cursor } : {}) }));
  const [revoking, setRevoking] = useState<ApiKey>();
  return (
    <>
      <SettingsTitle intro={t('settings.keys.intro')}>{t('settings.keys.title')}</SettingsTitle>
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="keys-list-title" className="flex flex-col gap-3">
          <h2 id="keys-list-title" className="text-lg font-semibold">
            {t('settings.keys.list')}
          </h2>
          {keys.query.isPending ? <p role="status">{t('app.loading')}</p> : null}
          {keys.query.error ? <ProblemAlert problem={problemOf(keys.query.error)} /> : null}
          {keys.query.data && keys.items.length === 0 ? <p className="text-slate-700">{t('settings.keys.none')}</p> : null}
          <ul className="flex flex-col gap-2" data-testid="key-list">
            {keys.items.map((k) => (
              <li key={k.id} className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3" data-key-id={k.id} data-state={k.state}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h3 className="font-semibold">{k.name}</h3>
                  <Badge tone={STATE_TONE[k.state]}>{t(`settings.keys.state.${k.state}`)}</Badge>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-700">{t('settings.keys.member')}</dt>
                  <dd>{k.owner_member_name}</dd>
                  <dt className="text-slate-700">{t('settings.keys.permissions')}</dt>
                  <dd>{k.permissions.map((p) => permissionLabel(p, t)).join(', ')}</dd>
                  <dt className="text-slate-700">{t('settings.keys.created')}</dt>
                  <dd>{dateTime(k.created_at)}</dd>
                  <dt className="text-slate-700">{t('settings.keys.lastUsed')}</dt>
                  <dd data-testid="last-used">{k.last_used_at ? dateTime(k.last_used_at) : t('settings.keys.neverUsed')}</dd>
                  <dt className="text-slate-700">{t('settings.keys.expires')}</dt>
                  <dd>{k.expires_at ? dateTime(k.expires_at) : t('settings.keys.noExpiry')}</dd>
                </dl>
                {k.state === 'active' ? (
                  <div>
                    <Button variant="ghost" onClick={() => setRevoking(k)} aria-label={t('settings.keys.revokeOf', { name: k.name })}>
                      {t('settings.keys.revoke')}
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <MoreButton list={keys.query} />
        </section>
        <CreateKey />
      </div>
      <RevokeDialog apiKey={revoking} onClose={() => setRevoking(undefined)} />
    </>
  );
}

function CreateKey() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const members = useMembers();
  const roles = useRoles();
  const [created, setCreated] = useState<CreatedKey>();
  const [expiry, setExpiry] = useState('');
  const form = useSchemaForm(createApiKeyInput, { defaultValues: { member_id: '', name: '', permissions: [] } });
  const memberId = form.watch('member_id');
  const member = members.items.find((m) => m.id === memberId);
  // What the chosen member holds, from their roles (the server checks the subset again).
  const offered = [...new Set(roles.items.filter((r) => member?.roles.includes(r.key)).flatMap((r) => r.permissions))].sort();
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    setCreated(undefined);
    try {
      const input = { member_id: values.member_id, ...(values.name ? { name: values.name } : {}), ...(values.permissions?.length ? { permissions: values.permissions } : {}), ...(expiry ? { expires_at: new Date(expiry).toISOString() } : {}) };
      const key = await trpc.organization.apiKeys.create.mutate(input, write());
      setCreated(key);
      form.reset({ member_id: '', name: '', permissions: [] });
      setExpiry('');
      await queryClient.invalidateQueries({ queryKey: ['organization.apiKeys.list'] });
    } catch (error) {
      form.showProblem(error);
    }
  });
  const errors = form.formState.errors;
  return (
    <section aria-labelledby="key-new-title" className="flex flex-col gap-3">
      <h2 id="key-new-title" className="text-lg font-semibold">
        {t('settings.keys.new')}
      </h2>
      {created ? (
        <Alert tone="warning">
          <p className="font-medium">{t('settings.keys.secretOnce', { name: created.name })}</p>
          <p className="mt-2 break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900" data-testid="new-secret">
            {created.api_key}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(created.api_key)}>
              {t('settings.keys.copy')}
            </Button>
            <Button variant="ghost" onClick={() => setCreated(undefined)}>
              {t('settings.keys.hideSecret')}
            </Button>
          </div>
        </Alert>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="key-form">
        <SelectField label={t('settings.keys.member')} error={errors.member_id?.message} {...form.register('member_id')}>
          <option value="">{t('settings.choose')}</option>
          {members.items
            .filter((m) => m.active)
            .map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
        </SelectField>
        <TextField label={t('settings.keys.name')} hint={t('settings.keys.nameHint')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        {member ? <PermissionChoices legend={t('settings.keys.permissionsChoose')} offered={offered} register={form.register('permissions')} error={errors.permissions?.message} /> : null}
        <TextField label={t('settings.keys.expiresAt')} hint={t('settings.keys.expiresHint')} type="datetime-local" value={expiry} onChange={(e) => setExpiry(e.target.value)} error={form.problem?.pointers.find((p) => p.pointer === '/expires_at')?.detail} />
        <ProblemAlert problem={form.problem} message={form.formMessage} />
        <div>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('settings.keys.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      open={!!apiKey}
      title={apiKey ? t('settings.keys.revokeOf', { name: apiKey.name }) : ''}
      warning={t('settings.keys.revokeWarning')}
      confirmLabel={t('settings.keys.revoke')}
      onConfirm={async () => {
        if (!apiKey) return;
        await trpc.organization.apiKeys.revoke.mutate({ id: apiKey.id }, write());
        toast(t('settings.keys.revoked', { name: apiKey.name }));
        await queryClient.invalidateQueries({ queryKey: ['organization.apiKeys.list'] });
      }}
      onClose={onClose}
    />
  );
}
