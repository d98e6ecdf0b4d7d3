import { Turnstile } from '@marsidev/react-turnstile';

/** The Turnstile widget (its own chunk: only tasks that need a captcha load it). */
export const Captcha = ({ siteKey, onToken }: { siteKey: string; onToken: (token: string | null) => void }) => (
  <div className="task__captcha">
    <Turnstile
      siteKey={siteKey}
      options={{ size: 'flexible', theme: 'auto' }}
      onSuccess={(token) => onToken(token)}
      onExpire={() => onToken(null)}
      onError={() => onToken(null)}
    />
  </div>
);
