import { useLingui } from '@lingui/react';
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { economy } from '../../../engine/rules/economy.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { MorseKeyer, type MorseEvent, type MorseState } from '../../../engine/client/morse.ts';
import type { Clock, Scheduler } from '../../../engine/client/ports.ts';
import { config } from '../../config.ts';
import { haptic, openTelegramLink } from '../../telegram.ts';
import { guessDailyCipher } from '../api/calls.ts';
import { ResponseError } from '../api/client.ts';
import { useApi } from '../api/queries.ts';
import { appLocale } from '../locale.ts';
import { messages, notify } from '../messages.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { useDaily } from './use-daily.ts';
import './daily.css';

/** The page's own time: the keyer's clock and its letter-gap timer. */
export const browserTime: Clock & Scheduler = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};

/** The keyer's time; a test provides a stepped one (engine/client/testing/manual-time.ts) instead of sleeping. */
export const MorseTime = createContext<Clock & Scheduler>(browserTime);

const hapticOf: Record<MorseEvent, () => void> = { dot: haptic.dot, dash: haptic.dash, letter: haptic.letter, unknown: haptic.error };

/** The code being entered, drawn as dots and dashes. */
const Symbols = ({ code }: { code: string }) => (
  <span className="cipher__code" aria-hidden="true">
    {[...code].map((s, i) => <span key={i} className={s === '.' ? 'cipher__dot' : 'cipher__dash'} />)}
  </span>
);

/**
 * Cipher mode on Home (docs/rules.md §15.3): the coin becomes a Morse key. A tap is a dot, a long
 * press a dash and a pause ends the letter, each with its haptic; keys work too (. - space,
 * Backspace, Enter). Presses here never reach Engine.tap: nothing is counted, sent as a click or
 * spent in energy. Send asks the server, which says right or wrong and pays once a day.
 */
export const CipherMode = ({ onExit }: { onExit: () => void }) => {
  const { _ } = useLingui();
  const time = useContext(MorseTime);
  const api = useApi();
  const daily = useDaily();
  const refresh = useRefreshAfterClaim();
  const [state, setState] = useState<MorseState>({ word: '', code: '', pressing: false });
  const [busy, setBusy] = useState(false);
  const keyer = useMemo(() => new MorseKeyer({ clock: time, scheduler: time, onChange: setState, onEvent: (e) => hapticOf[e]() }), [time]);
  const coinRef = useRef<HTMLButtonElement>(null);
  const solved = daily?.cipher.solved === true;
  const guessesLeft = daily?.cipher.guessesLeft ?? 0;

  const send = async () => {
    keyer.endLetter();
    const word = keyer.current.word;
    if (word === '' || busy) return;
    setBusy(true);
    try {
      const result = await guessDailyCipher(api, word);
      if (result.correct) {
        haptic.success();
        notify(_('app.daily.paid', { amount: result.claimed }), 'success');
      } else {
        haptic.error();
        const left = result.status.daily?.cipher.guessesLeft ?? 0;
        notify(_('app.daily.cipher.wrong', { count: left, left: formatCount(appLocale(), left) }), 'error');
        keyer.clear();
      }
      await refresh();
    } catch (err) {
      haptic.error();
      notify((err instanceof ResponseError ? err.refusal : null) ?? messages.somethingWrong, 'error');
    }
    setBusy(false);
  };
  const sendRef = useRef(send);
  sendRef.current = send;

  useEffect(() => {
    const coin = coinRef.current;
    if (!coin) return undefined;
    const down = (e: PointerEvent) => {
      e.preventDefault();
      coin.setPointerCapture?.(e.pointerId);
      keyer.press();
    };
    const up = () => keyer.release();
    coin.addEventListener('pointerdown', down);
    coin.addEventListener('pointerup', up);
    coin.addEventListener('pointercancel', up);
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      const act: Record<string, () => void> = {
        '.': () => keyer.dot(),
        '-': () => keyer.dash(),
        ' ': () => keyer.endLetter(),
        Backspace: () => keyer.erase(),
        Enter: () => void sendRef.current(),
        Escape: onExit,
      };
      const action = act[e.key];
      if (action) {
        e.preventDefault();
        action();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      keyer.stop();
      coin.removeEventListener('pointerdown', down);
      coin.removeEventListener('pointerup', up);
      coin.removeEventListener('pointercancel', up);
      window.removeEventListener('keydown', onKey);
    };
  }, [keyer, onExit, solved]);

  return (
    <section className="cipher" aria-label={_('app.daily.cipher')} data-testid="cipher-mode">
      <div className="cipher__panel">
        <div className="cipher__head">
          <img src={art('daily-cipher')} alt="" />
          <strong>{_('app.daily.cipher')}</strong>
          <span className="cipher__reward"><MoneyIcon /> <bdi>+{daily?.cipher.reward ?? economy.dailyCipherRewardMoney}</bdi></span>
          <button className="cipher__close" aria-label={_('app.daily.cipher.exit')} onClick={onExit}>×</button>
        </div>
        {solved ? (
          <p className="cipher__solved" data-testid="cipher-solved">✓ {_('app.daily.cipher.solved')}</p>
        ) : (
          <>
            <div className="cipher__word" data-testid="cipher-word" aria-live="polite" dir="ltr">
              {state.word === '' && state.code === '' ? <span className="hint">{_('app.daily.cipher.empty')}</span> : <span className="cipher__letters">{state.word}</span>}
              <Symbols code={state.code} />
            </div>
            <p className="hint cipher__hint">{_('app.daily.cipher.hint')}</p>
          </>
        )}
        <div className="cipher__meta">
          {!solved && <span className="hint" data-testid="cipher-left">{_('app.daily.cipher.left', { count: guessesLeft, left: formatCount(appLocale(), guessesLeft) })}</span>}
          <button className="cipher__link" onClick={() => openTelegramLink(config.channelUrl)}>{_('app.daily.cipher.where')}</button>
        </div>
      </div>
      <div className="home__arena cipher__arena">
        <div className="coin">
          <button
            ref={coinRef}
            className={state.pressing ? 'coin__button cipher__coin is-pressing' : 'coin__button cipher__coin'}
            aria-label={_('app.daily.cipher.key')}
            disabled={solved}
            onContextMenu={(e) => e.preventDefault()}
          >
            <img className="coin__img" src={art('coin')} alt="" draggable={false} />
          </button>
        </div>
      </div>
      {!solved && (
        <div className="cipher__actions">
          <button className="btn btn--ghost" onClick={() => keyer.erase()} disabled={busy || (state.word === '' && state.code === '')}>⌫ {_('app.daily.cipher.erase')}</button>
          <button className="btn" onClick={() => void send()} disabled={busy || guessesLeft === 0 || (state.word === '' && state.code === '')}>{_('app.daily.cipher.send')}</button>
        </div>
      )}
    </section>
  );
};
