import { describe, expect, it } from 'vitest';
import { telegramPageText } from '../../server/dev/demo-stand-ins.ts';

/** The demo's stand-in Telegram page (docs/outside-services.md "Demo stand-ins"). */
describe('the demo Telegram page', () => {
  it('names the chat whose link was opened: the community page does not claim to be the channel', () => {
    expect(telegramPageText({ kind: 'join', channel: '@money_channel', chat: 'money_channel' })).toBe('You joined @money_channel.');
    const community = telegramPageText({ kind: 'join', channel: '@money_channel', chat: 'money_community' });
    expect(community).toMatch(/^You joined @money_community\. /);
    expect(community).toContain('counts as joining @money_channel');
  });

  it('counts boosts in words: 1 boost, 2 boosts', () => {
    expect(telegramPageText({ kind: 'boost', channel: '@money_channel', boosts: 1 })).toBe('You boosted @money_channel (1 boost).');
    expect(telegramPageText({ kind: 'boost', channel: '@money_channel', boosts: 2 })).toBe('You boosted @money_channel (2 boosts).');
  });
});
