import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n';

const TONES = {
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-blue-200 bg-blue-50 text-blue-900',
  success: 'border-green-300 bg-green-50 text-green-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
} as const;

export type AlertTone = keyof typeof TONES;

/** A message in the page. An error is announced at once (role=alert); the others politely (role=status). */
export function Alert({ tone = 'info', children, className = '' }: { tone?: AlertTone; children: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-4 py-3 ${TONES[tone]} ${className}`}>
      {children}
    </div>
  );
}

interface Toast {
  id: number;
  tone: AlertTone;
  message: string;
}

const ToastContext = createContext<((message: string, tone?: AlertTone) => void) | null>(null);

/** Short-lived confirmations ("Claim submitted"), in one live region at the bottom of the screen. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const { t } = useI18n();
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (message: string, tone: AlertTone = 'success') => {
      const id = Date.now() + Math.random();
      setToasts((all) => [...all, { id, tone, message }]);
      setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4">
        {toasts.map((toast) => (
          <div key={toast.id} className={`pointer-events-auto flex w-full max-w-md items-start justify-between gap-3 rounded-md border px-4 py-3 shadow ${TONES[toast.tone]}`}>
            <span>{toast.message}</span>
            <button type="button" className="rounded px-1 underline" onClick={() => dismiss(toast.id)}>
              {t('app.dismiss')}
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `const toast = useToast(); toast(message, 'success');` */
export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast outside ToastProvider');
  return show;
}
