import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { NOTIFICATIONS_QUERY_ROOT } from '@/lib/events';
import { session } from '@/lib/session';
import { membersKeys } from './keys';
import { invalidateTopic } from './live-updates';

function setup() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const refresh = vi.spyOn(session, 'refresh').mockResolvedValue({ status: 'signed-out' });
  const invalidated = () => invalidate.mock.calls.map(([filters]) => filters?.queryKey);
  return { client, refresh, invalidated };
}

describe('invalidateTopic', () => {
  it('refetches cohorts on a cohorts notice, and nothing else', () => {
    const t = setup();
    invalidateTopic(t.client, 'cohorts');
    expect(t.invalidated()).toEqual([membersKeys.cohorts]);
    expect(t.refresh).not.toHaveBeenCalled();
  });

  it('refetches sessions on a sessions notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'sessions');
    expect(t.invalidated()).toEqual([membersKeys.sessions]);
  });

  it('refetches the user, the overview and the sessions on a subscription notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'subscription');
    expect(t.refresh).toHaveBeenCalledTimes(1);
    expect(t.invalidated()).toEqual([
      membersKeys.overview,
      membersKeys.sessions,
      membersKeys.adminMembers,
    ]);
  });

  it('refetches the member count on a tribe notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'tribe');
    expect(t.refresh).not.toHaveBeenCalled();
    expect(t.invalidated()).toEqual([membersKeys.overview, membersKeys.adminMembers]);
  });

  it('refetches the user, the profile and the directory on a profile notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'profile');
    expect(t.refresh).toHaveBeenCalledTimes(1);
    expect(t.invalidated()).toEqual([membersKeys.profile, membersKeys.directory]);
  });

  it('refetches the board, its comments and the directory on a projects notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'projects');
    expect(t.refresh).not.toHaveBeenCalled();
    expect(t.invalidated()).toEqual([membersKeys.projects, membersKeys.directory]);
  });

  it('refetches the notification centre on a notifications notice', () => {
    const t = setup();
    invalidateTopic(t.client, 'notifications');
    expect(t.refresh).not.toHaveBeenCalled();
    expect(t.invalidated()).toEqual([NOTIFICATIONS_QUERY_ROOT]);
  });
});
