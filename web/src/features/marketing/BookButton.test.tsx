import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BookButton } from './BookButton';

describe('BookButton', () => {
  it('opens the scheduling link in a new tab without a handle on this page', () => {
    render(<BookButton href="https://cal.com/ruv/30min">Book Now</BookButton>);
    const link = screen.getByRole('link', { name: 'Book Now' });
    expect(link).toHaveAttribute('href', 'https://cal.com/ruv/30min');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('is a disabled button when the card has no booking link', () => {
    render(<BookButton href="">Book Now</BookButton>);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book Now' })).toBeDisabled();
  });

  it('treats a blank link as no link', () => {
    render(<BookButton href="   ">Book Now</BookButton>);
    expect(screen.getByRole('button', { name: 'Book Now' })).toBeDisabled();
  });
});
