import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { addMemberInput } from '../../../../src/contract/organization/members';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { meQuery } from '../../api/session';
import { trpc, write } from '../../api/trpc';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n } from '../../i18n';
import { useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { ConfirmDialog, MoreButton, ProblemAlert, SettingsTitle, usePagedList } from './shared';

export type Member = Awaited<ReturnType<typeof trpc.organization.members.list.query>>['items'][number];
export type Role = Awaited<ReturnType<typeof trpc.organization.roles.list.query>>['items'][number];

export const MEMBERS_KEY = ['organization.members.list'] as const;
export const ROLES_KEY = ['organization.roles.list'] as const;

export function useMembers() {
  return usePagedList<Member>(MEMBERS_KEY, (cursor) => trpc.organization.members.list.query({ limit: 100, ...(cursor ? { cursor } : {}) }));
}

export function useRoles() {
  return usePagedList<Role>(ROLES_KEY, (cursor) => trpc.organization.roles.list.query({ limit: 100, ...(cursor ? { cursor } : {}) }));
}

/**
 * Members: who belongs to the organization and their roles; add a member, set a member's roles,
 * deactivate one (their sessions and keys end at once). The server weighs every change of authority:
 * a refusal (the owner's power, a lock-out) is shown with what to do about it.
 */
export function MembersPage() {
  const { t } = useI18n();
  const me = useQuery(meQuery);
  const members = useMembers();
  const roles = useRoles();
  const [editing, setEditing] = useState<Member>();
  const [deactivating, setDeactivating] = useState<Member>();
  const roleName = new Map(roles.items.map((r) => [r.key, r.name]));
  return (
    <>
      <SettingsTitle intro={t('settings.members.intro')}>{t('settings.members.title')}</SettingsTitle>
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="members-list-title" className="flex flex-col gap-3">
          <h2 id="members-list-title" className="text-lg font-semibold">
            {t('settings.members.list')}
          </h2>
          {members.query.isPending ? <p role="status">{t('app.loading')}</p> : null}
          {members.query.error ? <ProblemAlert problem={problemOf(members.query.error)} /> : null}
          <ul className="flex flex-col gap-2" data-testid="member-list">
            {members.items.map((m) => (
              <li key={m.id} className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-300 bg-white p-3" data-member-email={m.email ?? ''}>
                <div className="min-w-0">
                  <p className="font-medium">
                    {m.name} {m.id === me.data?.member.id ? <span className="text-sm font-normal text-slate-700">{t('settings.members.you')}</span> : null}
                  </p>
                  <p className="truncate text-sm text-slate-700">{m.email ?? '—'}</p>
                  <p className="mt-1 flex flex-wrap gap-1">
                    {m.active ? null : <Badge tone="warning">{t('settings.members.inactive')}</Badge>}
                    {m.roles.map((key) => (
                      <Badge key={key}>{roleName.get(key) ?? key}</Badge>
                    ))}
                  </p>
                </div>
                {m.active ? (
                  <div className="flex flex-wrap gap-2">
                    <Button variant="secondary" onClick={() => setEditing(m)} aria-label={t('settings.members.setRolesOf', { name: m.name })}>
                      {t('settings.members.setRoles')}
                    </Button>
                    <Button variant="ghost" onClick={() => setDeactivating(m)} aria-label={t('settings.members.deactivateOf', { name: m.name })}>
                      {t('settings.members.deactivate')}
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <MoreButton list={members.query} />
        </section>
        <AddMember roles={roles.items} />
      </div>
      <RolesDialog member={editing} roles={roles.items} onClose={() => setEditing(undefined)} />
      <DeactivateDialog member={deactivating} onClose={() => setDeactivating(undefined)} />
    </>
  );
}

function RoleChoices({ roles, legend, checked, onToggle, register }: { roles: Role[]; legend: string; checked?: string[]; onToggle?: (key: string) => void; register?: ReturnType<ReturnType<typeof useSchemaForm<typeof addMemberInput>>['register']> }) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 font-medium">{legend}</legend>
      {roles.map((r) => (
        <label key={r.key} className="inline-flex min-h-11 items-center gap-3 rounded-md px-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          {register ? (
            <input type="checkbox" value={r.key} className="h-5 w-5" {...register} />
          ) : (
            <input type="checkbox" value={r.key} className="h-5 w-5" checked={checked?.includes(r.key) ?? false} onChange={() => onToggle?.(r.key)} />
          )}
          <span>{r.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

function AddMember({ roles }: { roles: Role[] }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useSchemaForm(addMemberInput, { defaultValues: { name: '', email: '', password: '', roles: [] } });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const { password, ...rest } = values;
      const member = await trpc.organization.members.add.mutate({ ...rest, ...(password ? { password } : {}) }, write());
      form.reset({ name: '', email: '', password: '', roles: [] });
      toast(t('settings.members.added', { name: member.name }));
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
    } catch (error) {
      form.showProblem(error);
    }
  });
  const errors = form.formState.errors;
  return (
    <section aria-labelledby="member-add-title" className="flex flex-col gap-3">
      <h2 id="member-add-title" className="text-lg font-semibold">
        {t('settings.members.add')}
      </h2>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <TextField label={t('settings.members.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextField label={t('settings.members.email')} type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
        <TextField label={t('settings.members.password')} hint={t('settings.members.passwordHint')} type="password" autoComplete="new-password" error={errors.password?.message} {...form.register('password')} />
        <RoleChoices roles={roles} legend={t('settings.members.roles')} register={form.register('roles')} />
        {errors.roles ? <p className="text-sm font-medium text-red-700">{errors.roles.message ?? errors.roles.root?.message ?? t('problem.fixFields')}</p> : null}
        <ProblemAlert problem={form.problem} message={form.formMessage} />
        <div>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('settings.members.addSubmit')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** Set a member's roles: the server replaces them whole, or refuses (the owner's power, a lock-out). */
function RolesDialog({ member, roles, onClose }: { member: Member | undefined; roles: Role[]; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const [forId, setForId] = useState<string>();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  if (member && forId !== member.id) {
    setForId(member.id);
    setChosen(member.roles);
    setProblem(undefined);
  }
  const close = () => {
    setForId(undefined);
    onClose();
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!member) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await trpc.organization.members.setRoles.mutate({ id: member.id, roles: chosen }, write({ revision: member.revision }));
      toast(t('settings.members.rolesSet', { name: member.name }));
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
      close();
    } catch (error) {
      const p = problemOf(error);
      setProblem(p);
      if (isStale(p)) await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!member} title={member ? t('settings.members.setRolesOf', { name: member.name }) : ''} onClose={close}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <RoleChoices roles={roles} legend={t('settings.members.roles')} checked={chosen} onToggle={(key) => setChosen((all) => (all.includes(key) ? all.filter((k) => k !== key) : [...all, key]))} />
        <ProblemAlert problem={problem} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" busy={busy}>
            {t('settings.members.saveRoles')}
          </Button>
          <Button variant="secondary" onClick={close}>
            {t('settings.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeactivateDialog({ member, onClose }: { member: Member | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      open={!!member}
      title={member ? t('settings.members.deactivateOf', { name: member.name }) : ''}
      warning={t('settings.members.deactivateWarning')}
      confirmLabel={t('settings.members.deactivate')}
      onConfirm={async () => {
        if (!member) return;
        await trpc.organization.members.deactivate.mutate({ id: member.id }, write({ revision: member.revision }));
        toast(t('settings.members.deactivated', { name: member.name }));
        await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
      }}
      onRefused={() => queryClient.invalidateQueries({ queryKey: MEMBERS_KEY })}
      onClose={onClose}
    />
  );
}
