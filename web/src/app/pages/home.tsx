import { lazy, Suspense } from 'react';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { HomePage } from '@/features/marketing/HomePage';
import { pageLoaded } from '@/lib/page-loaded';

// The console is its own chunk, loaded once the page has loaded. The prerendered HTML carries
// its first transcript, which hydration keeps in place until the chunk arrives.
const Console = lazy(async () => {
  await pageLoaded();
  return { default: (await import('@/features/console/Console')).Console };
});

/** Shown only on a client-side visit to Home before the console's chunk has arrived. */
function ConsoleLoading() {
  return (
    <TerminalWindow title="ruv@io: ~ (console)">
      <p className="min-h-48 text-muted" role="status">
        Starting the console…
      </p>
    </TerminalWindow>
  );
}

/** /: Home with the interactive console in its slot. */
export function HomeRoute() {
  return (
    <HomePage
      consoleSlot={
        <Suspense fallback={<ConsoleLoading />}>
          <Console />
        </Suspense>
      }
    />
  );
}
