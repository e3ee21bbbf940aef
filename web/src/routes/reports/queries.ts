import { queryOptions } from '@tanstack/react-query';
import { trpc } from '../../api/trpc';

/** The receivables reports' reads: the ageing as at a day and the collection figures. */
export type AgeingInput = Parameters<typeof trpc.receivables.reports.ageing.query>[0];
export type AgeingReport = Awaited<ReturnType<typeof trpc.receivables.reports.ageing.query>>;
export type Figures = Awaited<ReturnType<typeof trpc.receivables.reports.figures.query>>;

export const ageingQuery = (input: AgeingInput) =>
  queryOptions({ queryKey: ['receivables.reports.ageing', input], queryFn: () => trpc.receivables.reports.ageing.query(input) });

export const figuresQuery = (asOf: string) =>
  queryOptions({ queryKey: ['receivables.reports.figures', { as_of: asOf }], queryFn: () => trpc.receivables.reports.figures.query({ as_of: asOf }) });

/** The REST address of the ageing in another format (the browser downloads it on the session cookie). */
export function ageingDownloadUrl(input: { as_of: string; group?: 'only' | 'none' | undefined }, format: 'csv' | 'pdf'): string {
  const params = new URLSearchParams({ as_of: input.as_of, ...(input.group ? { group: input.group } : {}), format });
  return `/v1/receivables/reports/ageing?${params.toString()}`;
}
