import { describe, expect, it, vi } from 'vitest';
import { adminApiPrefix, type Page } from '../../../engine/wire/admin-types.ts';
import { PagedPanel, usePaged } from '../../../src/admin/paged-panel.tsx';
import { render, until } from '../site/render.tsx';
import { button, click, consoleTestHooks, json } from './harness.ts';

interface Row {
  id: string;
}

/** The player page's use of the panel: one keyset-paged list at `path`. */
const Rows = ({ path }: { path: string }) => {
  const list = usePaged<Row>(path);
  return <PagedPanel title="Rows" testId="rows" list={list} head={<tr><th>#</th></tr>} row={(r) => <tr key={r.id}><td>{r.id}</td></tr>} columns={1} empty="No rows." />;
};

const cells = (host: Element) => [...host.querySelectorAll('[data-testid="rows"] tbody td')].map((td) => td.textContent);

consoleTestHooks();

describe('the console’s paged panel', () => {
  it('pages back through the server’s cursor with Older, and returns to the first page with Newest', async () => {
    const pages: Record<string, Page<Row>> = {
      '/rows': { items: [{ id: '30' }, { id: '29' }], next: '29' },
      '/rows?before=29': { items: [{ id: '28' }, { id: '27' }], next: '27' },
      '/rows?before=27': { items: [{ id: '26' }], next: null },
    };
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = url.replace(adminApiPrefix, '');
        asked.push(path);
        return pages[path] ? json(200, pages[path]) : json(404, { error: 'Not Found', message: `no fake for ${path}` });
      }),
    );
    const host = await render(<Rows path="/rows" />);
    await until(() => expect(cells(host)).toEqual(['30', '29']));
    // On the first page there is nothing newer.
    expect(button(host, 'Newest').disabled).toBe(true);
    expect(button(host, 'Older').disabled).toBe(false);

    await click(button(host, 'Older'));
    await until(() => expect(cells(host)).toEqual(['28', '27']));
    expect(button(host, 'Newest').disabled).toBe(false);
    await click(button(host, 'Older'));
    await until(() => expect(cells(host)).toEqual(['26']));
    // The last page: no cursor, so no Older.
    expect(button(host, 'Older').disabled).toBe(true);

    await click(button(host, 'Newest'));
    await until(() => expect(cells(host)).toEqual(['30', '29']));
    expect(button(host, 'Newest').disabled).toBe(true);
    expect(asked).toEqual(['/rows', '/rows?before=29', '/rows?before=27', '/rows']);
  });

  it('shows its empty line across the table when there is nothing, with both pager buttons off', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { items: [], next: null })));
    const host = await render(<Rows path="/nothing" />);
    await until(() => expect(cells(host)).toEqual(['No rows.']));
    expect(host.querySelector('[data-testid="rows"] tbody td')!.getAttribute('colspan')).toBe('1');
    expect(button(host, 'Newest').disabled).toBe(true);
    expect(button(host, 'Older').disabled).toBe(true);
  });
});
