import { describe, expect, it } from 'vitest';
import { afterSignInPath } from './navigation';

describe('afterSignInPath', () => {
  it('brings a member back from checkout to /members with the checkout flags', () => {
    expect(afterSignInPath(new URLSearchParams('success=true&return=members'))).toBe(
      '/members?success=true',
    );
    expect(
      afterSignInPath(
        new URLSearchParams('canceled=true&awaiting_subscription=true&return=members'),
      ),
    ).toBe('/members?canceled=true&awaiting_subscription=true');
    expect(afterSignInPath(new URLSearchParams('return=members'))).toBe('/members');
  });

  it('keeps other return paths on this site only', () => {
    expect(afterSignInPath(new URLSearchParams('return=/tribe'))).toBe('/tribe');
    expect(afterSignInPath(new URLSearchParams('return=//evil.example'))).toBe('/members');
    expect(afterSignInPath(new URLSearchParams('success=true'))).toBe('/members');
  });
});
