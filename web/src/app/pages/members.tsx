import { AssistantsAdmin } from '@/features/assistants/AssistantsAdmin';
import { ConnectedAssistants } from '@/features/assistants/ConnectedAssistants';
import { BookingAdmin } from '@/features/booking/admin/BookingAdmin';
import { CommunityReports } from '@/features/forum/CommunityReports';
import { CommunityTab } from '@/features/forum/CommunityTab';
import { LatestAnnouncement } from '@/features/forum/LatestAnnouncement';
import { NotificationBell } from '@/features/inbox/NotificationBell';
import { NotificationChannels } from '@/features/inbox/NotificationChannels';
import { InsightsLink } from '@/features/insights/InsightsLink';
import { LibraryTab } from '@/features/library/LibraryTab';
import { MembersPage } from '@/features/members/MembersPage';

/**
 * /members (and /members/community/{id}, /members/library, /members/library/{id}): the members
 * area, with the library's tab, the community's tab and its
 * pinned announcement on the dashboard, booking's section, the community's reports and the way to
 * Insights in its Admin tab, and the notification centre's bell in its header and channel choices in
 * Profile, with the member's connected assistants (and their count per client in Admin).
 */
export function MembersRoute() {
  return (
    <MembersPage
      dashboardExtra={<LatestAnnouncement />}
      community={({ isAdmin, subscribe }) => (
        <CommunityTab isAdmin={isAdmin} subscribe={subscribe} />
      )}
      library={({ isAdmin, subscribe, levels }) => (
        <LibraryTab isAdmin={isAdmin} subscribe={subscribe} levels={levels} />
      )}
      headerExtra={<NotificationBell />}
      profileExtra={
        <div className="flex flex-col gap-6">
          <NotificationChannels />
          <ConnectedAssistants />
        </div>
      }
      adminExtra={
        <>
          <InsightsLink />
          <CommunityReports />
          <BookingAdmin />
          <AssistantsAdmin />
        </>
      }
    />
  );
}
