import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, EditConfirmDialog, EditForm, useEditConfirm } from './edit-confirm-dialog';

interface Item {
  id: string;
  name: string;
}

const ITEMS: Item[] = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
];

/** A name field on the shared form; an empty name is refused before anything is sent. */
function NameForm({
  item,
  onCancel,
  onSend,
}: {
  item: Item | null;
  onCancel: () => void;
  onSend: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(item?.name ?? '');
  const [error, setError] = useState('');
  return (
    <EditForm
      onCancel={onCancel}
      submitLabel={item ? 'Save item' : 'Add item'}
      onSubmit={() => {
        if (name.trim() === '') {
          setError('Name is required');
          return;
        }
        // As the admin forms do, a refusal is shown in the form, which stays open.
        return onSend(name).catch((e: Error) => setError(e.message));
      }}
    >
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {error ? <p>{error}</p> : null}
    </EditForm>
  );
}

/** A list with Add, Edit and Delete buttons over the shared dialog, as the admin lists use it. */
function ItemList({
  onSend,
  onConfirm,
}: {
  onSend: (item: Item | null, name: string) => Promise<void>;
  onConfirm: (item: Item) => Promise<void>;
}) {
  const dialog = useEditConfirm<Item>();
  return (
    <>
      <button type="button" onClick={dialog.add}>
        Add
      </button>
      {ITEMS.map((item) => (
        <div key={item.id}>
          <button type="button" onClick={() => dialog.edit(item)}>
            Edit {item.name}
          </button>
          <button type="button" onClick={() => dialog.askDelete(item)}>
            Delete {item.name}
          </button>
        </div>
      ))}
      <EditConfirmDialog
        control={dialog}
        edit={(item, save) => ({
          windowTitle: item ? '~ $ item --edit' : '~ $ item --new',
          title: item ? `Edit ${item.name}` : 'New item',
          description: 'Names are public.',
          form: <NameForm item={item} onCancel={dialog.close} onSend={save} />,
        })}
        onSave={onSend}
        confirm={(item) => ({
          title: `Delete ${item.name}?`,
          description: 'This cannot be undone.',
          confirmLabel: 'Delete item',
        })}
        onConfirm={onConfirm}
      />
    </>
  );
}

function setup(props: Partial<Parameters<typeof ItemList>[0]> = {}) {
  const onSend = props.onSend ?? vi.fn(async () => {});
  const onConfirm = props.onConfirm ?? vi.fn(async () => {});
  const user = userEvent.setup();
  const view = render(<ItemList onSend={onSend} onConfirm={onConfirm} {...props} />);
  return { user, onSend, onConfirm, ...view };
}

/** A promise the test settles itself, to hold a submit in flight. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('EditConfirmDialog', () => {
  it('shows nothing until a dialog is opened', () => {
    setup();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('asks before deleting, names the item, and confirming deletes that item only', async () => {
    const { user, onConfirm } = setup();
    await user.click(screen.getByRole('button', { name: 'Delete Beta' }));
    const alert = screen.getByRole('alertdialog', { name: 'Delete Beta?' });
    expect(alert).toHaveAccessibleDescription('This cannot be undone.');
    expect(within(alert).getByText('~ $ confirm')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Delete item' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm).toHaveBeenCalledWith(ITEMS[1]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('cancelling the question deletes nothing, closes it and gives focus back to its button', async () => {
    const { user, onConfirm } = setup();
    const opener = screen.getByRole('button', { name: 'Delete Alpha' });
    await user.click(opener);
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('Escape closes the question without deleting, and focus returns to its button', async () => {
    const { user, onConfirm } = setup();
    const opener = screen.getByRole('button', { name: 'Delete Alpha' });
    await user.click(opener);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('a click outside the question does not dismiss it', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Delete Alpha' }));
    const overlay = document.querySelector('[data-state="open"]:not([role])');
    expect(overlay).not.toBeNull();
    await user.click(overlay as Element);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('while a delete is under way its button says so and cannot be pressed again', async () => {
    const deleting = deferred();
    const onConfirm = vi.fn(() => deleting.promise);
    const { user } = setup({ onConfirm });
    await user.click(screen.getByRole('button', { name: 'Delete Alpha' }));
    const alert = screen.getByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Delete item' }));
    expect(within(alert).queryByRole('button', { name: 'Delete item' })).not.toBeInTheDocument();
    const busy = within(alert).getByRole('button', { name: 'Working…' });
    expect(busy).toBeDisabled();
    await user.click(busy);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    // The question stays until the delete is done.
    expect(within(alert).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    deleting.resolve();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('a refused delete leaves the question open, ready to try again', async () => {
    const onConfirm = vi
      .fn<(item: Item) => Promise<void>>()
      .mockRejectedValueOnce(new Error('refused'))
      .mockResolvedValueOnce(undefined);
    const { user } = setup({ onConfirm });
    await user.click(screen.getByRole('button', { name: 'Delete Alpha' }));
    const alert = screen.getByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Delete item' }));
    const again = await within(alert).findByRole('button', { name: 'Delete item' });
    expect(again).toBeEnabled();
    expect(screen.getByRole('alertdialog')).toBe(alert);
    await user.click(again);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('a delete that ends after its question was dismissed leaves a dialog opened since alone', async () => {
    const deleting = deferred();
    const { user } = setup({ onConfirm: () => deleting.promise });
    await user.click(screen.getByRole('button', { name: 'Delete Alpha' }));
    await user.click(screen.getByRole('button', { name: 'Delete item' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Delete Beta' }));
    const next = screen.getByRole('alertdialog', { name: 'Delete Beta?' });
    // Not busy: the delete under way is Alpha's.
    expect(within(next).getByRole('button', { name: 'Delete item' })).toBeEnabled();
    deleting.resolve();
    await deleting.promise;
    await waitFor(() =>
      expect(within(next).getByRole('button', { name: 'Delete item' })).toBeEnabled(),
    );
    expect(screen.getByRole('alertdialog', { name: 'Delete Beta?' })).toBeInTheDocument();
  });

  it('edit opens the form on that item; saving sends it once, shows Saving… until done, then closes', async () => {
    const sending = deferred();
    const onSend = vi.fn(() => sending.promise);
    const { user } = setup({ onSend });
    await user.click(screen.getByRole('button', { name: 'Edit Beta' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Beta' });
    expect(dialog).toHaveAccessibleDescription('Names are public.');
    expect(within(dialog).getByText('~ $ item --edit')).toBeInTheDocument();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Beta');
    await user.clear(name);
    await user.type(name, 'Gamma');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));

    const saving = within(dialog).getByRole('button', { name: 'Saving…' });
    expect(saving).toBeDisabled();
    // A second submit (Enter in the field) while the first is in flight sends nothing more.
    await user.type(name, '{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith(ITEMS[1], 'Gamma');

    sending.resolve();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a refused send leaves the form open with its error, ready to send again', async () => {
    const onSend = vi
      .fn<(item: Item | null, name: string) => Promise<void>>()
      .mockRejectedValueOnce(new Error('That name is taken'))
      .mockResolvedValueOnce(undefined);
    const { user } = setup({ onSend });
    await user.click(screen.getByRole('button', { name: 'Edit Alpha' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Alpha' });
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    expect(await within(dialog).findByText('That name is taken')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save item' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onSend).toHaveBeenCalledTimes(2);
  });

  it('a check that fails sends nothing and never shows the form as busy', async () => {
    const onSend = vi.fn(async () => {});
    const { user } = setup({ onSend });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'New item' });
    expect(within(dialog).getByText('~ $ item --new')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add item' })).toBeEnabled();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('Cancel and Escape close the form without sending; each opening starts from its item', async () => {
    const { user, onSend } = setup();
    const add = screen.getByRole('button', { name: 'Add' });
    await user.click(add);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Draft');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(add).toHaveFocus());

    await user.keyboard('{Enter}');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(add).toHaveFocus());

    const edit = screen.getByRole('button', { name: 'Edit Alpha' });
    await user.click(edit);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Alpha');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(edit).toHaveFocus());
    expect(onSend).not.toHaveBeenCalled();
  });
});

describe('ConfirmDialog', () => {
  it('a double click on the confirm button runs the action once', async () => {
    let finish = () => {};
    const onConfirm = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    render(
      <ConfirmDialog
        open
        onOpenChange={() => {}}
        title="Cancel this date?"
        description="Every seat is refunded."
        confirmLabel="Cancel date"
        onConfirm={onConfirm}
      />,
    );
    const button = await screen.findByRole('button', { name: 'Cancel date' });
    act(() => {
      button.click();
      button.click();
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Working…' })).toBeDisabled();
    await act(async () => finish());
    expect(screen.getByRole('button', { name: 'Cancel date' })).toBeEnabled();
  });
});
