import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query';
import { I18nProvider } from './i18n';
import { createConsoleRouter } from './routes/router';
import { ToastProvider } from './ui/Alert';
import './styles.css';

// A 401 on any call: the session ended. Sign in again, then come back here.
const queryClient = createQueryClient(() => {
  if (router.state.location.pathname === '/sign-in') return;
  queryClient.clear();
  void router.navigate({ to: '/sign-in', search: { next: router.state.location.href, expired: true } });
});
const router = createConsoleRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
