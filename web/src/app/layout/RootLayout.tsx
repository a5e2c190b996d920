import { type ReactNode, Suspense } from 'react';
import { PageLoading } from '@/components/ui/loading';
import { ScrollManager } from './ScrollManager';
import { ScrollProgress } from './ScrollProgress';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';
import { MAIN_ID, SkipLink } from './SkipLink';

/** Shared frame of every page: scroll progress, navigation, main area and footer. */
export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col pt-5">
      <SkipLink />
      <ScrollManager />
      <ScrollProgress />
      <SiteHeader />
      <main id={MAIN_ID} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
