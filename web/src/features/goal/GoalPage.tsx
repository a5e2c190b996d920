import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

export function GoalPage() {
  return (
    <Page title="Goal planner">
      <PageHeader
        command="goal --plan"
        title="Goal planner"
        lead="Describe a goal and get a step-by-step plan for reaching it. The planning widget is not connected yet."
      />
    </Page>
  );
}
