/** The owner's list of session packages bought (docs/api.md, "Session packages and credits"); admin only on the server. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { bookingKeys } from './keys';
import type { PackageSales } from './types';

/** `GET /api/admin/booking/packages`: newest first. */
export function usePackageSales() {
  return useQuery(
    queryOptions({
      queryKey: bookingKeys.packageSales,
      queryFn: ({ signal }) => api.get<PackageSales>('/api/admin/booking/packages', signal),
      staleTime: 15_000,
    }),
  );
}
