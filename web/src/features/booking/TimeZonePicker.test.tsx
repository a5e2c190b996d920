import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TimeZonePicker } from './TimeZonePicker';

function Harness({ start = 'America/New_York' }: { start?: string }) {
  const [zone, setZone] = useState(start);
  return (
    <>
      <TimeZonePicker value={zone} onChange={setZone} />
      <output data-testid="zone">{zone}</output>
    </>
  );
}

describe('TimeZonePicker', () => {
  it('shows the zone and its offset, and offers every IANA zone the browser knows', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByText(/^Times are shown in/)).toHaveTextContent(
      /^Times are shown in America\/New_York GMT-[45]$/,
    );
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    const box = screen.getByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect(box).toHaveFocus());
    const count = Intl.supportedValuesOf('timeZone').length;
    expect(
      screen.getByText(new RegExp(`^${count + 1} time zones|^${count} time zones`)),
    ).toBeInTheDocument();
  });

  it('filters as one types and chooses with the arrows and Enter', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    const box = screen.getByRole('combobox', { name: 'Time zone' });
    await user.type(box, 'pari');
    const options = screen.getAllByRole('option');
    expect(options[0]).toHaveTextContent('Europe/Paris');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('zone')).toHaveTextContent('Europe/Paris');
    // The list closes and focus goes back to the button that opened it.
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Change time zone' })).toHaveFocus(),
    );
  });

  it('moves the active option with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    const box = screen.getByRole('combobox', { name: 'Time zone' });
    await user.type(box, 'america/n');
    const options = screen.getAllByRole('option');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('zone')).toHaveTextContent(
      options[1]?.textContent?.split('GMT')[0] ?? '',
    );
  });

  it('keeps the zone on Escape, and says when nothing matches', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    await user.type(screen.getByRole('combobox'), 'atlantis');
    expect(screen.getByText('No time zone matches.')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    await user.keyboard('{Enter}{Escape}');
    expect(screen.getByTestId('zone')).toHaveTextContent('America/New_York');
  });

  it('chooses with a click', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    await user.type(screen.getByRole('combobox'), 'tokyo');
    await user.click(screen.getByRole('option', { name: /Asia\/Tokyo/ }));
    expect(screen.getByTestId('zone')).toHaveTextContent('Asia/Tokyo');
  });
});
