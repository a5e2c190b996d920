/**
 * `GET /api/tribe/status` (docs/api.md): the member cap and how many active members there are.
 * The tribe page is public and TanStack Query loads only with the members area, so the hook is a
 * plain effect.
 */

import { useEffect, useState } from 'react';
import { api } from '@/lib/api';
import type { TribeStatus } from '@/lib/api-types/billing';

export const TRIBE_STATUS_PATH = '/api/tribe/status';

/** A status as any server version sends it: older ones have no held or payments_enabled. */
type SentStatus = Omit<TribeStatus, 'held' | 'payments_enabled'> & {
  held?: number;
  payments_enabled?: boolean;
};

function isTribeStatus(value: unknown): value is SentStatus {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.capacity === 'number' &&
    typeof v.active_members === 'number' &&
    typeof v.spots_left === 'number' &&
    typeof v.at_capacity === 'boolean' &&
    (v.held === undefined || typeof v.held === 'number') &&
    (v.payments_enabled === undefined || typeof v.payments_enabled === 'boolean')
  );
}

/** The status, or null when the answer is not a status. */
export async function getTribeStatus(signal?: AbortSignal): Promise<TribeStatus | null> {
  const data = await api.get<unknown>(TRIBE_STATUS_PATH, signal);
  // A server from before online payment existed has no payments_enabled: payment is off there;
  // one from before seat holds were shown has no held.
  return isTribeStatus(data)
    ? { ...data, held: data.held ?? 0, payments_enabled: data.payments_enabled === true }
    : null;
}

/**
 * The live capacity, fetched after the page is on screen; null until it arrives and whenever it
 * cannot be had (the page then shows the neutral cap from the content files).
 */
export function useTribeStatus(): TribeStatus | null {
  const [status, setStatus] = useState<TribeStatus | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getTribeStatus(controller.signal)
      .then((data) => {
        if (data) setStatus(data);
      })
      .catch(() => {
        // Unknown capacity is not an error for a visitor: the neutral notice stays.
      });
    return () => controller.abort();
  }, []);
  return status;
}
