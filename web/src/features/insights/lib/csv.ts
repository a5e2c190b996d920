/**
 * CSV as RFC 4180 writes it (CRLF line ends, quotes doubled), safe to open in a spreadsheet: a
 * cell starting with =, +, -, @, tab or carriage return is quoted text with a leading apostrophe,
 * so it is never run as a formula. Numbers are written as they are.
 */
export type Cell = string | number;

function cell(value: Cell): string {
  if (typeof value === 'number') return String(value);
  const formula = /^[=+\-@\t\r]/.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Offers the CSV as a file download (UTF-8 with a byte order mark, which spreadsheets need). */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
