import { useEffect, useState } from 'react';
import { economy } from '../../../engine/rules/economy.ts';

/** §9: onboarding progress rises 1% every 30 ms up to 100, while `running`. */
export const useProgress = (running: boolean): number => {
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      setPercent((p) => {
        const next = Math.min(100, p + economy.onboardingProgressStepPercent);
        if (next >= 100) clearInterval(timer);
        return next;
      });
    }, economy.onboardingProgressStepMs);
    return () => clearInterval(timer);
  }, [running]);
  return percent;
};
