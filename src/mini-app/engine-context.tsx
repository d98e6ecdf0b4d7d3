import { createContext, useContext } from 'react';
import type { EngineActions } from '../../engine/snapshot.ts';

/**
 * The engine's actions (tap, upgrade, claim, refresh), provided once by app.tsx from the bridge.
 * The game state itself is read from the signals in src/engine-client/signals.ts, never from here.
 */
export const EngineContext = createContext<EngineActions | null>(null);

export const useEngine = (): EngineActions => {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useEngine outside <EngineContext.Provider>');
  return engine;
};
