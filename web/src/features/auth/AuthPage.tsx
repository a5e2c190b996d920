import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

export function AuthPage() {
  return (
    <Page title="Member Login">
      <PageHeader
        command="login"
        title="Welcome to the Tribe"
        lead="Sign in to reach the members area, or create an account. Sign-in and sign-up are not open on this page yet."
      />
    </Page>
  );
}
