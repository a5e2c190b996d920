import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Month } from './calendar';
import { MonthCalendar } from './MonthCalendar';

function Harness({
  available,
  onSelect = () => {},
  start = { year: 2026, month: 3 },
}: {
  available: Record<string, number>;
  onSelect?: (date: string) => void;
  start?: Month;
}) {
  const [month, setMonth] = useState<Month>(start);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <MonthCalendar
      month={month}
      onMonthChange={setMonth}
      minMonth={{ year: 2026, month: 3 }}
      maxMonth={{ year: 2026, month: 5 }}
      available={new Map(Object.entries(available))}
      selected={selected}
      onSelect={(d) => {
        setSelected(d);
        onSelect(d);
      }}
      today="2026-03-02"
    />
  );
}

const day = (label: RegExp) => screen.getByRole('button', { name: label });

describe('MonthCalendar', () => {
  it('is a grid of the month with weekday headers, free days marked and the others unavailable', () => {
    render(<Harness available={{ '2026-03-09': 3, '2026-03-10': 1 }} />);
    const grid = screen.getByRole('grid', { name: 'March 2026' });
    expect(grid.querySelectorAll('th')).toHaveLength(7);
    expect(screen.getAllByRole('gridcell')).toHaveLength(31);
    expect(day(/^Monday, March 9, 2026, 3 times available$/)).not.toHaveAttribute('aria-disabled');
    expect(day(/^Tuesday, March 10, 2026, 1 time available$/)).toBeInTheDocument();
    expect(day(/^Wednesday, March 11, 2026, no free times$/)).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(day(/^Monday, March 2, 2026, today/)).toBeInTheDocument();
  });

  it('lets only one day take Tab: the first free one', async () => {
    render(<Harness available={{ '2026-03-09': 3 }} />);
    const tabbable = screen
      .getAllByRole('button')
      .filter((b) => b.dataset.date && b.tabIndex === 0);
    expect(tabbable.map((b) => b.dataset.date)).toEqual(['2026-03-09']);
  });

  it('moves by day and week with the arrows, to the week ends with Home and End', async () => {
    const user = userEvent.setup();
    render(<Harness available={{ '2026-03-09': 3 }} />);
    // Previous month is disabled in the first month: Next month, then the grid's one day.
    await user.tab();
    expect(document.activeElement).toHaveAccessibleName('Next month');
    await user.tab();
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-09');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-10');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-17');
    await user.keyboard('{ArrowLeft}{ArrowUp}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-09');
    await user.keyboard('{Home}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-08');
    await user.keyboard('{End}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-03-14');
    // Only the focused day is in the Tab order.
    expect(
      screen.getAllByRole('button').filter((b) => b.tabIndex === 0 && b.dataset.date),
    ).toHaveLength(1);
  });

  it('crosses into the next month with the arrows and Page Down, never past the last month', async () => {
    const user = userEvent.setup();
    render(<Harness available={{ '2026-03-30': 2 }} />);
    day(/March 30, 2026/).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('grid', { name: 'April 2026' })).toBeInTheDocument();
    expect(document.activeElement).toHaveAttribute('data-date', '2026-04-06');
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toHaveAttribute('data-date', '2026-05-06');
    await user.keyboard('{PageDown}');
    // May is the last month one may see: focus stays.
    expect(screen.getByRole('grid', { name: 'May 2026' })).toBeInTheDocument();
    expect(document.activeElement).toHaveAttribute('data-date', '2026-05-06');
    await user.keyboard('{PageUp}{PageUp}{PageUp}');
    expect(screen.getByRole('grid', { name: 'March 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();
  });

  it('chooses a free day with Enter or a click, and refuses a day without free times', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Harness available={{ '2026-03-09': 3 }} onSelect={onSelect} />);
    day(/March 9, 2026/).focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('2026-03-09');
    expect(day(/March 9, 2026/).closest('td')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}{Enter}');
    await user.click(day(/March 11, 2026/));
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('changes month with its buttons', async () => {
    const user = userEvent.setup();
    render(<Harness available={{}} />);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('grid', { name: 'April 2026' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
  });
});
