import { Link, type LinkProps } from '@tanstack/react-router';

/** A To do tile: a count and what it counts, the whole tile one link to the work. */
export function Tile({ to, search, count, label }: { to: LinkProps['to']; search?: LinkProps['search']; count: number; label: string }) {
  return (
    <Link
      to={to}
      search={search}
      className="flex min-h-24 flex-col justify-between rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-sm hover:border-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      <span className="text-3xl font-semibold tabular-nums">{count}</span>
      <span className="text-base font-medium">{label}</span>
    </Link>
  );
}
