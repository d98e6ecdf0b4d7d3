/**
 * A line chart over days with uPlot: about 50 KB, canvas, no dependencies, fast with thousands of
 * points; chosen for the console's few daily series (docs/decisions.md). Loaded only with the dashboard.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: number[];
  color: string;
}

export const DayChart = ({ title, days, series }: { title: string; days: string[]; series: Series[] }) => {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(240, el.clientWidth),
        height: 200,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length < 3 } }))],
        axes: [{}, { size: 56 }],
        scales: { x: { time: true } },
        legend: { show: true },
      },
      [xs, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height: 200 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series]);
  return (
    <section className="panel">
      <h2>{title}</h2>
      <div ref={box} className="chart" role="img" aria-label={title} />
    </section>
  );
};
