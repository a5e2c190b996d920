import { BookingAdmin } from '@/features/booking/admin/BookingAdmin';
import { NotificationBell } from '@/features/inbox/NotificationBell';
import { NotificationChannels } from '@/features/inbox/NotificationChannels';
import { InsightsLink } from '@/features/insights/InsightsLink';
import { MembersPage } from '@/features/members/MembersPage';

/**
 * /members: the members area, with booking's section and the way to Insights in its Admin tab, and
 * the notification centre's bell in its header and channel choices in Profile.
 */
export function MembersRoute() {
  return (
    <MembersPage
      headerExtra={<NotificationBell />}
      profileExtra={<NotificationChannels />}
      adminExtra={
        <>
          <InsightsLink />
          <BookingAdmin />
        </>
      }
    />
  );
}
