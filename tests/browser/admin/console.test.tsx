import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, MemoryRouter } from 'react-router-dom';
import { csrfHeader, type AdminBroadcast, type AdminTask } from '../../../engine/wire/admin-types.ts';
import { setCsrfToken } from '../../../src/admin/api.ts';
import { AdminApp, consoleRoutes } from '../../../src/admin/app.tsx';
import BroadcastsPage from '../../../src/admin/pages/broadcasts-page.tsx';
import TasksPage from '../../../src/admin/pages/tasks-page.tsx';
import { TaskPreview } from '../../../src/admin/task-preview.tsx';
import { render, until } from '../site/render.tsx';
import { button, click, consoleTestHooks, fakeApi, json, type } from './harness.ts';

const task: AdminTask = { id: 21, type: 'EXCHANGE', handleType: 'CHECK_ONUS', title: 'Register on ONUS', titles: { fa: 'ثبت‌نام در ONUS' }, image: 'task-onus', desc: 'Sign up, then enter your ONUS ID.', link: 'https://onus.io/r', reward: '1000', isDaily: false, needsCaptcha: true, active: true, sortOrder: 1 };

consoleTestHooks();
afterEach(() => {
  vi.restoreAllMocks();
  history.replaceState(null, '', '/');
});

describe('task preview', () => {
  it('shows the task as the player sees it: title, formatted reward, the exchange ID field and the captcha', async () => {
    const host = await render(<TaskPreview task={task} />);
    const card = host.querySelector('[data-testid="task-preview"]')!;
    expect(card.textContent).toContain('Register on ONUS');
    expect(card.textContent).toContain('+1,000.00');
    expect(card.querySelector('input')!.getAttribute('placeholder')).toBe('Your ONUS ID');
    expect(card.textContent).toContain('Captcha');
    expect(host.textContent).toContain('Earn → Tasks · Partner');
  });

  it('says when a task resets daily and when it is hidden', async () => {
    const host = await render(<TaskPreview task={{ ...task, type: 'ADS', handleType: null, isDaily: true, needsCaptcha: false, active: false, link: '10' }} />);
    expect(host.textContent).toContain('resets daily at 00:00 UTC');
    expect(host.textContent).toContain('hidden (disabled)');
    expect(host.textContent).toContain('0 / 10');
  });
});

describe('tasks page', () => {
  it('shows the server’s field errors under their fields, and sends the CSRF token', async () => {
    setCsrfToken('csrf-123');
    const calls = fakeApi((m, p) => {
      if (m === 'GET' && p === '/tasks') return json(200, { items: [task] });
      if (m === 'POST' && p === '/tasks') return json(400, { error: 'Bad Request', message: 'title: must be 1–100 characters', field: 'title', fields: { title: 'must be 1–100 characters', 'titles.fa': 'must be at most 100 characters', reward: 'must be an amount' } });
      return undefined;
    });
    const host = await render(<MemoryRouter><TasksPage /></MemoryRouter>);
    await until(() => expect(host.textContent).toContain('Register on ONUS'));
    await click(button(host, 'New task'));
    await click(button(host, 'Create'));
    await until(() => expect(host.querySelectorAll('.field__error')).toHaveLength(3));
    const bad = [...host.querySelectorAll('.field--bad .field__label')].map((l) => l.textContent);
    expect(bad).toEqual(['Title (English)', 'فارسی', 'Reward (MONEY)']);
    const post = calls.find((c) => c.method === 'POST')!;
    expect((post.init.headers as Record<string, string>)[csrfHeader]).toBe('csrf-123');
  });

  it('saves an edit with the form’s fields only: the id is in the path, and the server refuses unknown fields', async () => {
    const calls = fakeApi((m, p) => {
      if (m === 'GET' && p === '/tasks') return json(200, { items: [task] });
      if (m === 'PUT' && p === `/tasks/${task.id}`) return json(200, task);
      return undefined;
    });
    const host = await render(<MemoryRouter><TasksPage /></MemoryRouter>);
    await until(() => expect(host.textContent).toContain('Register on ONUS'));
    await click(button(host, 'Edit'));
    // Each language's title has its own field; the Persian one holds the saved title.
    const spanish = [...host.querySelectorAll<HTMLLabelElement>('.titles label')].find((l) => l.textContent?.startsWith('Español'))!.querySelector('input')!;
    expect([...host.querySelectorAll<HTMLInputElement>('.titles input')].map((i) => i.lang)).toEqual(['ru', 'uk', 'fa', 'id', 'vi', 'tr', 'es', 'pt-BR']);
    expect(host.querySelector<HTMLInputElement>('.titles input[lang="fa"]')!.value).toBe('ثبت‌نام در ONUS');
    await type(spanish, 'Regístrate en ONUS');
    await click(button(host, 'Save'));
    await until(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const { id: _id, sortOrder: _sortOrder, ...form } = task;
    expect(JSON.parse(String(calls.find((c) => c.method === 'PUT')!.init.body))).toEqual({ ...form, titles: { ...form.titles, es: 'Regístrate en ONUS' } });
  });
});

describe('broadcasts page', () => {
  it('shows live progress of a running broadcast and offers cancel', async () => {
    const running: AdminBroadcast = { id: 4, message: 'Hello', btns: [], segment: { kind: 'language', languageCode: 'es' }, total: 10, sent: 5, failed: 1, blocked: 2, uncertain: 0, cancelled: 0, pending: 2, createdAtMs: 0, finishedAtMs: null, cancelledAtMs: null };
    fakeApi((m, p) => (m === 'GET' && p === '/broadcasts' ? json(200, { items: [running] }) : undefined));
    const host = await render(<MemoryRouter><BroadcastsPage /></MemoryRouter>);
    await until(() => expect(host.querySelector('[data-testid="broadcast-4"]')).not.toBeNull());
    const item = host.querySelector('[data-testid="broadcast-4"]')!;
    expect(item.textContent).toContain('language es');
    expect(item.textContent).toContain('pending 2 of 10');
    expect((item.querySelector('.bar__sent') as HTMLElement).style.width).toBe('50%');
    expect((item.querySelector('.bar__blocked') as HTMLElement).style.width).toBe('20%');
    expect(button(item as HTMLElement, 'Cancel')).toBeDefined();
    // The compose preview follows the message as it is typed.
    await type(host.querySelector('textarea')!, 'Season 2!');
    expect(host.querySelector('[data-testid="broadcast-preview"]')!.textContent).toBe('Season 2!');
  });
});

describe('sign-in', () => {
  /** A console with no session yet, whose `login` path signs admin 7 in as `name`. */
  const signInApi = (login: string, name: string) =>
    fakeApi((m, p) => {
      if (p === '/session') return json(401, { error: 'Unauthorized', message: 'Sign in to the console' });
      if (m === 'POST' && p === login) return json(200, { adminId: 7, name, csrfToken: 't', expiresAtMs: 0 });
      if (p === '/dashboard') return json(200, { days: [], funnel: { invited: 0, reached100: 0, bonusPaid: 0 }, updatedAtMs: null });
      return undefined;
    });

  it('signs in with the init data the bot’s /admin button put in the hash, then shows the console', async () => {
    history.replaceState(null, '', '/admin#tgWebAppData=signed-init-data');
    const calls = signInApi('/login/init-data', '@op');
    const host = await render(<AdminApp create={() => createMemoryRouter(consoleRoutes)} />);
    await until(() => expect(host.textContent).toContain('Admin 7'));
    expect(JSON.parse(String(calls.find((c) => c.path === '/login/init-data')!.init.body))).toEqual({ initData: 'signed-init-data' });
    expect(window.location.hash).toBe('');
  });

  it('signs in with the Login Widget’s signed fields it is sent back with, then shows the dashboard', async () => {
    history.replaceState(null, '', '/admin/login?id=7&first_name=Op&auth_date=1700000000&hash=abc&extra=dropped');
    const calls = signInApi('/login/widget', 'Op');
    const host = await render(<AdminApp create={() => createMemoryRouter(consoleRoutes, { initialEntries: ['/login'] })} />);
    await until(() => expect(host.querySelector('h1')?.textContent).toBe('Dashboard'));
    expect(JSON.parse(String(calls.find((c) => c.path === '/login/widget')!.init.body))).toEqual({ id: '7', first_name: 'Op', auth_date: '1700000000', hash: 'abc' });
  });

  it('shows the sign-in page without a session', async () => {
    fakeApi((_m, p) => (p === '/session' ? json(401, { error: 'Unauthorized', message: 'Sign in' }) : undefined));
    const host = await render(<AdminApp create={() => createMemoryRouter(consoleRoutes)} />);
    await until(() => expect(host.textContent).toContain('Sign in with the Telegram account listed in ADMIN_IDS'));
  });
});
