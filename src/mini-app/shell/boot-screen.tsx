import { bootScreenShown } from '../../boot-screen.ts';
import { art, productName } from '../ui/art.tsx';

/**
 * The first paint while the status call answers: the coin, breathing. While the early coin
 * (src/boot-screen.ts) still covers the page, this one draws no coin under it: a second coin,
 * hidden but painted, would count as the page's largest paint and could shift as its styles arrive.
 */
export const BootScreen = () => (
  <div className="app boot" aria-busy="true">
    {!bootScreenShown() && <img className="boot__coin" src={art('coin')} alt={productName} />}
  </div>
);
