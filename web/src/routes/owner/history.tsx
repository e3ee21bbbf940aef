import { useState } from 'react';
import { problemOf } from '../../api/problem';
import { trpc } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey, type Translate } from '../../i18n';
import { SelectField } from '../../ui/Field';
import { useMembers } from './members';
import { FAMILY_KEYS, familyOf } from './reference/families';
import { fieldLabel } from './reference/reference-page';
import { MoreButton, ProblemAlert, SettingsTitle, usePagedList } from './shared';

type Entry = Awaited<ReturnType<typeof trpc.organization.settingsHistory.list.query>>['items'][number];

const OTHER_ENTITIES: Record<string, MessageKey> = {
  members: 'settings.members.title',
  roles: 'settings.roles.title',
  profile: 'settings.profile.title',
  einvoicing: 'settings.einvoicing.title',
  customers: 'settings.entity.customers',
  claimPolicy: 'settings.entity.claimPolicy',
  tradeLines: 'settings.entity.tradeLines',
  delegations: 'settings.entity.delegations',
};

export function entityLabel(entity: string, t: Translate): string {
  const family = familyOf(entity);
  if (family) return t(family.title);
  const key = OTHER_ENTITIES[entity];
  return key ? t(key) : entity;
}

const ACTIONS: Record<string, MessageKey> = { create: 'settings.history.action.create', update: 'settings.history.action.update', deactivate: 'settings.history.action.deactivate' };

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields an entry changed: every field of a creation, those that differ on a change. */
function changedFields(entry: Entry): string[] {
  const keys = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]);
  keys.delete('revision');
  return [...keys].filter((k) => JSON.stringify(entry.before?.[k]) !== JSON.stringify(entry.after?.[k]));
}

/** The settings history: who changed which reference data or authority, when, and what it was before and after; newest first. */
export function HistoryPage() {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const [entity, setEntity] = useState('');
  const members = useMembers();
  const nameOf = new Map(members.items.map((m) => [m.id, m.name]));
  const list = usePagedList<Entry>(['organization.settingsHistory.list', { entity }], (cursor) =>
    trpc.organization.settingsHistory.list.query({ limit: 50, ...(entity ? { entity } : {}), ...(cursor ? { cursor } : {}) }),
  );
  const entities = [...FAMILY_KEYS, ...Object.keys(OTHER_ENTITIES)];
  return (
    <>
      <SettingsTitle intro={t('settings.history.intro')}>{t('settings.history.title')}</SettingsTitle>
      <form role="search" className="mb-4 max-w-sm" onSubmit={(e) => e.preventDefault()}>
        <SelectField label={t('settings.history.entity')} value={entity} onChange={(e) => setEntity(e.target.value)}>
          <option value="">{t('settings.history.allEntities')}</option>
          {entities.map((e) => (
            <option key={e} value={e}>
              {entityLabel(e, t)}
            </option>
          ))}
        </SelectField>
      </form>
      {list.query.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.query.error ? <ProblemAlert problem={problemOf(list.query.error)} /> : null}
      {list.query.data && list.items.length === 0 ? <p className="text-slate-700">{t('settings.history.none')}</p> : null}
      <ol className="flex flex-col gap-2" data-testid="history-list">
        {list.items.map((entry) => {
          const fields = changedFields(entry);
          const who = entry.actor_member_id ? (nameOf.get(entry.actor_member_id) ?? entry.actor_member_id) : t('settings.history.system');
          return (
            <li key={entry.id} className="rounded-lg border border-slate-300 bg-white p-3" data-entity={entry.entity} data-action={entry.action}>
              <p className="font-medium">
                {entityLabel(entry.entity, t)}: {ACTIONS[entry.action] ? t(ACTIONS[entry.action]!) : entry.action}
              </p>
              <p className="text-sm text-slate-700">
                {t('settings.history.byAt', { who, at: dateTime(entry.changed_at) })}
                {entry.actor_via === 'api_key' ? ` · ${t('settings.history.viaKey')}` : ''}
              </p>
              {fields.length ? (
                <details className="mt-2">
                  <summary className="min-h-11 cursor-pointer py-2 text-blue-800 underline">{t('settings.history.details', { count: fields.length })}</summary>
                  <table className="mt-2 w-full table-fixed text-left text-sm">
                    <thead>
                      <tr>
                        <th scope="col" className="w-1/4 py-1">
                          {t('settings.history.field')}
                        </th>
                        <th scope="col" className="py-1">
                          {t('settings.history.before')}
                        </th>
                        <th scope="col" className="py-1">
                          {t('settings.history.after')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {fields.map((f) => (
                        <tr key={f} className="border-t border-slate-200 align-top">
                          <th scope="row" className="py-1 font-medium break-words">
                            {fieldLabel(f, t) ?? f}
                          </th>
                          <td className="py-1 break-words">{show(entry.before?.[f])}</td>
                          <td className="py-1 break-words">{show(entry.after?.[f])}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              ) : null}
            </li>
          );
        })}
      </ol>
      <MoreButton list={list.query} />
    </>
  );
}
