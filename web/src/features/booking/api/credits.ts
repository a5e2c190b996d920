import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { bookingKeys } from './keys';
import { postJson } from './request';
import type { Credits, Packages } from './types';

/** `GET /api/booking/packages`: the session packages, and whether the caller pays member prices. */
export function getPackages(signal?: AbortSignal): Promise<Packages> {
  return api.get<Packages>('/api/booking/packages', signal);
}

export function usePackages() {
  return useQuery(
    queryOptions({ queryKey: bookingKeys.packages, queryFn: ({ signal }) => getPackages(signal) }),
  );
}

/** Who the credits are asked for: the credits mail's link, or the signed-in member. */
export type CreditsOwner = { email: string; token: string } | { signedIn: true };

/** The address and token of a credits link, or null when the link has neither. */
export function creditsLink(params: URLSearchParams): { email: string; token: string } | null {
  const email = params.get('email') ?? '';
  const token = params.get('credit_token') ?? params.get('token') ?? '';
  return email && token ? { email, token } : null;
}

/** `GET /api/credits?email=&token=` or `GET /api/members/me/credits`. */
export function getCredits(owner: CreditsOwner, signal?: AbortSignal): Promise<Credits> {
  if ('token' in owner) {
    const q = new URLSearchParams({ email: owner.email, token: owner.token });
    return api.get<Credits>(`/api/credits?${q.toString()}`, signal);
  }
  return api.get<Credits>('/api/members/me/credits', signal);
}

export function useCredits(
  owner: CreditsOwner | null,
  { refetchInterval }: { refetchInterval?: number | false | (() => number | false) } = {},
) {
  return useQuery({
    queryKey: bookingKeys.credits(owner && 'token' in owner ? owner.email : ''),
    queryFn: ({ signal }) => getCredits(owner as CreditsOwner, signal),
    enabled: owner !== null,
    refetchInterval,
    retry: false,
  });
}

/** `POST /api/booking/packages/{id}/checkout`: where to pay for a package. */
export function buyPackage(input: { id: string; name: string; email: string }) {
  return postJson<{ checkout_url: string }>(
    `/api/booking/packages/${encodeURIComponent(input.id)}/checkout`,
    { name: input.name, email: input.email },
  );
}

export function useBuyPackage() {
  return useMutation({ mutationFn: buyPackage });
}
