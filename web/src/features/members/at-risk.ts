/** The at-risk list's wording and the prepared mail an admin sends from it. */

import type { AtRiskMember } from '@/lib/api-types/notify';

/** How each reason reads on the list. */
export function reasonLabel(reason: string, notSeenDays: number, missed: number): string {
  switch (reason) {
    case 'missed_sessions':
      return `Missed the last ${missed} sessions`;
    case 'not_seen':
      return `Not seen for ${notSeenDays}+ days`;
    case 'payment_failed':
      return 'Payment failed';
    default:
      return reason;
  }
}

/** The first name, or a greeting without one. */
function firstName(m: AtRiskMember): string {
  return m.full_name.trim().split(/\s+/)[0] ?? '';
}

/**
 * A `mailto:` link with a subject and a body written for the member's situation, for the admin's
 * own mail program to send (and to edit first).
 */
export function writeToThem(m: AtRiskMember): string {
  const name = firstName(m);
  const hello = name ? `Hi ${name},` : 'Hi,';
  const lines = [hello, ''];
  if (m.reasons.includes('payment_failed')) {
    lines.push(
      'It looks like the last payment for your tribe membership did not go through. You can update your card from the members area (Subscription, Manage billing), and if something is not right, just reply to this mail.',
      '',
    );
  }
  if (m.reasons.includes('missed_sessions') || m.reasons.includes('not_seen')) {
    lines.push(
      'We have missed you at the live sessions lately. Is there anything that would make them work better for you: another time, another topic, or something you would like to build with the group?',
      '',
    );
  }
  lines.push('I would love to hear how it is going.', '');
  const subject = m.reasons.includes('payment_failed')
    ? 'Your tribe membership'
    : 'We missed you in the tribe';
  return `mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(lines.join('\n'))}`;
}
