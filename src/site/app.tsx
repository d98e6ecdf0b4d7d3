import { createRoot } from 'react-dom/client';

/** Placeholder until the public site lands (issue 7). */
export const mount = (root: HTMLElement, _basename: string): void => {
  createRoot(root).render(<main>MONEY — Telegram Native Social Money</main>);
};
