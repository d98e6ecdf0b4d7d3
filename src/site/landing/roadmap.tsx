import { useLingui } from '@lingui/react';
import { useRef } from 'react';
import { economy } from '../../../engine/rules/economy.ts';
import { roadmapFor } from '../../../engine/rules/roadmap.ts';
import { formatMonthYear } from '../../../engine/rules/i18n/format.ts';
import type { Locale } from '../../../engine/rules/i18n/locales.ts';
import { parseRoadmapDate } from '../../../engine/rules/i18n/roadmap-date.ts';

const prefersReducedMotion = (): boolean => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * §2 roadmap: a horizontally scrollable timeline of the 8 phases. Past and Future each scroll
 * 400 px (§9) toward the start or the end of the line, which is on the left in a right-to-left
 * language; the phase whose date is this month (§4) is highlighted green.
 */
export const Roadmap = ({ now = new Date() }: { now?: Date }) => {
  const { i18n, _ } = useLingui();
  const locale = i18n.locale as Locale;
  const track = useRef<HTMLOListElement>(null);
  const phases = roadmapFor(now.getFullYear(), now.getMonth());
  const step = (direction: -1 | 1): void => {
    const el = track.current;
    if (!el) return;
    const inline = getComputedStyle(el).direction === 'rtl' ? -1 : 1;
    el.scrollBy({ left: inline * direction * economy.roadmapScrollPx, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  };
  const dateLabel = (date: string): string => {
    const d = parseRoadmapDate(date);
    if (d.kind === 'month') return formatMonthYear(locale, d.year, d.monthIndex);
    if (d.kind === 'quarter') return _('site.roadmap.quarter', { quarter: d.quarter, year: String(d.year) });
    return d.text;
  };
  return (
    <section className="section roadmap" aria-labelledby="roadmap-title">
      <div className="section-head roadmap-head">
        <div>
          <p className="eyebrow">{_('site.roadmap.eyebrow')}</p>
          <h2 id="roadmap-title">{_('site.roadmap.title')}</h2>
        </div>
        <div className="roadmap-controls">
          <button type="button" className="btn btn-ghost" onClick={() => step(-1)} aria-label={_('site.roadmap.past')}>
            <span className="arrow" aria-hidden="true">←</span>
            <span className="control-label">{_('site.roadmap.past')}</span>
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => step(1)} aria-label={_('site.roadmap.future')}>
            <span className="control-label">{_('site.roadmap.future')}</span>
            <span className="arrow" aria-hidden="true">→</span>
          </button>
        </div>
      </div>
      <ol className="roadmap-track" ref={track} tabIndex={0} aria-label={_('site.roadmap.phases')}>
        {phases.map((p) => (
          <li
            key={p.phase}
            className={p.isRoadmapActive ? 'phase is-active' : 'phase'}
            data-active={p.isRoadmapActive}
            aria-current={p.isRoadmapActive ? 'step' : undefined}
          >
            <span className="phase-dot" aria-hidden="true" />
            <p className="phase-number">
              {_('site.roadmap.phase', { number: p.phase })}
              {p.isRoadmapActive && <span className="phase-now">{_('site.roadmap.now')}</span>}
            </p>
            <h3 className="phase-title">{_(`site.roadmap.phase${p.phase}`)}</h3>
            <p className="phase-date">{dateLabel(p.date)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
};
