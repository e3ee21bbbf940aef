import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole, type Language } from './harness';

/**
 * Signing in to the console, as a person does: the screen at phone and desktop size in both
 * languages passes axe; a wrong password says so in the person's language and keeps the e-mail;
 * the right one lands on To do.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();

const WORDS: Record<Language, { title: string; failed: string; todo: string }> = {
  en: { title: 'Sign in', failed: 'The e-mail address or password is not right.', todo: 'To do' },
  ms: { title: 'Log masuk', failed: 'Alamat e-mel atau kata laluan tidak betul.', todo: 'Tugasan' },
};

describe.skipIf(!HAS_CHROMIUM)('signing in to the console', () => {
  for (const language of ['en', 'ms'] as const) {
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      it(`the sign-in screen in ${language} at ${size} size passes axe, with <html lang="${language}">`, async () => {
        const page = await app.newPage({ ...viewport, language });
        await page.goto(`${app.url}/sign-in`);
        await expect.poll(() => page.locator('h1').textContent()).toBe(WORDS[language].title);
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        await app.axe(page);
        await app.screenshot(page, `sign-in-${size}-${language}`);
        expect(app.pageErrors(page)).toEqual([]);
      });
    }
  }

  it('a wrong password is refused with a message; the e-mail stays; axe passes with the message shown', async () => {
    const page = await app.newPage({ ...PHONE, language: 'ms' });
    const employee = app.member('employee');
    await page.goto(`${app.url}/sign-in`);
    await page.locator('input[name="email"]').fill(employee.email);
    await page.locator('input[name="password"]').fill(`${employee.password}-wrong`);
    await page.locator('form button[type="submit"]').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(WORDS.ms.failed);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.locator('input[name="email"]').inputValue()).toBe(employee.email);
    await app.axe(page);
  });

  it('the right password lands on To do, with the person and organization in the top bar; the token is not readable by the page', async () => {
    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'employee');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.locator('h1').textContent()).toBe(WORDS.en.todo);
    const header = await page.locator('header').innerText();
    expect(header).toContain(app.member('employee').name);
    expect(header).toContain(app.demo.name);
    expect(await page.evaluate('document.cookie')).not.toContain('fs_');
    await app.axe(page);
    await app.screenshot(page, 'todo-phone-en');
  });

  it('a signed-out visit to a screen goes to sign-in, then back to that screen', async () => {
    const page = await app.newPage({ ...DESKTOP, language: 'en' });
    await page.goto(`${app.url}/me`);
    await page.waitForURL((u) => u.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/me');
    const employee = app.member('employee');
    await page.locator('input[name="email"]').fill(employee.email);
    await page.locator('input[name="password"]').fill(employee.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === '/me');
  });
});
