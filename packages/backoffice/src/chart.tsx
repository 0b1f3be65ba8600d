import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';

/** One line of a {@link TimeChart}. */
export interface ChartSeries {
  label: string;
  /** A value per x; the chart plots a reading of the exact figure (display only, never arithmetic on money). */
  values: Array<number | null>;
  stroke: string;
}

/**
 * A line chart over days (uPlot): `days` are `YYYY-MM-DD`; its width follows its card. The figures are also in a
 * table next to it (the chart is a picture of them, `aria-hidden`).
 */
export function TimeChart({ title, days, series }: { title: string; days: string[]; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const width = () => Math.max(260, el.clientWidth);
    let plot: uPlot | undefined;
    let ro: ResizeObserver | undefined;
    let live = true;
    // uPlot loads with the first chart: screens without charts (every partner screen) never fetch it
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (!live) return;
      const p = new UPlot(
        {
          title,
          width: width(),
          height: 200,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          series: [
            {},
            ...series.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, points: { show: true } })),
          ],
          axes: [{}, { size: 70 }],
        },
        [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
        el,
      );
      plot = p;
      ro = new ResizeObserver(() => p.setSize({ width: width(), height: 200 }));
      ro.observe(el);
    });
    return () => {
      live = false;
      ro?.disconnect();
      plot?.destroy();
    };
  }, [title, days.join(), JSON.stringify(series)]);
  return <div class="chart" ref={box} aria-hidden="true" data-testid={`chart-${title}`} />;
}

/** A money string as a chart reading (display only). */
export const reading = (v: string | undefined): number | null => (v === undefined ? null : Number(v));
