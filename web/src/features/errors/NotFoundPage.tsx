import { ArrowLeft, FolderGit2, Home } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { usePageTitle } from '@/lib/page-title';
import { useLocation, useNavigate } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { useHydrated } from '@/lib/use-hydrated';

const timeFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** True when there is a page to go back to (in this app, or earlier in the tab's history). */
function canGoBack(locationKey: string): boolean {
  return locationKey !== 'default' || window.history.length > 1;
}

/**
 * The page for any path no route matches. Remounts per path, so each gets its own time and log.
 * The server sends it prerendered with the requested path filled in (internal/web/notfound.go);
 * the time of the error appears once the app runs, so hydration finds the HTML it rendered.
 */
export function NotFoundPage() {
  usePageTitle('Page not found');
  const { pathname } = useLocation();
  return <NotFoundContent key={pathname} path={pathname} />;
}

function NotFoundContent({ path }: { path: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [errorTime] = useState(() => new Date());
  const logged = useRef<string | null>(null);

  useEffect(() => {
    if (logged.current === path) return;
    logged.current = path;
    console.error('404 Error: User attempted to access non-existent route:', path);
  }, [path]);

  const go = (to: string) => {
    scrollToTopSmooth();
    navigate(to);
  };

  const goBack = () => {
    if (canGoBack(location.key)) navigate(-1);
    else navigate('/', { replace: true });
  };

  return (
    <Container className="flex flex-1 items-center py-16 sm:py-24">
      <section aria-labelledby="not-found-title" className="w-full motion-safe:animate-fade-up">
        <div className="mx-auto max-w-2xl overflow-hidden rounded-xl border border-ink-700 bg-ink-950 shadow-[0_30px_80px_-40px_rgb(248_113_113/0.35)]">
          <div className="flex items-center gap-2 border-b border-ink-800 bg-ink-850 px-4 py-2.5">
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-red/80" />
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-amber/80" />
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-green/80" />
            <span className="ml-2 font-mono text-xs text-dim">bash: exit status 404</span>
          </div>
          <div className="px-5 py-8 sm:px-10 sm:py-12">
            <p
              aria-hidden="true"
              className="font-mono text-7xl font-bold leading-none tracking-tight text-term-green drop-shadow-[0_0_24px_rgb(74_222_128/0.35)] sm:text-8xl"
            >
              404
            </p>
            <h1 id="not-found-title" className="mt-4 text-2xl font-bold text-fg sm:text-3xl">
              <span className="sr-only">404 </span>Page Not Found
            </h1>
            <p className="mt-6 font-mono text-sm text-muted">
              <span className="text-term-green">$</span> cd{' '}
              <code className="break-all rounded bg-ink-800 px-1.5 py-0.5 text-term-cyan">
                {path}
              </code>
            </p>
            <p className="mt-2 font-mono text-sm text-term-red">
              bash: cd: {path}: No such file or directory
            </p>
            <p className="mt-6 text-base text-muted">
              The page you requested does not exist. It may have moved, or the address may be
              mistyped.
            </p>
            <p className="mt-3 min-h-4 font-mono text-xs text-dim">
              {hydrated ? (
                <>
                  Error time:{' '}
                  <time dateTime={errorTime.toISOString()} className="text-muted">
                    {timeFormat.format(errorTime)}
                  </time>
                </>
              ) : null}
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button variant="primary" onClick={() => go('/')}>
                <Home size={16} aria-hidden="true" />
                Return Home
              </Button>
              <Button variant="outline" onClick={() => go('/projects')}>
                <FolderGit2 size={16} aria-hidden="true" />
                View Projects
              </Button>
              <Button variant="ghost" onClick={goBack}>
                <ArrowLeft size={16} aria-hidden="true" />
                Go Back
              </Button>
            </div>
          </div>
        </div>
      </section>
    </Container>
  );
}
