import { useQuery } from '@tanstack/react-query';
import { useFieldArray, type UseFieldArrayReturn } from 'react-hook-form';
import { useI18n } from '../../i18n';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Money } from '../../ui/Money';
import type { EditorValues } from './editor-form';
import { invoiceReferenceQuery, type PreviewAnswer } from './invoice-api';
import type { EditorForm } from './invoice-editor';

/** The draft's lines: each with its account, tax code, classification, unit, quantity, price, discount, shares, and the server's net. */
export function EditorLines({ form, lines, preview, currency }: { form: EditorForm; lines: UseFieldArrayReturn<EditorValues, 'lines'>; preview: PreviewAnswer | undefined; currency: string }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="editor-lines">
      <h2 id="editor-lines" className="mb-3 text-lg font-semibold">
        {t('editor.lines')}
      </h2>
      <ol className="flex flex-col gap-4" data-testid="editor-lines">
        {lines.fields.map((field, i) => (
          <li key={field.id} className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm" data-line={i + 1}>
            <LineFields form={form} index={i} net={preview?.lines[i] ?? undefined} currency={currency} onRemove={lines.fields.length > 1 ? () => lines.remove(i) : undefined} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function LineFields({
  form,
  index: i,
  net,
  currency,
  onRemove,
}: {
  form: EditorForm;
  index: number;
  net: PreviewAnswer['lines'][number] | undefined;
  currency: string;
  onRemove: (() => void) | undefined;
}) {
  const { t } = useI18n();
  const reference = useQuery(invoiceReferenceQuery);
  const errors = form.formState.errors.lines?.[i];
  const err = (name: keyof NonNullable<typeof errors>) => {
    const e = errors?.[name] as { message?: string } | undefined;
    return e?.message;
  };
  const n = i + 1;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 flex w-full items-center justify-between gap-2 font-semibold">{t('editor.lineN', { n })}</legend>
      <TextField label={t('editor.description')} required autoComplete="off" maxLength={500} error={err('description')} {...form.register(`lines.${i}.description`)} />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <TextField label={t('editor.quantity')} required inputMode="decimal" autoComplete="off" error={err('quantity')} {...form.register(`lines.${i}.quantity`)} />
        <TextField label={t('editor.unitPrice')} required inputMode="decimal" autoComplete="off" hint={t('editor.unitPriceHint')} error={err('unit_price')} {...form.register(`lines.${i}.unit_price`)} />
        <TextField label={t('editor.discount')} inputMode="decimal" autoComplete="off" error={err('discount_amount')} {...form.register(`lines.${i}.discount_amount`)} />
        <TextField label={t('editor.unitCode')} hint={t('editor.unitCodeHint')} maxLength={3} autoComplete="off" error={err('unit_code')} {...form.register(`lines.${i}.unit_code`)} />
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField label={t('editor.account')} error={err('account_id')} {...form.register(`lines.${i}.account_id`)}>
          <option value="">{t('editor.customerDefault')}</option>
          {reference.data?.accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.code} · {a.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('editor.taxCode')} error={err('tax_code_id')} {...form.register(`lines.${i}.tax_code_id`)}>
          <option value="">{t('editor.customerDefault')}</option>
          {reference.data?.taxCodes.map((x) => (
            <option key={x.id} value={x.id}>
              {x.code} · {x.name}
            </option>
          ))}
        </SelectField>
        <TextField label={t('editor.classification')} hint={t('editor.classificationHint')} maxLength={3} inputMode="numeric" autoComplete="off" error={err('classification_code')} {...form.register(`lines.${i}.classification_code`)} />
      </div>
      <TextField label={t('editor.exemptionReason')} hint={t('editor.exemptionReasonHint')} autoComplete="off" maxLength={300} error={err('tax_exemption_reason')} {...form.register(`lines.${i}.tax_exemption_reason`)} />
      <Shares form={form} index={i} />
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
        <p className="text-slate-800" data-testid={`line-net-${n}`}>
          {t('editor.lineNet')}{' '}
          {net && currency ? (
            <strong>
              <Money amount={net.net_amount} currency={currency} />
            </strong>
          ) : (
            '—'
          )}
          {net ? <span className="ml-2 text-sm text-slate-700">{t('editor.lineTax', { code: net.tax_code, rate: net.tax_rate })}</span> : null}
        </p>
        {onRemove ? (
          <Button variant="ghost" onClick={onRemove} aria-label={t('editor.removeLineN', { n })}>
            {t('editor.removeLine')}
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** A line's shares: analytic accounts with their percentage (per axis they sum to 100). */
function Shares({ form, index }: { form: EditorForm; index: number }) {
  const { t } = useI18n();
  const reference = useQuery(invoiceReferenceQuery);
  const shares = useFieldArray({ control: form.control, name: `lines.${index}.shares` });
  const axisName = (axisId: string) => reference.data?.axes.find((a) => a.id === axisId)?.name ?? '';
  const lineError = (form.formState.errors.lines?.[index]?.shares as { message?: string } | undefined)?.message;
  return (
    <div className="flex flex-col gap-2">
      <p className="font-medium text-slate-900">{t('editor.shares')}</p>
      {shares.fields.map((field, s) => (
        <div key={field.id} className="grid gap-2 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
          <SelectField label={t('editor.shareAccount', { n: s + 1 })} {...form.register(`lines.${index}.shares.${s}.analytic_account_id`)}>
            {reference.data?.analyticAccounts.map((a) => (
              <option key={a.id} value={a.id}>
                {axisName(a.axis_id)}: {a.code} · {a.name}
              </option>
            ))}
          </SelectField>
          <TextField label={t('editor.sharePercentage', { n: s + 1 })} inputMode="decimal" autoComplete="off" {...form.register(`lines.${index}.shares.${s}.percentage`)} />
          <Button variant="ghost" onClick={() => shares.remove(s)} aria-label={t('editor.removeShareN', { n: s + 1 })}>
            {t('editor.removeShare')}
          </Button>
        </div>
      ))}
      {lineError ? <p className="text-sm font-medium text-red-700">{lineError}</p> : null}
      {reference.data?.analyticAccounts.length ? (
        <Button variant="secondary" className="self-start" onClick={() => shares.append({ analytic_account_id: reference.data.analyticAccounts[0]!.id, percentage: '100' })}>
          {t('editor.addShare')}
        </Button>
      ) : null}
    </div>
  );
}

/** The totals as the server priced them (never summed here), and what the server would refuse now. */
export function Totals({ preview, pending, error }: { preview: PreviewAnswer | undefined; pending: boolean; error: string | undefined }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="editor-totals" className="rounded-lg border border-slate-300 bg-slate-50 p-4">
      <h2 id="editor-totals" className="mb-2 text-lg font-semibold">
        {t('editor.totals')}
      </h2>
      <p className="sr-only" role="status">
        {pending ? t('editor.pricing') : ''}
      </p>
      {preview ? (
        <dl className="grid max-w-md grid-cols-[1fr_auto] gap-x-4 gap-y-1" data-testid="editor-totals" aria-busy={pending || undefined}>
          <dt>{t('editor.net')}</dt>
          <dd className="text-right" data-total="net">
            <Money amount={preview.net_total} currency={preview.currency} />
          </dd>
          <dt>{t('editor.tax')}</dt>
          <dd className="text-right" data-total="tax">
            <Money amount={preview.tax_total} currency={preview.currency} />
          </dd>
          <dt className="font-semibold">{t('editor.gross')}</dt>
          <dd className="text-right text-lg font-semibold" data-total="gross">
            <Money amount={preview.gross_amount} currency={preview.currency} />
          </dd>
          {preview.fx_rate !== '1' ? (
            <>
              <dt>{t('editor.grossBase')}</dt>
              <dd className="text-right" data-total="base">
                <Money amount={preview.gross_base} currency={preview.base_currency} />
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p className="text-slate-700">{t('editor.totalsLater')}</p>
      )}
      {error ? <p className="mt-2 text-sm text-red-700">{error}</p> : null}
      {preview?.errors.length ? (
        <div className="mt-3 text-sm text-slate-800">
          <p className="font-medium">{t('editor.stillToFix')}</p>
          <ul className="list-disc pl-5" data-testid="preview-errors">
            {preview.errors.map((e) => (
              <li key={`${e.pointer}:${e.detail}`}>
                {pointerWords(e.pointer, t)}: {e.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** "/lines/1/unit_price" → "Line 2, unit_price": where a fault is, in the person's words. */
function pointerWords(pointer: string, t: ReturnType<typeof useI18n>['t']): string {
  const m = /^\/lines\/(\d+)\/(.+)$/.exec(pointer);
  if (m) return t('editor.faultAtLine', { n: Number(m[1]) + 1, field: m[2]!.replace(/_/g, ' ') });
  return pointer.replace(/^\//, '').replace(/_/g, ' ');
}
