import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { StatementMapping, StatementPreset } from '../../../../src/domain/bank-statements';
import { problemOf, type ConsoleProblem } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ProblemAlert } from '../owner/shared';

export const ACCOUNTS_KEY = ['receivables.bankStatements.listAccounts'];
export const LINES_KEY = 'receivables.bankStatements.lines';
const presetsQuery = { queryKey: ['receivables.bankStatements.presets'], queryFn: () => trpc.receivables.bankStatements.presets.query(), staleTime: Infinity };

type Column = 'date' | 'amount' | 'debit' | 'credit' | 'type' | 'reference' | 'balance';
const COLUMNS_OF: Record<StatementMapping['amount_layout'], Column[]> = {
  signed: ['date', 'amount', 'reference', 'balance'],
  debit_credit: ['date', 'debit', 'credit', 'reference', 'balance'],
  amount_type: ['date', 'amount', 'type', 'reference', 'balance'],
};

/**
 * Adding a bank account: its layout (a preset) and, once, the headings of its CSV's columns and the
 * date format, prefilled from the preset; the mapping is saved with the account.
 */
export function NewAccountForm({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const presets = useQuery(presetsQuery);
  const [preset, setPreset] = useState<StatementPreset>('cimb_bizchannel');
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const base = presets.data?.presets.find((p) => p.key === preset)?.mapping;
  if (!presets.data || !base) return <p role="status">{t('app.loading')}</p>;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const value = (k: string) => String(form.get(k) ?? '').trim();
    const mapping: StatementMapping = { ...base, date_format: value('date_format') as StatementMapping['date_format'] };
    for (const c of COLUMNS_OF[base.amount_layout]) {
      const heading = value(`col_${c}`);
      if (heading) mapping[c] = [heading, ...(base[c] ?? []).filter((h) => h !== heading)];
      else if (c === 'reference' || c === 'balance') delete mapping[c];
    }
    const description = value('col_description');
    if (description) mapping.description = [[description], ...base.description.slice(1)];
    setBusy(true);
    setProblem(undefined);
    try {
      const account = await trpc.receivables.bankStatements.createAccount.mutate({ name: value('name'), account_number: value('account_number'), preset, mapping }, write());
      toast(t('bank.created'));
      await queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
      onCreated(account.id);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (pointer: string) => problem?.pointers.find((p) => p.pointer === pointer)?.detail;
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-labelledby="bank-new-title" key={preset}>
      <h2 id="bank-new-title" className="text-lg font-semibold">
        {t('bank.newAccount')}
      </h2>
      <TextField label={t('bank.name')} name="name" required maxLength={100} error={errorOf('/name')} />
      <TextField label={t('bank.accountNumber')} name="account_number" maxLength={40} />
      <SelectField label={t('bank.preset')} name="preset" value={preset} onChange={(e) => setPreset(e.target.value as StatementPreset)}>
        {presets.data.presets.map((p) => (
          <option key={p.key} value={p.key}>
            {t(`bank.preset.${p.key}` as MessageKey)}
          </option>
        ))}
      </SelectField>
      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 p-3">
        <legend className="px-1 font-medium">{t('bank.mapping')}</legend>
        <p className="text-sm text-slate-700">{t('bank.mappingHint')}</p>
        <SelectField label={t('bank.dateFormat')} name="date_format" defaultValue={base.date_format}>
          {presets.data.date_formats.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </SelectField>
        {COLUMNS_OF[base.amount_layout].map((c) => (
          <TextField key={c} label={t(`bank.col.${c}` as MessageKey)} name={`col_${c}`} defaultValue={base[c]?.[0] ?? ''} error={errorOf(`/mapping/${c}`)} />
        ))}
        <TextField label={t('bank.col.description')} name="col_description" defaultValue={base.description[0]?.[0] ?? ''} />
      </fieldset>
      <ProblemAlert problem={problem && problem.pointers.length ? undefined : problem} />
      <Button type="submit" busy={busy} className="self-start">
        {t('bank.create')}
      </Button>
    </form>
  );
}

/** Uploading a CSV to the account: how many lines were added and how many were already there, or the cells refused. */
export function UploadForm({ accountId }: { accountId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [done, setDone] = useState<{ added: number; already: number }>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const file = new FormData(e.currentTarget).get('file');
    if (!(file instanceof File) || file.size === 0) return;
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      const answer = await trpc.receivables.bankStatements.upload.mutate({ id: accountId, csv: await file.text() }, write());
      setDone({ added: answer.added, already: answer.already_there });
      await queryClient.invalidateQueries({ queryKey: [LINES_KEY, accountId] });
      await queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-labelledby="bank-upload-title">
      <h2 id="bank-upload-title" className="text-lg font-semibold">
        {t('bank.upload')}
      </h2>
      <TextField label={t('bank.file')} hint={t('bank.fileHint')} type="file" name="file" accept=".csv,text/csv" required />
      <Button type="submit" busy={busy} className="self-start">
        {t('bank.send')}
      </Button>
      {done ? (
        <Alert tone="success">
          <p data-testid="upload-result">{t('bank.uploaded', { added: String(done.added), already: String(done.already) })}</p>
        </Alert>
      ) : null}
      {problem ? (
        <Alert tone="error">
          <p className="font-medium">{problem.detail}</p>
          {problem.pointers.length ? (
            <ul className="mt-1 list-disc pl-5" data-testid="upload-errors">
              {problem.pointers.map((p) => (
                <li key={p.pointer}>{p.detail}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </form>
  );
}
