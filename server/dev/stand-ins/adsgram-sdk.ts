/**
 * A stand-in for the Adsgram SDK script (https://sad.adsgram.ai/js/sad.min.js) for the demo and
 * the screenshots: `Adsgram.init({ blockId }).show()` draws a "demo ad" over the page. "Finish"
 * first does what Adsgram's server does after a full view (our reward callback, through
 * `watchedUrl`), then resolves `{ done: true }`; "Skip" rejects `{ done: false, error: false }`,
 * as the SDK does.
 */
export const adsgramSdkScript = (watchedUrl: string): string => `(() => {
  const watchedUrl = ${JSON.stringify(watchedUrl)};
  const userId = () => window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initDataUnsafe && window.Telegram.WebApp.initDataUnsafe.user && window.Telegram.WebApp.initDataUnsafe.user.id;
  window.Adsgram = {
    init(options) {
      return {
        show() {
          return new Promise((resolve, reject) => {
            const layer = document.createElement('div');
            layer.dataset.testid = 'demo-ad';
            layer.style.cssText = 'position:fixed;inset:0;z-index:9999;background:rgba(0,0,0,.85);color:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;font:16px system-ui';
            layer.innerHTML = '<strong>Demo ad</strong><small></small><div style="display:flex;gap:12px"><button type="button" style="font:inherit;padding:10px 22px;border:0;border-radius:12px;background:#f5b82e;color:#1d1a14;font-weight:700">Finish</button><button type="button" style="font:inherit;padding:10px 22px;border:1px solid #888;border-radius:12px;background:transparent;color:#fff">Skip</button></div>';
            layer.querySelector('small').textContent = 'block ' + options.blockId + ' (demo)';
            const [finish, skip] = layer.querySelectorAll('button');
            finish.onclick = async () => {
              finish.disabled = true;
              await fetch(watchedUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: userId() }) }).catch(() => undefined);
              layer.remove();
              resolve({ done: true, description: 'Adv was watched', state: 'destroy', error: false });
            };
            skip.onclick = () => {
              layer.remove();
              reject({ done: false, description: 'Adv was skipped', state: 'destroy', error: false });
            };
            document.body.append(layer);
          });
        },
      };
    },
  };
})();`;
