import { useEffect, useRef } from 'react';
import { detectTimeZone } from '@/lib/time-zone';
import { useNotifications } from './api/get-notifications';
import { useUpdateNotifications } from './api/update-notifications';

/**
 * Saves the browser's time zone as the member's reminder zone when they have none, on their first
 * visit of the members area (sign-in sends it too): a member who never opens Profile is then
 * reminded in their own time, not in UTC. A zone already chosen is never replaced.
 */
export function useAdoptTimeZone(enabled: boolean): void {
  const query = useNotifications({ queryConfig: { enabled } });
  const { mutate } = useUpdateNotifications();
  const adopted = useRef(false);
  const stored = query.data?.time_zone;
  useEffect(() => {
    if (stored !== '' || adopted.current) return;
    adopted.current = true;
    mutate({ time_zone: detectTimeZone() });
  }, [stored, mutate]);
}
