/**
 * The query client for the parts of the app that use TanStack Query (the members area). It lives
 * outside the entry chunk: a lazily loaded area wraps itself in
 * `<QueryClientProvider client={createQueryClient()}>` so public pages never load the library.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { session } from './session';

/** A 401 from any query or mutation means the session expired: the app shows the user signed out. */
function onError(error: unknown): void {
  session.reportError(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not change on retry; network and server errors might.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
          failureCount < 2,
      },
    },
  });
}
