/**
 * The query client for the parts of the app that use TanStack Query (the members area). It lives
 * outside the entry chunk: a lazily loaded area wraps itself in
 * `<QueryClientProvider client={createQueryClient()}>` so public pages never load the library.
 *
 * A feature keeps each request in its `api/` folder as a fetcher, its query options and a hook
 * (`getX`, `getXQueryOptions`, `useX`), or for a change a fetcher and a mutation hook that updates
 * the cache itself (`useCreateX({ mutationConfig })`). The two types below are what those hooks
 * accept from the component on top.
 */
import {
  MutationCache,
  QueryCache,
  QueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query';
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

/** What a query hook accepts on top of its query options: everything but the key and the fetcher. */
export type QueryConfig<T extends (...args: never[]) => unknown> = Omit<
  ReturnType<T>,
  'queryKey' | 'queryFn'
>;

/** The variables a mutation passes to its fetcher: nothing, or the fetcher's one argument. */
type MutationVariables<F extends (...args: never[]) => unknown> =
  Parameters<F> extends [] ? undefined : Parameters<F>[0];

/**
 * What a mutation hook accepts: callbacks and options, never the fetcher. The hook's own cache
 * updates run first, then these callbacks; a refetch the hook starts is awaited after them, so
 * the mutation stays pending until the lists on screen are fresh.
 */
export type MutationConfig<F extends (...args: never[]) => Promise<unknown>> = Omit<
  UseMutationOptions<Awaited<ReturnType<F>>, Error, MutationVariables<F>>,
  'mutationFn'
>;
