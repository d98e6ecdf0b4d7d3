import { art, productName } from '../ui/art.tsx';

/** The first paint while the status call answers: the coin, breathing. */
export const BootScreen = () => (
  <div className="app boot" aria-busy="true">
    <img className="boot__coin" src={art('coin')} alt={productName} />
  </div>
);
