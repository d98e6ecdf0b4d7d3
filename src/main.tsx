import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { formatMoney } from '../engine/format.ts';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <main>
        <h1>MONEY</h1>
        <p>Telegram Native Social Money. Next click price: ${formatMoney('30')}</p>
      </main>
    </StrictMode>,
  );
}
