/** A screen reader hears the balance at most this often while taps change it (a tap storm says it once). */
export const balanceAnnounceMs = 2_000;

/**
 * The balance for screen readers after taps: `poke()` after each tap writes `text()` into a
 * polite live region at most every `balanceAnnounceMs`, the last value winning. Passive income
 * says nothing (it would speak every second). It writes the DOM itself, so a tap re-renders
 * nothing (docs/mini-app.md "Accessibility"). Returns poke and the cleanup.
 */
export const balanceAnnouncer = (region: HTMLElement, text: () => string) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastWrite = -Infinity;
  const write = () => {
    timer = undefined;
    lastWrite = Date.now();
    region.textContent = text();
  };
  return {
    poke: () => {
      timer ??= setTimeout(write, Math.max(0, lastWrite + balanceAnnounceMs - Date.now()));
    },
    stop: () => clearTimeout(timer),
  };
};
