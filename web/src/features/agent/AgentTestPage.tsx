import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

export function AgentTestPage() {
  return (
    <Page title="Agent test">
      <PageHeader
        command="agent --test"
        title="Agent test"
        lead="A workbench for trying the site's AI agent against the knowledge base. It is for administrators only and is not available yet."
      />
    </Page>
  );
}
