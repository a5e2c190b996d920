import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';
import { whenHydrated } from './hydration';

/**
 * Moving data in and out, and the questions the site cannot answer, against the real server: an
 * admin downloads the members CSV, previews an import (a change and a refused row) and applies
 * it; a weak question asked in the console appears among the knowledge gaps and starts a document
 * titled with it. At 375 and 1440 px, with axe on the new parts. Screenshots land in
 * test-results/data/.
 */

const ADMIN_EMAIL = 'data-admin@example.test';
const SHOTS = 'test-results/data';
const shots = screenshots(SHOTS);

test('an admin downloads the members CSV, previews an import and applies it', async ({
  browser,
}) => {
  test.setTimeout(90_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Dana Data' });
  const page = admin.page;
  await page.setViewportSize({ width: 1440, height: 900 });
  if (!admin.confirmedNow) await page.goto('/members');
  await page.getByRole('tab', { name: /Admin/ }).click();
  const section = page.getByRole('region', { name: 'Data in and out' });
  await expect(section).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: 'Members CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = readFileSync(await download.path(), 'utf8');
  expect(file.startsWith('full_name,email,status,has_access,complimentary,')).toBe(true);
  expect(file).toContain(`${ADMIN_EMAIL},`);
  expect(
    file
      .split('\n')
      .slice(0, -1)
      .every((line) => line.endsWith('\r')),
  ).toBe(true);

  const email = `e2e-import-${Date.now()}@example.test`;
  const csv = `full_name,email,complimentary_until\r\nIma Import,${email},2099-12-31\r\nNo Address,not-an-address,\r\n`;
  await section.getByLabel('CSV file').setInputFiles({
    name: 'members.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const apply = section.getByRole('button', { name: 'Apply import' });
  await expect(apply).toBeDisabled();
  await section.getByRole('button', { name: 'Preview changes' }).click();
  const preview = section.getByRole('table', { name: 'Changes the import would make' });
  await expect(preview).toContainText(email);
  await expect(preview).toContainText('Complimentary membership until 2099-12-31.');
  const refused = section.getByRole('table', { name: /Refused rows/ });
  await expect(refused).toContainText('not-an-address');
  await expect(section).toContainText('Nothing has been written yet');
  await shots.part(page, section, 'import-preview');
  expect(await axeAtBothWidths(page, 'section[aria-labelledby="data-heading"]')).toEqual([]);

  await page.setViewportSize({ width: 1440, height: 900 });
  await apply.click();
  await expect(section.getByRole('table', { name: 'Changes made' })).toContainText(email);
  // The member list shows the imported member, complimentary.
  const members = await admin.context.request.get('/api/admin/members');
  const list = (await members.json()) as {
    members: { email: string; complimentary: boolean; until: string | null }[];
  };
  const imported = list.members.find((m) => m.email === email);
  expect(imported?.complimentary).toBe(true);
  expect(imported?.until).toBe('2099-12-31');
  await admin.context.close();
});

test('a weak console question becomes a knowledge gap that starts a document', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  // A suffix of letters and digits: a long run of digits would be stored as a phone number ([phone]).
  const question = `ask do you run workshops on quantum basket weaving ${Date.now().toString(36)}`;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  const input = page
    .locator('[data-slot="console"]')
    .getByRole('textbox', { name: 'Console command' });
  await whenHydrated(input);
  await input.fill(question);
  await input.press('Enter');
  await expect(input).toBeEnabled({ timeout: 20_000 });
  await expect(input).toHaveAttribute('placeholder', 'Type command...');

  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Dana Data' });
  const a = admin.page;
  await a.setViewportSize({ width: 1440, height: 900 });
  await a.goto('/members');
  await a.getByRole('tab', { name: /Admin/ }).click();
  const asked = question.slice('ask '.length);
  const gaps = a.getByRole('list', { name: 'Knowledge gaps' });
  const gap = gaps.getByRole('listitem').filter({ hasText: asked });
  await expect(gap).toBeVisible();
  await expect(gap).toContainText('asked once');
  const region = a.getByRole('region', { name: 'Knowledge gaps' });
  await shots.part(a, region, 'knowledge-gaps');
  expect(await axeAtBothWidths(a, 'section[aria-labelledby="kb-gaps-heading"]')).toEqual([]);

  await a.setViewportSize({ width: 1440, height: 900 });
  await gap.getByRole('button', { name: /Write a document/ }).click();
  const dialog = a.getByRole('dialog', { name: 'Add document' });
  await expect(dialog.getByLabel(/Title/)).toHaveValue(asked);
  await shots.part(a, dialog, 'gap-document');
  await admin.context.close();
});
