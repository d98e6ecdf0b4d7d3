/**
 * A stand-in for Cloudflare's widget script (challenges.cloudflare.com/turnstile/v0/api.js): it
 * defines `window.turnstile` with the calls @marsidev/react-turnstile makes (render, remove,
 * getResponse, reset). `render` draws a "demo" checkbox; ticking it asks `solveUrl` for a token,
 * posting the site key and action the widget was drawn with and the page's hostname, just as the
 * real widget binds them into its token. A widget drawn with another site key gets an error, as
 * the real one does (110100). The demo serves it; the browser tests load the same text.
 */
export const turnstileWidgetScript = (solveUrl: string): string => `(() => {
  const widgets = new Map();
  let next = 0;
  const solveUrl = ${JSON.stringify(solveUrl)};
  window.turnstile = {
    render(container, options) {
      const host = typeof container === 'string' ? document.querySelector(container) : container;
      const id = 'demo-widget-' + next++;
      const box = document.createElement('label');
      box.className = 'demo-turnstile';
      box.dataset.testid = 'demo-turnstile';
      box.dataset.sitekey = options.sitekey || '';
      box.dataset.action = options.action || '';
      const input = document.createElement('input');
      input.type = 'checkbox';
      box.append(input, document.createTextNode(" I'm human (demo captcha)"));
      host.append(box);
      const w = { box, token: '' };
      widgets.set(id, w);
      input.addEventListener('change', async () => {
        input.disabled = true;
        try {
          const res = await fetch(solveUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ sitekey: options.sitekey, action: options.action || '', hostname: location.hostname }),
          });
          if (!res.ok) throw new Error('110100');
          w.token = (await res.json()).token;
          options.callback && options.callback(w.token);
          box.dataset.state = 'solved';
        } catch (e) {
          input.checked = false;
          input.disabled = false;
          options['error-callback'] && options['error-callback']('110100');
        }
      });
      return id;
    },
    remove(id) {
      const w = widgets.get(id);
      if (w) w.box.remove();
      widgets.delete(id);
    },
    reset(id) {
      const w = widgets.get(id);
      if (w) { w.token = ''; const i = w.box.querySelector('input'); i.checked = false; i.disabled = false; }
    },
    getResponse(id) {
      return widgets.get(id)?.token || undefined;
    },
    isExpired() {
      return false;
    },
  };
})();`;
