import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportReport } from '@/lib/api-types/transfer';
import { createQueryClient } from '@/lib/query';
import { ToastRegion } from '@/lib/toast';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { DataTransfer } from './DataTransfer';

function report(dryRun: boolean): ImportReport {
  return {
    dry_run: dryRun,
    rows: 3,
    created: 1,
    updated: 0,
    unchanged: 1,
    changes: [
      {
        row: 2,
        email: 'ada@example.com',
        full_name: 'Ada Lovelace',
        action: 'create',
        details: ['Complimentary membership until 2099-01-31.'],
      },
    ],
    refused: [{ row: 4, email: 'not an address', reason: 'E-mail: Enter a valid e-mail address.' }],
  };
}

function renderPanel() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <DataTransfer />
      <ToastRegion />
    </QueryClientProvider>,
  );
}

const csv = () =>
  new File(['full_name,email\r\nAda Lovelace,ada@example.com\r\n'], 'members.csv', {
    type: 'text/csv',
  });

describe('DataTransfer', () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('offers every export as a download link', () => {
    mockApi();
    renderPanel();
    const list = screen.getByRole('list', { name: 'CSV downloads' });
    const hrefs = within(list)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      '/api/admin/export/members.csv',
      '/api/admin/export/ledger.csv',
      '/api/admin/export/bookings.csv',
      '/api/admin/export/attendance.csv',
      '/api/admin/export/waitlist.csv',
    ]);
    for (const a of within(list).getAllByRole('link')) expect(a).toHaveAttribute('download');
  });

  it('previews changes and refused rows first, and applies only after the preview', async () => {
    const api = mockApi({
      'POST /api/admin/import/members?dry_run=1': () => json(200, report(true)),
      'POST /api/admin/import/members': () => json(200, report(false)),
    });
    renderPanel();
    const apply = screen.getByRole('button', { name: 'Apply import' });
    expect(apply).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('CSV file'), csv());
    expect(apply).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));

    const changes = await screen.findByRole('table', { name: 'Changes the import would make' });
    expect(within(changes).getByText('ada@example.com')).toBeInTheDocument();
    expect(
      within(changes).getByText('Complimentary membership until 2099-01-31.'),
    ).toBeInTheDocument();
    const refused = screen.getByRole('table', { name: /Refused rows/ });
    expect(within(refused).getByText('E-mail: Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText(/Nothing has been written yet/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/admin/import/members?dry_run=1',
    ]);

    await userEvent.click(apply);
    expect(await screen.findByRole('table', { name: 'Changes made' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/admin/import/members?dry_run=1',
      '/api/admin/import/members',
    ]);
    expect(screen.getByRole('button', { name: 'Apply import' })).toBeDisabled();
  });

  it('shows why a whole file was refused, and keeps Apply off', async () => {
    mockApi({
      'POST /api/admin/import/members?dry_run=1': () =>
        apiError(
          400,
          'invalid',
          'The header row must name the columns full_name and email.',
          'file',
        ),
    });
    renderPanel();
    await userEvent.upload(screen.getByLabelText('CSV file'), csv());
    await userEvent.click(screen.getByRole('button', { name: 'Preview changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The header row must name the columns full_name and email.',
    );
    expect(screen.getByRole('button', { name: 'Apply import' })).toBeDisabled();
  });
});
