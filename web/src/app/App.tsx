import { BrowserRouter } from '@/lib/router';
import { Providers } from './providers';
import { AppRoutes } from './routes';

/** The running app; `prerendered` when it hydrates the page's prerendered HTML. */
export function App({ prerendered = false }: { prerendered?: boolean }) {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes prerendered={prerendered} />
      </BrowserRouter>
    </Providers>
  );
}
