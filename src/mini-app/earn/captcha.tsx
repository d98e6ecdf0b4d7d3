import { Turnstile } from '@marsidev/react-turnstile';
import { claimTaskCaptchaAction } from '../../../engine/wire/api-types.ts';
import { config } from '../../config.ts';
import { isDemo } from '../demo.ts';
import { appLocale } from '../locale.ts';

/**
 * The Turnstile widget (its own chunk: only tasks that need a captcha load it). It is drawn with
 * the site key from the server's config and the action the server's siteverify check expects;
 * a widget drawn without them yields tokens the server refuses.
 */
export const Captcha = ({ onToken }: { onToken: (token: string | null) => void }) => (
  <div className="task__captcha">
    <Turnstile
      siteKey={config.turnstileSiteKey}
      injectScript={!isDemo('turnstile')}
      options={{ action: claimTaskCaptchaAction, size: 'flexible', theme: 'auto', language: appLocale().toLowerCase() }}
      onSuccess={(token) => onToken(token)}
      onExpire={() => onToken(null)}
      onError={() => onToken(null)}
    />
  </div>
);
