import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { money } from '../../../engine/rules/money.ts';
import { $offlineReward } from '../../engine-client/signals.ts';
import { addToHomeScreen, clientStore, homeScreenStatus, supports } from '../../telegram.ts';
import { art } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';

/** The player's answer to the offer ("yes" or "no"): once given, never asked again. */
export const homeScreenAnswerKey = 'money_home_screen_answer';
/** The last UTC days the player opened MONEY on, as a JSON list (the offer needs three). */
export const daysPlayedKey = 'money_days_played';
/** The offer comes on the second day a player comes back: a third UTC day with a visit. */
const daysBeforeOffer = 3;

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const readDays = (kept: string | null): string[] => {
  try {
    const days: unknown = JSON.parse(kept ?? '[]');
    return Array.isArray(days) ? days.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * Records today as a day played and says whether to offer the home-screen shortcut: on the
 * player's third day, on a client that has it (8.0), never after an answer, and only when the
 * client says MONEY is not there yet ("missed", or "unknown" when it cannot tell).
 */
export const shouldOfferHomeScreen = async (now: number = Date.now()): Promise<boolean> => {
  const today = utcDay(now);
  const days = readDays(await clientStore.get(daysPlayedKey));
  if (!days.includes(today)) {
    days.push(today);
    await clientStore.set(daysPlayedKey, JSON.stringify(days.slice(-daysBeforeOffer)));
  }
  if (days.length < daysBeforeOffer || !supports('homeScreen')) return false;
  if (await clientStore.get(homeScreenAnswerKey)) return false;
  const status = await homeScreenStatus();
  if (status === 'added') await clientStore.set(homeScreenAnswerKey, 'yes');
  return status === 'missed' || status === 'unknown';
};

/** §2 home: offers once to add MONEY to the home screen (docs/mini-app.md "Home-screen shortcut"). */
export const HomeScreenOffer = () => {
  const { _ } = useLingui();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    shouldOfferHomeScreen()
      // The Money Dream popup has the screen this time: the offer waits for another visit.
      .then((offer) => live && offer && !money($offlineReward.peek()).gt(0) && setOpen(true))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!open) return null;
  const answer = (yes: boolean) => {
    setOpen(false);
    void clientStore.set(homeScreenAnswerKey, yes ? 'yes' : 'no');
    if (yes) addToHomeScreen();
  };
  return (
    <Popup title={_('app.homeScreen.title')} onClose={() => answer(false)}>
      <img className="popup__art" src={art('coin')} alt="" />
      <p>{_('app.homeScreen.text')}</p>
      <div className="popup__actions">
        <button className="btn btn--ghost" onClick={() => answer(false)}>{_('app.homeScreen.no')}</button>
        <button className="btn" onClick={() => answer(true)}>{_('app.homeScreen.add')}</button>
      </div>
    </Popup>
  );
};
