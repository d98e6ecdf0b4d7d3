import { art, productName } from '../../art-path.ts';
import { useArtMask } from '../../art-url.ts';

export { art, productName };

/** The MONEY token icon next to token amounts. */
export const MoneyIcon = () => <img className="money-icon" src={art('money-token')} alt="" aria-hidden="true" />;

/** The small gold coin next to dollar amounts. */
export const CoinIcon = () => <img className="money-icon" src={art('coin-small')} alt="" aria-hidden="true" />;

/** A user's avatar, or their initial on a gold disc when there is no picture. */
export const Avatar = ({ src, name, size = 40 }: { src: string | null | undefined; name: string; size?: number }) =>
  src ? (
    <img className="avatar" src={src} alt="" style={{ width: size, height: size }} />
  ) : (
    <span className="avatar" aria-hidden="true" style={{ width: size, height: size, fontSize: size * 0.42 }}>
      {(name || '?').slice(0, 1).toUpperCase()}
    </span>
  );

/**
 * A one-colour icon (icon-*, nav-*: drawn in currentColor). An <img> cannot inherit the text
 * colour, so the SVG is used as a mask over `background: currentColor` (asked for again if it
 * failed: src/art-url.ts).
 */
export const Icon = ({ name, size = 18, className = '' }: { name: string; size?: number; className?: string }) => (
  <span
    className={`mask-icon ${className}`}
    aria-hidden="true"
    style={{ width: size, height: size, ['--icon' as string]: useArtMask(name) }}
  />
);
