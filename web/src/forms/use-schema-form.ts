import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { problemOf, type ConsoleProblem } from '../api/problem';
import { problemMessage } from '../api/problem-message';
import { useI18n } from '../i18n';
import { placeProblem } from './pointers';

export type SchemaForm<S extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<z.input<S>, unknown, z.output<S>> & {
  /** The form-level sentence of the last problem (shown above the submit button), if any. */
  formMessage: string | undefined;
  /** The last problem, e.g. to read its extensions. */
  problem: ConsoleProblem | undefined;
  /** Puts a failed call's pointers on their fields and the rest in formMessage; answers the problem. */
  showProblem: (error: unknown) => ConsoleProblem;
  clearProblem: () => void;
};

/**
 * A form on a procedure's own input schema (imported from src/contract/<area>.ts: the server's
 * rules run before the request is sent). Amounts stay strings. What the person typed is kept on error.
 *
 *   const form = useSchemaForm(loginInput, { defaultValues: { email: '', password: '' } });
 *   <form onSubmit={form.handleSubmit((v) => mutation.mutateAsync(v).catch(form.showProblem))}>
 */
export function useSchemaForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, options: { defaultValues?: DefaultValues<z.input<S>> } = {}): SchemaForm<S> {
  const { t } = useI18n();
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's generics follow the schema, as useForm's do (z.input / z.output of the same schema).
    resolver: zodResolver(schema as never) as never,
    mode: 'onTouched',
    ...(options.defaultValues ? { defaultValues: options.defaultValues } : {}),
  });
  const [state, setState] = useState<{ problem: ConsoleProblem; message: string | undefined }>();
  const showProblem = (error: unknown): ConsoleProblem => {
    const problem = problemOf(error);
    const values = form.getValues() as Record<string, unknown>;
    const placed = placeProblem(problem, (name) => hasPath(values, name));
    placed.fields.forEach((f, i) => form.setError(f.name as Path<z.input<S>>, { type: 'server', message: f.message }, { shouldFocus: i === 0 }));
    const message = placed.formMessages.length > 0 ? [problemMessage(problem, t), ...placed.formMessages.slice(1)].join(' ') : t('problem.fixFields');
    setState({ problem, message });
    return problem;
  };
  return Object.assign(form, {
    formMessage: state?.message,
    problem: state?.problem,
    showProblem,
    clearProblem: () => setState(undefined),
  });
}

function hasPath(values: Record<string, unknown>, name: string): boolean {
  let value: unknown = values;
  for (const token of name.split('.')) {
    if (value === null || typeof value !== 'object' || !(token in value)) return false;
    value = (value as Record<string, unknown>)[token];
  }
  return true;
}
