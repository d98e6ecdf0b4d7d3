import { createContext, useContext } from 'react';
import type { GameActions } from '../../engine/snapshot.ts';

/**
 * The engine's actions (tap, upgrade, claim, refresh), provided once by app.tsx from the bridge.
 * The game state itself is read from the signals in src/game/signals.ts, never from here.
 */
export const GameContext = createContext<GameActions | null>(null);

export const useGame = (): GameActions => {
  const game = useContext(GameContext);
  if (!game) throw new Error('useGame outside <GameContext.Provider>');
  return game;
};
