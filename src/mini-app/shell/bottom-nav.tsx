import { NavLink } from 'react-router-dom';
import { art } from '../ui/art.tsx';
import { haptic } from '../../telegram.ts';

/** The bottom navigation, in the order of §2. */
export const navItems = [
  { to: '/', label: 'Home', icon: 'nav-home' },
  { to: '/earn', label: 'Earn', icon: 'nav-earn' },
  { to: '/boost', label: 'Boost', icon: 'nav-boost' },
  { to: '/invite', label: 'Invite', icon: 'nav-invite' },
  { to: '/wallet', label: 'Wallet', icon: 'nav-wallet' },
] as const;

/** §2: /, /earn, /boost, /invite, /wallet; shown only once the welcome reward is claimed. */
export const BottomNav = () => (
  <nav className="nav" aria-label="Main">
    {navItems.map((item) => (
      <NavLink key={item.to} to={item.to} end className="nav__link" onClick={() => haptic.tap()}>
        <span className="nav__icon" style={{ ['--icon' as string]: `url(${art(item.icon)})` }} aria-hidden="true" />
        {item.label}
      </NavLink>
    ))}
  </nav>
);
