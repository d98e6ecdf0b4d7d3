import { describe, expect, it } from 'vitest';
import { inlineKeyboard, parseBroadcast } from './broadcast-payload.ts';

describe('broadcast payload', () => {
  it('turns btns into one inline button per row, url or web_app', () => {
    const p = parseBroadcast({
      message: 'News',
      btns: [
        { btnType: 'URL', btnText: 'Channel', btnLink: 'https://t.me/money' },
        { btnType: 'web_app', btnText: 'Play', btnLink: 'https://money.example/app' },
      ],
    });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(inlineKeyboard(p.broadcast.buttons)).toEqual({
      inline_keyboard: [[{ text: 'Channel', url: 'https://t.me/money' }], [{ text: 'Play', web_app: { url: 'https://money.example/app' } }]],
    });
  });

  it('has no keyboard without buttons', () => {
    const p = parseBroadcast({ message: 'Plain' });
    expect(p.ok && inlineKeyboard(p.broadcast.buttons)).toBeUndefined();
  });

  it('names the bad field', () => {
    expect(parseBroadcast(null)).toMatchObject({ ok: false, refusal: { code: 'broadcastMessageRequired', field: 'message' } });
    expect(parseBroadcast({ message: 'x', btns: Array.from({ length: 11 }, () => ({})) })).toMatchObject({ ok: false, refusal: { code: 'broadcastTooManyButtons', field: 'btns', message: 'at most 10 buttons' } });
    expect(parseBroadcast({ message: 'x', btns: [{ btnType: 'url', btnText: 'a'.repeat(65), btnLink: 'https://a.example' }] })).toMatchObject({ refusal: { code: 'broadcastButtonText', field: 'btns[0].btnText', message: 'btnText must be 1–64 characters' } });
    expect(parseBroadcast({ message: 'x', btns: [{ btnType: 'url', btnText: 'a', btnLink: 'ftp://a.example' }] })).toMatchObject({ refusal: { code: 'broadcastButtonLink', field: 'btns[0].btnLink' } });
  });
});
