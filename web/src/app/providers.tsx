import type { ReactNode } from 'react';
import { ToastRegion } from '@/lib/toast';

/**
 * What every page shares. Kept small on purpose: the session is an external store
 * (lib/session.ts), toasts load on first use (lib/toast.ts), and the query client belongs to the
 * members area (lib/query.ts), so none of them weighs on the first page load.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ToastRegion />
    </>
  );
}
