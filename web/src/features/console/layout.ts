/**
 * A row laid out in two columns (text, then two or more spaces, then more text, as in `help`),
 * split where its second column starts; null for any other row. The console shows the second
 * column beside the first where it fits and on its own indented line where it does not (a phone),
 * so a description never wraps back under the names.
 */
export function splitColumns(row: string): [string, string] | null {
  const first = /^(\s*\S.*?\s{2,})\S/.exec(row)?.[1];
  return first === undefined ? null : [first, row.slice(first.length)];
}
