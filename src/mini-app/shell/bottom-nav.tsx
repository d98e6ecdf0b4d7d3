import { useLingui } from '@lingui/react';
import { NavLink } from 'react-router-dom';
import { useArtMask } from '../../art-url.ts';
import { haptic } from '../../telegram.ts';

/** The bottom navigation, in the order of §2. */
export const navItems = [
  { to: '/', label: 'app.nav.home', icon: 'nav-home' },
  { to: '/earn', label: 'app.nav.earn', icon: 'nav-earn' },
  { to: '/boost', label: 'app.nav.boost', icon: 'nav-boost' },
  { to: '/invite', label: 'app.nav.invite', icon: 'nav-invite' },
  { to: '/wallet', label: 'app.nav.wallet', icon: 'nav-wallet' },
] as const;

/** A nav icon is a CSS mask; its file is asked for again if it failed (src/art-url.ts). */
const NavIcon = ({ name }: { name: string }) => (
  <span className="nav__icon" style={{ ['--icon' as string]: useArtMask(name) }} aria-hidden="true" />
);

/** §2: /, /earn, /boost, /invite, /wallet; shown only once the welcome reward is claimed. */
export const BottomNav = () => {
  const { _ } = useLingui();
  return (
    <nav className="nav" aria-label={_('app.nav.main')}>
      {navItems.map((item) => (
        <NavLink key={item.to} to={item.to} end className="nav__link" onClick={() => haptic.tap()}>
          <NavIcon name={item.icon} />
          {_(item.label)}
        </NavLink>
      ))}
    </nav>
  );
};
