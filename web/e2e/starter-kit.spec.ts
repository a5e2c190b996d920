import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

/** Reads the entry names from a ZIP's central directory (enough to prove it is a real archive). */
function zipEntryNames(zip: Buffer): string[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end-of-central-directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

test('Download ZIP Package saves a real archive of the starter kit', async ({ page }) => {
  await page.goto('/mcp');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download ZIP Package' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('client-side-mcp-tools.zip');
  const zip = await readFile(await download.path());
  expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const names = zipEntryNames(zip);
  expect(names).toEqual(
    expect.arrayContaining([
      'client-side-mcp-tools/README.md',
      'client-side-mcp-tools/src/mcpLocal.ts',
      'client-side-mcp-tools/resources/services.json',
      'client-side-mcp-tools/resources/search-index.json',
    ]),
  );
});
