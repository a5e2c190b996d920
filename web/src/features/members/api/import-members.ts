import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorFromResponse, send } from '@/lib/api';
import type { ImportReport } from '@/lib/api-types/transfer';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** The largest file the server reads (transfer.MaxImportBytes). */
export const MAX_IMPORT_BYTES = 2 << 20;

/**
 * `POST /api/admin/import/members` (admins): the CSV file is the whole body. With `dryRun` the
 * server tries every row and writes nothing; the report is the same shape either way.
 */
export async function importMembers({
  file,
  dryRun,
}: {
  file: Blob;
  dryRun: boolean;
}): Promise<ImportReport> {
  const res = await send(`/api/admin/import/members${dryRun ? '?dry_run=1' : ''}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: file,
  });
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as ImportReport;
}

export function useImportMembers({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof importMembers>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: importMembers,
    onSuccess: async (...args) => {
      // An applied import adds members and memberships: the admins' list shows them.
      const refetched = args[0].dry_run
        ? Promise.resolve()
        : client.invalidateQueries({ queryKey: membersKeys.adminMembers });
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
