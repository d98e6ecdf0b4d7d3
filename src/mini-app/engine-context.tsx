import { createContext, useContext, useSyncExternalStore } from 'react';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import type { EngineActions } from '../../engine/client/snapshot.ts';
import { $status } from '../engine-client/signals.ts';

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

const subscribeStatus = (onChange: () => void) => $status.subscribe(onChange);
const currentStatus = () => $status.peek();

/**
 * The player's status, from the engine: its one owner on the page (docs/architecture.md).
 * Pending until the first status answers or fails; `data` is absent while there is none.
 */
export const useStatus = (): { data: UserStatus | undefined; isPending: boolean } => {
  const { status, failed } = useSyncExternalStore(subscribeStatus, currentStatus);
  return { data: status ?? undefined, isPending: !status && !failed };
};
