import { useEffect, useState } from 'react';
import { api } from '@/lib/api';

/** GET /api/tribe/status (docs/api.md): the member cap and how many active members there are. */
export interface TribeStatus {
  capacity: number;
  active_members: number;
  spots_left: number;
  at_capacity: boolean;
}

export const TRIBE_STATUS_PATH = '/api/tribe/status';

function isTribeStatus(value: unknown): value is TribeStatus {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.capacity === 'number' &&
    typeof v.active_members === 'number' &&
    typeof v.spots_left === 'number' &&
    typeof v.at_capacity === 'boolean'
  );
}

/**
 * The live capacity, fetched after the page is on screen; null until it arrives and whenever it
 * cannot be had (the page then shows the neutral cap from the content files).
 */
export function useTribeStatus(): TribeStatus | null {
  const [status, setStatus] = useState<TribeStatus | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<unknown>(TRIBE_STATUS_PATH, controller.signal)
      .then((data) => {
        if (isTribeStatus(data)) setStatus(data);
      })
      .catch(() => {
        // Unknown capacity is not an error for a visitor: the neutral notice stays.
      });
    return () => controller.abort();
  }, []);
  return status;
}
