import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { get, useFieldArray, type FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import { isStale, problemOf } from '../../../api/problem';
import { trpc, write } from '../../../api/trpc';
import { useSchemaForm } from '../../../forms/use-schema-form';
import { useI18n, type MessageKey, type Translate } from '../../../i18n';
import { useToast } from '../../../ui/Alert';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../../ui/Field';
import { ConfirmDialog, MoreButton, ProblemAlert, SettingsTitle, usePagedList } from '../shared';
import { familyOf, type Decision, type Family, type RefSource, type Row } from './families';
import { rawRecord, shapeOf, toInput, type FieldShape } from './schema-fields';

type Option = { value: string; label: string };
type RefOptions = Map<string, Option[]>;

const refId = (ref: RefSource) => ('family' in ref ? `family:${ref.family}` : 'members' in ref ? 'members' : 'customers');

async function loadRef(ref: RefSource): Promise<Option[]> {
  if ('members' in ref) return (await trpc.organization.members.list.query({ limit: 100 })).items.map((m) => ({ value: m.id, label: m.name }));
  if ('customers' in ref) return (await trpc.receivables.customers.list.query({ limit: 100 })).customers.map((c) => ({ value: c.id, label: `${c.code} ${c.legal_name}` }));
  const family = familyOf(ref.family);
  if (!family) return [];
  return (await family.procedures.list.query({ limit: 100 })).items.map((row) => ({ value: row.id, label: family.label(row) }));
}

/** The choices of every id field of the family (another family's records, the members, the customers). */
function useRefs(family: Family): RefOptions {
  const refs = Object.values(family.fields ?? {}).flatMap((f) => (f.ref ? [f.ref] : []));
  const unique = [...new Map(refs.map((r) => [refId(r), r])).values()];
  const answers = useQueries({ queries: unique.map((ref) => ({ queryKey: ['settings.ref', refId(ref)], queryFn: () => loadRef(ref), staleTime: 30_000 })) });
  return new Map(unique.map((ref, i) => [refId(ref), answers[i]?.data ?? []]));
}

/** A field's label: the family's field names are words in both languages (settings.field.<name>). */
export function fieldLabel(name: string, t: Translate): string {
  return t(`settings.field.${name}` as MessageKey) ?? name;
}

const isActive = (row: Row) => (typeof row.active === 'boolean' ? row.active : !row.retired_at && !row.withdrawn_at);

function cellText(family: Family, row: Row, column: string, refs: RefOptions, t: Translate): string {
  const value = row[column];
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('settings.yes') : t('settings.no');
  if (Array.isArray(value)) return value.length && typeof value[0] === 'object' ? t('settings.reference.bandCount', { count: value.length }) : value.length ? value.join(', ') : '—';
  const ref = family.fields?.[column]?.ref;
  if (ref) return refs.get(refId(ref))?.find((o) => o.value === value)?.label ?? String(value);
  return String(value);
}

/**
 * One screen for every reference data family: the family's records (inactive ones on request), a
 * form to create one or change one built from the procedure's own input schema, deactivation. A
 * refusal the server names a field for is shown on that field.
 */
export function ReferencePage({ familyKey }: { familyKey: string }) {
  const { t } = useI18n();
  const family = familyOf(familyKey);
  if (!family) {
    return (
      <>
        <SettingsTitle>{t('app.notFound')}</SettingsTitle>
      </>
    );
  }
  return <FamilyScreen key={family.key} family={family} />;
}

function FamilyScreen({ family }: { family: Family }) {
  const { t } = useI18n();
  const [includeInactive, setIncludeInactive] = useState(false);
  const [editing, setEditing] = useState<Row | 'new'>();
  const [ending, setEnding] = useState<Row>();
  const [deciding, setDeciding] = useState<{ row: Row; decision: Decision }>();
  const list = usePagedList<Row>(['settings', family.key, 'list', { includeInactive }], (cursor) =>
    family.procedures.list.query({ limit: 100, ...(includeInactive ? { include_inactive: true } : {}), ...(cursor ? { cursor } : {}) }),
  );
  const refs = useRefs(family);
  return (
    <>
      <SettingsTitle intro={t(family.intro)}>{t(family.title)}</SettingsTitle>
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <Button onClick={() => setEditing('new')}>{t('settings.reference.new')}</Button>
        <label className="inline-flex min-h-11 items-center gap-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          <input type="checkbox" className="h-5 w-5" checked={includeInactive} onChange={(e) => setIncludeInactive(e.target.checked)} />
          <span>{t('settings.reference.includeInactive')}</span>
        </label>
      </div>
      {editing ? <RecordForm key={editing === 'new' ? 'new' : `${editing.id}:${editing.revision}`} family={family} record={editing === 'new' ? undefined : editing} refs={refs} onDone={() => setEditing(undefined)} /> : null}
      <section aria-labelledby="records-title" className="flex flex-col gap-3">
        <h2 id="records-title" className="text-lg font-semibold">
          {t('settings.reference.records')}
        </h2>
        {list.query.isPending ? <p role="status">{t('app.loading')}</p> : null}
        {list.query.error ? <ProblemAlert problem={problemOf(list.query.error)} /> : null}
        {list.query.data && list.items.length === 0 ? <p className="text-slate-700">{t('settings.reference.none')}</p> : null}
        <ul className="grid gap-2 md:grid-cols-2" data-testid="record-list">
          {list.items.map((row) => (
            <li key={row.id} className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3" data-record-id={row.id}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="font-semibold">{cellText(family, row, family.columns[0]!, refs, t)}</h3>
                {isActive(row) ? null : <Badge tone="warning">{t('settings.reference.inactive')}</Badge>}
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                {family.columns.slice(1).map((c) => (
                  <div key={c} className="contents">
                    <dt className="text-slate-700">{fieldLabel(c, t)}</dt>
                    <dd className="break-words">{cellText(family, row, c, refs, t)}</dd>
                  </div>
                ))}
              </dl>
              <div className="flex flex-wrap gap-2">
                {(family.decisions?.(row) ?? []).map((decision) => (
                  <Button key={decision.key} variant="secondary" onClick={() => setDeciding({ row, decision })} aria-label={t(decision.question, { name: family.label(row) })}>
                    {t(decision.label)}
                  </Button>
                ))}
                {family.manages?.(row) === false ? null : (
                  <>
                    <Button variant="secondary" onClick={() => setEditing(row)} aria-label={t('settings.reference.editOf', { name: family.label(row) })}>
                      {t('settings.reference.edit')}
                    </Button>
                    {isActive(row) ? (
                      <Button variant="ghost" onClick={() => setEnding(row)} aria-label={t('settings.reference.deactivateOf', { name: family.label(row) })}>
                        {t('settings.reference.deactivate')}
                      </Button>
                    ) : null}
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
        <MoreButton list={list.query} />
      </section>
      <DeactivateDialog family={family} row={ending} onClose={() => setEnding(undefined)} />
      <DecisionDialog family={family} deciding={deciding} onClose={() => setDeciding(undefined)} />
    </>
  );
}

function DeactivateDialog({ family, row, onClose }: { family: Family; row: Row | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      open={!!row}
      title={row ? t('settings.reference.deactivateOf', { name: family.label(row) }) : ''}
      confirmLabel={t('settings.reference.deactivate')}
      onConfirm={async () => {
        if (!row) return;
        await family.procedures.deactivate.mutate({ id: row.id }, write({ revision: row.revision }));
        toast(t('settings.reference.deactivated', { name: family.label(row) }));
        await queryClient.invalidateQueries({ queryKey: ['settings', family.key] });
        await queryClient.invalidateQueries({ queryKey: ['organization.readiness'] });
      }}
      onRefused={() => queryClient.invalidateQueries({ queryKey: ['settings', family.key] })}
      onClose={onClose}
    />
  );
}

/** The form's fields: the family's order first, then the rest of the schema's; never the record id. */
function formFields(family: Family, schema: z.ZodObject): FieldShape[] {
  const all = shapeOf(schema).filter((f) => f.name !== 'id');
  const rank = (name: string) => {
    const i = family.order.indexOf(name);
    return i === -1 ? family.order.length : i;
  };
  return [...all].sort((a, b) => rank(a.name) - rank(b.name));
}

function RecordForm({ family, record, refs, onDone }: { family: Family; record: Row | undefined; refs: RefOptions; onDone: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const schema = record ? family.update : family.create;
  const fields = formFields(family, schema);
  const before = record ? { ...rawRecord(record, fields), id: record.id } : undefined;
  const wrapped = z.preprocess((raw) => toInput(raw as Record<string, unknown>, fields, before), schema);
  const form = useSchemaForm(wrapped as never, { defaultValues: rawRecord(record, fields) as never });
  const onSubmit = form.handleSubmit(async (input: Record<string, unknown>) => {
    form.clearProblem();
    if (record && Object.keys(input).every((k) => k === 'id')) {
      toast(t('settings.reference.unchanged'), 'info');
      onDone();
      return;
    }
    try {
      const saved = record ? await family.procedures.update.mutate(input as never, write({ revision: record.revision })) : await family.procedures.create.mutate(input as never, write());
      toast(record ? t('settings.reference.saved', { name: family.label(saved) }) : t('settings.reference.created', { name: family.label(saved) }));
      await queryClient.invalidateQueries({ queryKey: ['settings', family.key] });
      await queryClient.invalidateQueries({ queryKey: ['settings.ref'] });
      await queryClient.invalidateQueries({ queryKey: ['organization.readiness'] });
      onDone();
    } catch (error) {
      const problem = form.showProblem(error);
      if (isStale(problem)) await queryClient.invalidateQueries({ queryKey: ['settings', family.key] });
    }
  });
  const title = record ? t('settings.reference.editing', { name: family.label(record) }) : t('settings.reference.creating', { family: t(family.title) });
  return (
    <section aria-labelledby="record-form-title" className="mb-8 flex flex-col gap-3">
      <h2 id="record-form-title" className="text-lg font-semibold">
        {title}
      </h2>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 md:grid-cols-2" data-testid="record-form">
        {fields.map((f) => (
          <FieldInput key={f.name} family={family} field={f} name={f.name} form={form as unknown as FormLike} refs={refs} />
        ))}
        <div className="md:col-span-2">
          <ProblemAlert problem={form.problem} message={form.formMessage} />
        </div>
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {record ? t('settings.reference.save') : t('settings.reference.create')}
          </Button>
          <Button variant="secondary" onClick={onDone}>
            {t('settings.cancel')}
          </Button>
        </div>
      </form>
    </section>
  );
}

type FormLike = ReturnType<typeof useSchemaForm<z.ZodObject>>;

function errorAt(errors: FieldErrors, name: string): string | undefined {
  const e: unknown = get(errors, name);
  if (!e || typeof e !== 'object') return undefined;
  if ('message' in e && typeof e.message === 'string') return e.message;
  // A list's error sits on its items (options.2); a row's on its fields.
  for (const item of Object.values(e)) {
    if (item && typeof item === 'object' && 'message' in item && typeof item.message === 'string') return item.message;
  }
  return undefined;
}

function FieldInput({ family, field, name, form, refs }: { family: Family; field: FieldShape; name: string; form: FormLike; refs: RefOptions }) {
  const { t } = useI18n();
  const label = fieldLabel(field.name, t);
  const error = errorAt(form.formState.errors, name);
  const register = form.register(name as never);
  const options = family.fields?.[field.name];
  const blank = field.optional || field.nullable ? t('settings.reference.none.choice') : t('settings.choose');
  if (field.kind === 'rows') return <RowsInput family={family} field={field} form={form} refs={refs} />;
  if (field.kind === 'boolean') {
    return (
      <div className="flex flex-col gap-1">
        <label className="inline-flex min-h-11 items-center gap-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          <input type="checkbox" className="h-5 w-5" {...register} />
          <span className="font-medium">{label}</span>
        </label>
        {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
      </div>
    );
  }
  const choices = options?.ref ? refs.get(refId(options.ref)) : options?.choices?.options ?? (field.kind === 'enum' ? field.options?.map((o) => ({ value: o, label: o })) : undefined);
  if (choices) {
    return (
      <SelectField label={label} error={error} {...register}>
        <option value="">{blank}</option>
        {choices.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
    );
  }
  if (field.kind === 'list') return <TextAreaField label={label} hint={t('settings.reference.onePerLine')} rows={3} error={error} {...register} />;
  const type = field.kind === 'date' ? 'date' : 'text';
  const inputMode = field.kind === 'integer' ? 'numeric' : undefined;
  return <TextField label={label} type={type} inputMode={inputMode} autoComplete="off" error={error} {...register} />;
}

/** A list of rows (bands): each row's fields, a row added or removed; the server checks their order and joins. */
function RowsInput({ family, field, form, refs }: { family: Family; field: FieldShape; form: FormLike; refs: RefOptions }) {
  const { t } = useI18n();
  const rows = useFieldArray({ control: form.control, name: field.name as never });
  const label = fieldLabel(field.name, t);
  const error = errorAt(form.formState.errors, field.name);
  const empty = Object.fromEntries((field.rows ?? []).map((f) => [f.name, f.kind === 'boolean' ? false : '']));
  return (
    <fieldset className="flex flex-col gap-3 md:col-span-2">
      <legend className="mb-1 font-medium">{label}</legend>
      {rows.fields.map((row, i) => (
        <fieldset key={row.id} className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2 lg:grid-cols-4">
          <legend className="px-1 text-sm font-medium">{t('settings.reference.row', { n: i + 1 })}</legend>
          {(field.rows ?? []).map((sub) => (
            <FieldInput key={sub.name} family={family} field={sub} name={`${field.name}.${i}.${sub.name}`} form={form} refs={refs} />
          ))}
          <div className="flex items-end">
            <Button variant="ghost" onClick={() => rows.remove(i)} aria-label={t('settings.reference.removeRow', { n: i + 1 })}>
              {t('settings.reference.remove')}
            </Button>
          </div>
        </fieldset>
      ))}
      {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
      <div>
        <Button variant="secondary" onClick={() => rows.append(empty as never)}>
          {t('settings.reference.addRow')}
        </Button>
      </div>
    </fieldset>
  );
}


function DecisionDialog({ family, deciding, onClose }: { family: Family; deciding: { row: Row; decision: Decision } | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const name = deciding ? family.label(deciding.row) : '';
  return (
    <ConfirmDialog
      open={!!deciding}
      title={deciding ? t(deciding.decision.question, { name }) : ''}
      confirmLabel={deciding ? t(deciding.decision.label) : ''}
      onConfirm={async () => {
        if (!deciding) return;
        await deciding.decision.take(deciding.row.id, Number(deciding.row.revision));
        toast(t(deciding.decision.done, { name }));
        await queryClient.invalidateQueries({ queryKey: ['settings', family.key] });
      }}
      onRefused={() => queryClient.invalidateQueries({ queryKey: ['settings', family.key] })}
      onClose={onClose}
    />
  );
}
