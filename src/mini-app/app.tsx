import { createRoot } from 'react-dom/client';

/** Placeholder until the mini-app tree lands (issue 6). */
export const mount = (root: HTMLElement, _basename: string): void => {
  createRoot(root).render(<main>MONEY mini-app</main>);
};
