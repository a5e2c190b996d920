import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

export function MembersPage() {
  return (
    <Page title="Members">
      <PageHeader
        command="cd ~/members"
        title="Members area"
        lead="Cohorts, live sessions, the knowledge base and the AI assistant for tribe members. This area is not open yet."
      />
    </Page>
  );
}
