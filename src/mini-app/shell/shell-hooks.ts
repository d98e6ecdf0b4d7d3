import { useEffect, useRef } from 'react';
import { useSignalEffect } from '@preact/signals-react';
import type { UserStatus } from '../../../engine/api-types.ts';
import { isReferralStartParam } from '../../../engine/refcodes.ts';
import { $message } from '../../engine-client/signals.ts';
import { bindBackButton, startParam } from '../../telegram.ts';
import { registerReferral } from '../api/calls.ts';
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

const referralSentKey = 'referral_sent';

/**
 * §2/§5: a 6-character start parameter that differs from the user's own refcode registers a
 * referral, once per session (the server refuses a second referral anyway).
 */
export const useStartParamReferral = (status: UserStatus | undefined, param: string | null = startParam()): void => {
  const api = useApi();
  const refreshAfterClaim = useRefreshAfterClaim();
  useEffect(() => {
    if (!status || !isReferralStartParam(param, status.refcode)) return;
    if (sessionStorage.getItem(referralSentKey) === param) return;
    sessionStorage.setItem(referralSentKey, param!);
    registerReferral(api, param!)
      .then(refreshAfterClaim)
      .catch((error: unknown) => console.warn('referral', error));
  }, [api, refreshAfterClaim, status, param]);
};
