import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { EngineActions } from '../../engine/client/snapshot.ts';
import type { ApiClient } from './api/client.ts';
import { ApiContext } from './api/queries.ts';
import { EngineContext } from './engine-context.tsx';
import { AppToaster } from './ui/toaster.tsx';

/** One QueryClient per app: errors surface as §8 messages where they happen, so no global retry storm. */
export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } });

interface ProvidersProps {
  api: ApiClient;
  engine: EngineActions;
  queryClient: QueryClient;
  children: ReactNode;
}

/** Everything a screen needs around it; the tests mount screens inside the same providers. */
export const Providers = ({ api, engine, queryClient, children }: ProvidersProps) => (
  <ApiContext.Provider value={api}>
    <EngineContext.Provider value={engine}>
      <QueryClientProvider client={queryClient}>
        {children}
        <AppToaster />
      </QueryClientProvider>
    </EngineContext.Provider>
  </ApiContext.Provider>
);
