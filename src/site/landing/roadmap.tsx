import { useRef } from 'react';
import { economy } from '../../../engine/economy.ts';
import { roadmapFor } from '../../../engine/roadmap.ts';

const prefersReducedMotion = (): boolean => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * §2 roadmap: a horizontally scrollable timeline of the 8 phases. Past and Future each scroll
 * 400 px (§9); the phase whose date is this month (§4) is highlighted green.
 */
export const Roadmap = ({ now = new Date() }: { now?: Date }) => {
  const track = useRef<HTMLOListElement>(null);
  const phases = roadmapFor(now.getFullYear(), now.getMonth());
  const step = (direction: -1 | 1): void => {
    track.current?.scrollBy({
      left: direction * economy.roadmapScrollPx,
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    });
  };
  return (
    <section className="section roadmap" aria-labelledby="roadmap-title">
      <div className="section-head roadmap-head">
        <div>
          <p className="eyebrow">Where we are going</p>
          <h2 id="roadmap-title">Roadmap</h2>
        </div>
        <div className="roadmap-controls">
          <button type="button" className="btn btn-ghost" onClick={() => step(-1)} aria-label="Past">
            <span aria-hidden="true">←</span>
            <span className="control-label">Past</span>
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => step(1)} aria-label="Future">
            <span className="control-label">Future</span>
            <span aria-hidden="true">→</span>
          </button>
        </div>
      </div>
      <ol className="roadmap-track" ref={track} tabIndex={0} aria-label="Roadmap phases">
        {phases.map((p) => (
          <li
            key={p.phase}
            className={p.isRoadmapActive ? 'phase is-active' : 'phase'}
            data-active={p.isRoadmapActive}
            aria-current={p.isRoadmapActive ? 'step' : undefined}
          >
            <span className="phase-dot" aria-hidden="true" />
            <p className="phase-number">
              Phase {p.phase}
              {p.isRoadmapActive && <span className="phase-now">Now</span>}
            </p>
            <h3 className="phase-title">{p.title}</h3>
            <p className="phase-date">{p.date}</p>
          </li>
        ))}
      </ol>
    </section>
  );
};
