import { LoginDialogButton, WaitlistDialogButton } from '@/features/auth/TribeDialogs';
import { TribePage } from '@/features/tribe/TribePage';

/** /tribe: the tribe landing page with the account feature's Join Wait List and Login dialogs. */
export function TribeRoute() {
  return <TribePage WaitlistButton={WaitlistDialogButton} LoginButton={LoginDialogButton} />;
}
