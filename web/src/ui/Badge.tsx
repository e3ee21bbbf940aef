import type { ReactNode } from 'react';

const TONES = {
  neutral: 'bg-slate-100 text-slate-800 border-slate-300',
  info: 'bg-blue-50 text-blue-900 border-blue-200',
  success: 'bg-green-50 text-green-900 border-green-200',
  warning: 'bg-amber-50 text-amber-900 border-amber-300',
  danger: 'bg-red-50 text-red-900 border-red-200',
} as const;

export type BadgeTone = keyof typeof TONES;

/** A short state label (a claim's state, a warning); its words carry the meaning, the colour only helps. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-sm font-medium ${TONES[tone]}`}>{children}</span>;
}
