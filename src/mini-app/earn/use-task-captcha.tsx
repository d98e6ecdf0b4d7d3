import { Suspense, useCallback, useRef, useState } from 'react';
import { demoPaths, type Task } from '../../../engine/wire/api-types.ts';
import { config } from '../../config.ts';
import { retryingLazy } from '../../route-retry.tsx';
import { isDemo } from '../demo.ts';
import { messages, notify } from '../messages.ts';
import { loadScript } from '../ui/load-script.ts';

// In the demo, the stand-in widget script defines window.turnstile first, so Cloudflare's is never
// loaded; it carries the id react-turnstile looks for to know its script is there.
const Captcha = retryingLazy(async () => {
  if (isDemo('turnstile')) await loadScript(demoPaths.turnstileScript, 'cf-turnstile-script');
  return { default: (await import('./captcha.tsx')).Captcha };
});

export interface CaptchaPayload {
  captchaToken?: string;
}

/**
 * The captcha a task needs (§5 "Tasks needing a captcha require a token first"): its token, the
 * widget to show, and `spend()` after a claim attempt (a token is good once, so the widget is
 * drawn afresh). A claim pressed before the captcha is solved says so (§5) and is made by itself
 * with the token once the player solves it: `claim` is called then, with the token's payload.
 */
export const useTaskCaptcha = (task: Task, claim: (payload: CaptchaPayload) => void) => {
  const [token, setToken] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const waiting = useRef(false);
  const claimRef = useRef(claim);
  claimRef.current = claim;
  const onToken = useCallback((next: string | null) => {
    setToken(next);
    if (next === null || !waiting.current) return;
    waiting.current = false;
    claimRef.current({ captchaToken: next });
  }, []);
  const needed = task.needsCaptcha;
  return {
    needed,
    token,
    /** What a claim sends: the token when the task needs one. */
    payload: (needed && token !== null ? { captchaToken: token } : {}) as CaptchaPayload,
    /** The claim was pressed without a token: asks for the captcha, and claims once it is solved. */
    claimWhenSolved: () => {
      waiting.current = true;
      notify(messages.verifyCaptcha, 'error');
    },
    spend: () => {
      setToken(null);
      setRound((r) => r + 1);
    },
    // Without a site key there is no widget to show; the claim then asks for the captcha (§5).
    widget: (visible: boolean) =>
      needed && visible && config.turnstileSiteKey !== '' ? (
        <Suspense fallback={null}>
          <Captcha key={round} onToken={onToken} />
        </Suspense>
      ) : null,
  };
};
