import { useEffect, useRef } from 'react';
import { useSignalEffect } from '@preact/signals-react';
import type { UserStatus } from '../../../engine/wire/api-types.ts';
import { isReferralStartParam } from '../../../engine/rules/refcodes.ts';
import { $message } from '../../engine-client/signals.ts';
import { bindBackButton, startParam } from '../../telegram.ts';
import { registerReferral } from '../api/calls.ts';
import { ResponseError } from '../api/client.ts';
import { useApi } from '../api/queries.ts';
import { notify } from '../messages.ts';
import { useRefreshAfterClaim } from '../use-claim.ts';

/** §2: the native BackButton on every route except /, going back one step. */
export const useTelegramBackButton = (visible: boolean, goBack: () => void): void => {
  const back = useRef(goBack);
  back.current = goBack;
  useEffect(() => bindBackButton(visible, () => back.current()), [visible]);
};

/** Shows the engine's messages (e.g. no energy) as §8 toasts, once per message id. */
export const useEngineMessages = (): void => {
  const lastId = useRef<number | null>(null);
  useSignalEffect(() => {
    const message = $message.value;
    if (!message || message.id === lastId.current) return;
    lastId.current = message.id;
    notify(message.text, 'error');
  });
};

/** The referral code waiting for the server's answer, kept across launches until it answers. */
const referralPendingKey = 'referral_pending';
/** The code the server answered (accepted or refused): never sent again. */
const referralAnsweredKey = 'referral_answered';
/** Waits between tries: doubling from 1 s up to 30 s, for as long as the app is open. */
const referralRetryMs = (attempt: number): number => Math.min(30_000, 1_000 * 2 ** attempt);

/** An answer that settles the referral: any 2xx, or a refusal other than "try later" (408, 429, 5xx). */
const settled = (error: unknown): boolean =>
  error instanceof ResponseError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/**
 * §2/§5: a 6-character start parameter that differs from the user's own refcode registers a
 * referral. The code is kept (web storage) and tried again, with a growing wait, until the server
 * answers — a network failure, a 503 or a 5xx is not an answer — so a friend's invite is never
 * lost to a busy moment; once answered it is never sent again (the server refuses a second
 * referral anyway).
 */
export const useStartParamReferral = (status: UserStatus | undefined, param: string | null = startParam()): void => {
  const api = useApi();
  const refreshAfterClaim = useRefreshAfterClaim();
  const latest = useRef({ api, refreshAfterClaim });
  latest.current = { api, refreshAfterClaim };
  const running = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // Once per code: a new status (each tap) starts no second loop; the loop reads the latest api.
  const loaded = status !== undefined;
  const own = status?.refcode;
  useEffect(() => {
    if (!loaded || running.current) return;
    if (isReferralStartParam(param, own) && localStorage.getItem(referralAnsweredKey) !== param) localStorage.setItem(referralPendingKey, param!);
    const code = localStorage.getItem(referralPendingKey);
    if (code === null || !isReferralStartParam(code, own) || localStorage.getItem(referralAnsweredKey) === code) {
      localStorage.removeItem(referralPendingKey);
      return;
    }
    running.current = true;
    const answered = () => {
      localStorage.setItem(referralAnsweredKey, code);
      localStorage.removeItem(referralPendingKey);
      running.current = false;
    };
    const attempt = (n: number): void => {
      registerReferral(latest.current.api, code).then(
        () => {
          answered();
          Promise.resolve(latest.current.refreshAfterClaim()).catch((error: unknown) => console.warn('referral refresh', error));
        },
        (error: unknown) => {
          if (settled(error)) return answered();
          console.warn('referral', error);
          setTimeout(() => {
            // Unmounted: the code stays pending for the next launch.
            if (mounted.current) attempt(n + 1);
            else running.current = false;
          }, referralRetryMs(n));
        },
      );
    };
    attempt(0);
  }, [loaded, own, param]);
};
