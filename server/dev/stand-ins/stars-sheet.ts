/**
 * The demo's Stars payment sheet (docs/outside-services.md "Demo stand-ins"): a script that defines
 * `window.DemoStars.open(link, userId, done)`, the stand-in of Telegram's sheet that
 * `WebApp.openInvoice` opens. Marked "demo". Pay asks our /dev/demo route, which has the Telegram
 * stand-in run the payment as Telegram does (pre_checkout_query to the bot, then successful_payment);
 * Cancel and "Fail" close it with those statuses, as Telegram's sheet would.
 */
export const starsSheetScript = (invoicePath: string, payPath: string): string => `(() => {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  window.DemoStars = {
    open(link, userId, done) {
      const back = document.createElement('div');
      back.setAttribute('data-testid', 'demo-stars-sheet');
      back.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;align-items:flex-end;z-index:2147483647;font:15px system-ui';
      const sheet = document.createElement('div');
      sheet.setAttribute('role', 'dialog');
      sheet.setAttribute('aria-label', 'Telegram Stars payment (demo)');
      sheet.style.cssText = 'background:#1c1c1e;color:#fff;width:100%;border-radius:16px 16px 0 0;padding:20px;box-sizing:border-box;text-align:center';
      sheet.innerHTML = '<p style="margin:0 0 4px"><b>Telegram Stars</b> <small style="border:1px dashed #aaa;border-radius:6px;padding:0 6px">demo</small></p><p data-title style="margin:8px 0">…</p>';
      const row = document.createElement('div');
      row.style.cssText = 'display:flex;flex-direction:column;gap:8px;margin-top:12px';
      const button = (label, testid, bg) => {
        const b = document.createElement('button');
        b.textContent = label;
        b.setAttribute('data-testid', testid);
        b.style.cssText = 'font:inherit;font-weight:700;border:0;border-radius:10px;padding:12px;color:#fff;background:' + bg;
        row.appendChild(b);
        return b;
      };
      const pay = button('Pay', 'demo-stars-pay', '#2f80ed');
      const fail = button('Fail the payment (demo)', 'demo-stars-fail', '#555');
      const cancel = button('Cancel', 'demo-stars-cancel', '#333');
      sheet.appendChild(row);
      back.appendChild(sheet);
      document.body.appendChild(back);
      let closed = false;
      const close = (status) => { if (closed) return; closed = true; back.remove(); done(status); };
      fetch(${JSON.stringify(invoicePath)} + '?link=' + encodeURIComponent(link)).then((r) => r.json()).then((inv) => {
        sheet.querySelector('[data-title]').innerHTML = esc(inv.title) + '<br><b>★ ' + esc(inv.amount) + '</b>';
        pay.textContent = 'Pay ★ ' + inv.amount;
      }, () => close('failed'));
      cancel.onclick = () => close('cancelled');
      fail.onclick = () => close('failed');
      pay.onclick = () => {
        pay.disabled = true;
        fetch(${JSON.stringify(payPath)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link, userId }) })
          .then((r) => r.json()).then((r) => close(r.status === 'paid' ? 'paid' : 'failed'), () => close('failed'));
      };
    },
  };
})();
`;
