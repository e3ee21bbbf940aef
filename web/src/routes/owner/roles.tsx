import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createRoleInput, updateRoleInput } from '../../../../src/contract/organization/roles';
import { PERMISSIONS, type Permission } from '../../../../src/domain/permissions';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n, type MessageKey } from '../../i18n';
import { useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ROLES_KEY, useRoles, type Role } from './members';
import { MoreButton, ProblemAlert, SettingsTitle } from './shared';

/** Each permission in words (its code stays visible beside them: the API and keys name it so). */
export const PERMISSION_LABEL: Record<Permission, MessageKey> = {
  'receivables.invoice.create': 'settings.permission.invoiceCreate',
  'receivables.invoice.read': 'settings.permission.invoiceRead',
  'receivables.invoice.issue': 'settings.permission.invoiceIssue',
  'receivables.invoice.dispute': 'settings.permission.invoiceDispute',
  'receivables.invoice.cancel': 'settings.permission.invoiceCancel',
  'receivables.customer.read': 'settings.permission.customerRead',
  'receivables.customer.create': 'settings.permission.customerCreate',
  'receivables.customer.update': 'settings.permission.customerUpdate',
  'receivables.receipt.create': 'settings.permission.receiptCreate',
  'receivables.receipt.read': 'settings.permission.receiptRead',
  'receivables.journal.export': 'settings.permission.journalExport',
  'expenses.claim.create': 'settings.permission.claimCreate',
  'expenses.claim.approve': 'settings.permission.claimApprove',
  'expenses.claim.pay': 'settings.permission.claimPay',
  'expenses.payout_channel.manage': 'settings.permission.payoutChannelManage',
  'documents.create': 'settings.permission.documentsCreate',
  'organization.settings.read': 'settings.permission.settingsRead',
  'organization.settings.manage': 'settings.permission.settingsManage',
  'organization.members.manage': 'settings.permission.membersManage',
  'organization.roles.manage': 'settings.permission.rolesManage',
  'organization.roles.manage_owner': 'settings.permission.rolesManageOwner',
  'organization.events.read': 'settings.permission.eventsRead',
  'organization.webhooks.manage': 'settings.permission.webhooksManage',
};

/** A permission's words, or its code when the console does not know it. */
export function permissionLabel(p: string, t: (key: MessageKey) => string): string {
  return p in PERMISSION_LABEL ? t(PERMISSION_LABEL[p as Permission]) : p;
}

/** Checkboxes of permissions (all the service knows, or those offered), registered as one array field. */
export function PermissionChoices({ legend, register, offered = PERMISSIONS, error }: { legend: string; register: object; offered?: readonly string[]; error?: string | undefined }) {
  const { t } = useI18n();
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 font-medium">{legend}</legend>
      {offered.map((p) => (
        <label key={p} className="flex min-h-11 items-center gap-3 rounded-md px-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          <input type="checkbox" value={p} className="h-5 w-5 shrink-0" {...register} />
          <span>
            {permissionLabel(p, t)} <code className="text-xs text-slate-700">{p}</code>
          </span>
        </label>
      ))}
      {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
    </fieldset>
  );
}

/**
 * The role editor: the built-in and custom roles; a role's name and permissions changed, a custom
 * role created or deleted. The server refuses a change that touches the owner's power without it
 * (owner_role_manage_required) or that would lock the organization out (self_lockout): shown with
 * what to do.
 */
export function RolesPage() {
  const { t } = useI18n();
  const roles = useRoles();
  const [selected, setSelected] = useState<string>();
  const role = roles.items.find((r) => r.id === selected);
  return (
    <>
      <SettingsTitle intro={t('settings.roles.intro')}>{t('settings.roles.title')}</SettingsTitle>
      <div className="grid gap-8 lg:grid-cols-[2fr_3fr]">
        <section aria-labelledby="roles-list-title" className="flex flex-col gap-3">
          <h2 id="roles-list-title" className="text-lg font-semibold">
            {t('settings.roles.list')}
          </h2>
          {roles.query.isPending ? <p role="status">{t('app.loading')}</p> : null}
          {roles.query.error ? <ProblemAlert problem={problemOf(roles.query.error)} /> : null}
          <ul className="flex flex-col gap-2" data-testid="role-list">
            {roles.items.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  onClick={() => setSelected(r.id)}
                  aria-pressed={r.id === selected}
                  className={`flex min-h-11 w-full flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${r.id === selected ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-white hover:bg-slate-50'}`}
                >
                  <span className="font-medium">{r.name}</span>
                  <span className="flex gap-1">
                    {r.built_in ? <Badge tone="info">{t('settings.roles.builtIn')}</Badge> : null}
                    <Badge>{t('settings.roles.permissionCount', { count: r.permissions.length })}</Badge>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <MoreButton list={roles.query} />
          <div>
            <Button variant="secondary" onClick={() => setSelected('new')}>
              {t('settings.roles.new')}
            </Button>
          </div>
        </section>
        {selected === 'new' ? <CreateRole onCreated={setSelected} /> : role ? <EditRole key={`${role.id}:${role.revision}`} role={role} onDeleted={() => setSelected(undefined)} /> : null}
      </div>
    </>
  );
}

function EditRole({ role, onDeleted }: { role: Role; onDeleted: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useSchemaForm(updateRoleInput, { defaultValues: { id: role.id, name: role.name, permissions: role.permissions } });
  const [deleteProblem, setDeleteProblem] = useState<ConsoleProblem>();
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      await trpc.organization.roles.update.mutate(values, write({ revision: role.revision }));
      toast(t('settings.roles.saved', { name: values.name ?? role.name }));
      await queryClient.invalidateQueries({ queryKey: ROLES_KEY });
    } catch (error) {
      const problem = form.showProblem(error);
      if (isStale(problem)) await queryClient.invalidateQueries({ queryKey: ROLES_KEY });
    }
  });
  const onDelete = async () => {
    setDeleteProblem(undefined);
    try {
      await trpc.organization.roles.delete.mutate({ id: role.id }, write({ revision: role.revision }));
      toast(t('settings.roles.deleted', { name: role.name }));
      await queryClient.invalidateQueries({ queryKey: ROLES_KEY });
      onDeleted();
    } catch (error) {
      setDeleteProblem(problemOf(error));
    }
  };
  return (
    <section aria-labelledby="role-edit-title" className="flex flex-col gap-3">
      <h2 id="role-edit-title" className="text-lg font-semibold">
        {t('settings.roles.editing', { name: role.name })}
      </h2>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="role-form">
        <TextField label={t('settings.roles.name')} error={form.formState.errors.name?.message} {...form.register('name')} />
        <PermissionChoices legend={t('settings.roles.permissions')} register={form.register('permissions')} error={form.formState.errors.permissions?.message} />
        <ProblemAlert problem={form.problem} message={form.formMessage} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('settings.roles.save')}
          </Button>
          {role.built_in ? null : (
            <Button variant="danger" onClick={() => void onDelete()}>
              {t('settings.roles.delete')}
            </Button>
          )}
        </div>
        <ProblemAlert problem={deleteProblem} />
      </form>
    </section>
  );
}

function CreateRole({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useSchemaForm(createRoleInput, { defaultValues: { key: '', name: '', permissions: [] } });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const role = await trpc.organization.roles.create.mutate(values, write());
      toast(t('settings.roles.created', { name: role.name }));
      await queryClient.invalidateQueries({ queryKey: ROLES_KEY });
      onCreated(role.id);
    } catch (error) {
      form.showProblem(error);
    }
  });
  return (
    <section aria-labelledby="role-new-title" className="flex flex-col gap-3">
      <h2 id="role-new-title" className="text-lg font-semibold">
        {t('settings.roles.new')}
      </h2>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <TextField label={t('settings.roles.key')} hint={t('settings.roles.keyHint')} autoComplete="off" error={form.formState.errors.key?.message} {...form.register('key')} />
        <TextField label={t('settings.roles.name')} autoComplete="off" error={form.formState.errors.name?.message} {...form.register('name')} />
        <PermissionChoices legend={t('settings.roles.permissions')} register={form.register('permissions')} error={form.formState.errors.permissions?.message} />
        <ProblemAlert problem={form.problem} message={form.formMessage} />
        <div>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('settings.roles.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}
