import { titleTiers } from '../../../engine/rules/economy.ts';
import { art, Icon } from './art.tsx';

/**
 * Task images: the server's task file names a picture ("task-x", "achievement-3"); we draw each
 * with MONEY's own art. A URL or path is used as is.
 */
const aliases: Record<string, { icon?: string; img?: string }> = {
  'task-x': { icon: 'icon-x' },
  'task-telegram': { icon: 'icon-telegram' },
  'task-invite': { icon: 'nav-invite' },
  'task-ads': { icon: 'nav-earn' },
  'task-boost': { icon: 'nav-boost' },
  'task-username': { img: 'money-token' },
  'task-bingx': { img: 'item-trading-floor' },
  'task-onus': { img: 'item-bank' },
};

const lookup = (image: string): { icon?: string; img?: string } => {
  const achievement = /^achievement-(\d)$/.exec(image);
  if (achievement) return { img: titleTiers[Math.min(titleTiers.length, Number(achievement[1])) - 1]?.image ?? 'coin' };
  return aliases[image] ?? (image.startsWith('icon-') || image.startsWith('nav-') ? { icon: image } : { img: image || 'money-token' });
};

export const TaskImage = ({ image, className }: { image: string; className: string }) => {
  if (image.includes('/')) return <img className={className} src={image} alt="" />;
  const { icon, img } = lookup(image);
  if (icon) return <span className={`${className} task-image--icon`}><Icon name={icon} size={24} /></span>;
  return <img className={className} src={art(img!)} alt="" onError={(e) => void (e.currentTarget.src = art('money-token'))} />;
};
