import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

/** A dialog opened from a plain button, as the Tribe Level dialog and the attendance sheet are. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Tribe Level
      </button>
      <Modal open={open} onOpenChange={setOpen} windowTitle="~ $ levels" title="Your Tribe Level">
        <button type="button" onClick={() => setOpen(false)}>
          Done
        </button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('focus is returned to the opener when the dialog closes', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Tribe Level' });
    await user.click(opener);
    expect(await screen.findByRole('dialog', { name: 'Your Tribe Level' })).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();

    // Closed from inside, by its own button, too.
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    expect(opener).toHaveFocus();
  });
});
