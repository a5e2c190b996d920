import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '@/lib/api';
import type { Subscription } from '@/lib/api-types/billing';
import type { MembersOverview, SubscriptionReply } from '@/lib/api-types/web';
import { session } from '@/lib/session';
import { getMembersOverviewQueryOptions } from './get-members-overview';
import { membersKeys } from './keys';

/**
 * `POST /api/billing/refresh`: the server reads the member's subscription from Stripe and stores
 * it (so a payment shows before its webhook arrives); the subscription as it now stands.
 */
export async function syncSubscription(): Promise<Subscription | null> {
  return (await api.post<SubscriptionReply>('/api/billing/refresh')).subscription;
}

/** Reads everything a subscription changes again: the user, the sessions and the overview. */
export function useReadSubscription(): () => Promise<MembersOverview> {
  const client = useQueryClient();
  return useCallback(async () => {
    await session.refresh();
    await client.invalidateQueries({ queryKey: membersKeys.sessions });
    void client.invalidateQueries({ queryKey: membersKeys.adminMembers });
    return client.fetchQuery({ ...getMembersOverviewQueryOptions(), staleTime: 0 });
  }, [client]);
}

/**
 * Re-syncs with Stripe, then reads everything again; returns the fresh overview. A failed sync
 * is only logged (spec §8): the read still shows what the server knows.
 */
export function useRefreshSubscription(): () => Promise<MembersOverview> {
  const read = useReadSubscription();
  return useCallback(async () => {
    try {
      await syncSubscription();
    } catch (error) {
      console.warn('subscription sync failed', error);
    }
    return read();
  }, [read]);
}
