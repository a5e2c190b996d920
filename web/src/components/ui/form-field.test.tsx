import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field';

describe('FormField', () => {
  it('labels its control and ties the hint and the error to it', () => {
    render(
      <FormField label="Password" hint="At least 8 characters." error="Password is required.">
        {(control) => <input type="password" {...control} />}
      </FormField>,
    );
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('At least 8 characters. Password is required.');
    expect(screen.getByText('Password is required.')).toHaveClass('text-sm', 'text-term-red');
  });

  it('leaves the control valid and undescribed without hint or error', () => {
    render(<FormField label="Name">{(control) => <input {...control} />}</FormField>);
    const input = screen.getByLabelText('Name');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('describes with the hint alone while there is no error', () => {
    render(
      <FormField label="Duration" hint="e.g. '2 hours'" size="sm">
        {(control) => <input {...control} />}
      </FormField>,
    );
    const input = screen.getByLabelText('Duration');
    expect(input).toHaveAccessibleDescription("e.g. '2 hours'");
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText('Duration')).toHaveClass('text-xs', 'text-muted');
  });

  it('works for any control: a select keeps its label and its error', () => {
    render(
      <FormField label="Status" error="Status must be one of the listed ones." size="sm">
        {(control) => (
          <select {...control}>
            <option>scheduled</option>
          </select>
        )}
      </FormField>,
    );
    const select = screen.getByRole('combobox', { name: 'Status' });
    expect(select).toHaveAccessibleDescription('Status must be one of the listed ones.');
    expect(screen.getByText('Status must be one of the listed ones.')).toHaveClass('text-xs');
  });

  it('renders the same ids on the server, so the label points at the control before hydration', () => {
    const html = renderToString(
      <FormField label="Email">{(control) => <input {...control} />}</FormField>,
    );
    const forId = /for="([^"]+)"/.exec(html)?.[1];
    expect(forId).toBeTruthy();
    expect(html).toContain(`id="${forId}"`);
  });
});
