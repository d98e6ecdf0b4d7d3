/**
 * Morse on the coin for the daily cipher (docs/rules.md §15.3): a short press is a dot, a long
 * press a dash, and a pause ends the letter. `MorseKeyer` turns presses into letters over the
 * injected clock and scheduler, so the mini-app and its tests share one keyer and tests step time.
 */
import { economy } from '../rules/economy.ts';
import type { Clock, Scheduler, TimerHandle } from './ports.ts';

/** International Morse code for the letters a cipher word may hold (A–Z). */
export const morseCode: Readonly<Record<string, string>> = {
  A: '.-', B: '-...', C: '-.-.', D: '-..', E: '.', F: '..-.', G: '--.', H: '....', I: '..', J: '.---',
  K: '-.-', L: '.-..', M: '--', N: '-.', O: '---', P: '.--.', Q: '--.-', R: '.-.', S: '...', T: '-',
  U: '..-', V: '...-', W: '.--', X: '-..-', Y: '-.--', Z: '--..',
};

const letterOfCode = new Map(Object.entries(morseCode).map(([letter, code]) => [code, letter]));

/** The letter a dot-dash code spells, or null when it spells none. */
export const letterOf = (code: string): string | null => letterOfCode.get(code) ?? null;

/** A word in Morse, letters apart by a space (the calendar's hint, tests). */
export const toMorse = (word: string): string => [...word.toUpperCase()].map((l) => morseCode[l] ?? '').join(' ');

/** A press of this many ms is a dot or a dash. */
export const symbolOf = (pressMs: number): '.' | '-' => (pressMs >= economy.morseDashMinMs ? '-' : '.');

export interface MorseState {
  /** The letters entered so far. */
  readonly word: string;
  /** The dots and dashes of the letter being entered. */
  readonly code: string;
  /** True while the coin is held down. */
  readonly pressing: boolean;
}

/** What happened, for haptics: a dot, a dash, a letter ended, or a code that spells no letter. */
export type MorseEvent = 'dot' | 'dash' | 'letter' | 'unknown';

export interface MorseKeyerOptions {
  clock: Clock;
  scheduler: Scheduler;
  onChange: (state: MorseState) => void;
  onEvent?: (event: MorseEvent) => void;
}

/** Turns presses into letters: press() / release() from the coin, or dot() / dash() from keys. */
export class MorseKeyer {
  private state: MorseState = { word: '', code: '', pressing: false };
  private pressedAt = 0;
  private gap: TimerHandle | null = null;

  constructor(private readonly opts: MorseKeyerOptions) {}

  get current(): MorseState {
    return this.state;
  }

  press(): void {
    if (this.state.pressing) return;
    this.cancelGap();
    this.pressedAt = this.opts.clock.now();
    this.set({ pressing: true });
  }

  release(): void {
    if (!this.state.pressing) return;
    this.set({ pressing: false });
    this.add(symbolOf(this.opts.clock.now() - this.pressedAt));
  }

  dot(): void {
    this.add('.');
  }

  dash(): void {
    this.add('-');
  }

  /** Ends the letter being entered now (the pause, or a key for it). */
  endLetter(): void {
    this.cancelGap();
    const code = this.state.code;
    if (code === '') return;
    const letter = letterOf(code);
    if (letter !== null && this.state.word.length < economy.dailyCipherMaxLetters) {
      this.set({ code: '', word: this.state.word + letter });
      this.opts.onEvent?.('letter');
    } else {
      this.set({ code: '' });
      this.opts.onEvent?.('unknown');
    }
  }

  /** Drops the letter being entered, or else the last letter. */
  erase(): void {
    this.cancelGap();
    if (this.state.code !== '') this.set({ code: '' });
    else this.set({ word: this.state.word.slice(0, -1) });
  }

  clear(): void {
    this.cancelGap();
    this.set({ word: '', code: '', pressing: false });
  }

  stop(): void {
    this.cancelGap();
  }

  private add(symbol: '.' | '-'): void {
    this.cancelGap();
    this.set({ code: this.state.code + symbol });
    this.opts.onEvent?.(symbol === '.' ? 'dot' : 'dash');
    // No letter is longer than four symbols: a fifth ends it at once as unknown.
    if (this.state.code.length > 4) return this.endLetter();
    this.gap = this.opts.scheduler.setTimeout(() => {
      this.gap = null;
      this.endLetter();
    }, economy.morseLetterGapMs);
  }

  private cancelGap(): void {
    if (this.gap !== null) this.opts.scheduler.clearTimeout(this.gap);
    this.gap = null;
  }

  private set(change: Partial<MorseState>): void {
    this.state = { ...this.state, ...change };
    this.opts.onChange(this.state);
  }
}
