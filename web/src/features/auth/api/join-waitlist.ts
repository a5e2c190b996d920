import { api } from '@/lib/api';
import type { WaitlistJoined } from '@/lib/api-types/web';

/** `POST /api/waitlist`: puts a name and address on the tribe's wait list. */
export function joinWaitlist(fullName: string, email: string): Promise<WaitlistJoined> {
  return api.post<WaitlistJoined>('/api/waitlist', { full_name: fullName, email });
}
