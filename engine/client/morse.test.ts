import { describe, expect, it } from 'vitest';
import { economy } from '../rules/economy.ts';
import { letterOf, morseCode, MorseKeyer, toMorse, type MorseEvent, type MorseState } from './morse.ts';
import { ManualTime } from './testing/manual-time.ts';

const keyer = () => {
  const time = new ManualTime();
  const states: MorseState[] = [];
  const events: MorseEvent[] = [];
  const k = new MorseKeyer({ clock: time, scheduler: time, onChange: (s) => states.push(s), onEvent: (e) => events.push(e) });
  const hold = async (ms: number) => {
    k.press();
    await time.advance(ms);
    k.release();
  };
  return { k, time, states, events, hold };
};

describe('Morse code', () => {
  it('spells every letter A–Z with a distinct code', () => {
    expect(Object.keys(morseCode)).toHaveLength(26);
    for (const [letter, code] of Object.entries(morseCode)) expect(letterOf(code)).toBe(letter);
    expect(letterOf('.-.-.-')).toBeNull();
    expect(toMorse('sos')).toBe('... --- ...');
  });
});

describe('MorseKeyer', () => {
  it('reads a short press as a dot, a long one as a dash, and a pause as the end of the letter', async () => {
    const { k, time, events, hold } = keyer();
    await hold(economy.morseDashMinMs - 1);
    await time.advance(100);
    await hold(economy.morseDashMinMs);
    expect(k.current).toEqual({ word: '', code: '.-', pressing: false });
    await time.advance(economy.morseLetterGapMs - 1);
    expect(k.current.word).toBe('');
    await time.advance(1);
    expect(k.current).toEqual({ word: 'A', code: '', pressing: false });
    expect(events).toEqual(['dot', 'dash', 'letter']);
  });

  it('keeps the letter open while presses come within the pause', async () => {
    const { k, time, hold } = keyer();
    for (let i = 0; i < 3; i++) {
      await hold(80);
      await time.advance(economy.morseLetterGapMs - 100);
    }
    expect(k.current.code).toBe('...');
    await time.advance(economy.morseLetterGapMs);
    expect(k.current.word).toBe('S');
  });

  it('drops a code that spells no letter, and erases the open code before the last letter', async () => {
    const { k, events } = keyer();
    for (const s of '.-.-.') {
      if (s === '.') k.dot();
      else k.dash();
    }
    expect(k.current).toMatchObject({ word: '', code: '' });
    expect(events.at(-1)).toBe('unknown');
    k.dash();
    k.endLetter();
    k.dot();
    expect(k.current).toMatchObject({ word: 'T', code: '.' });
    k.erase();
    expect(k.current).toMatchObject({ word: 'T', code: '' });
    k.erase();
    expect(k.current.word).toBe('');
  });

  it('stops at the longest word a cipher can be', () => {
    const { k } = keyer();
    for (let i = 0; i < economy.dailyCipherMaxLetters + 3; i++) {
      k.dot();
      k.endLetter();
    }
    expect(k.current.word).toBe('E'.repeat(economy.dailyCipherMaxLetters));
  });
});
