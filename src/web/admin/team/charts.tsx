// The dashboard's charts, drawn with Recharts (the chart library Mantine Charts is built on; Mantine Charts itself
// has no release for this Mantine version yet). Each sits in a Section that gives it a text alternative and a table.
import { percentTicks } from './figures';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Series colours: distinct in lightness too, so they stay apart in greyscale and for colour-blind eyes. */
export const SERIES = {
  calls: { label: 'Calls', color: '#1864ab' },
  visits: { label: 'Visits', color: '#2b8a3e' },
  saves: { label: 'Saves', color: '#f59f00' },
  strategies: { label: 'Strategies', color: '#9c36b5' },
  followUps: { label: 'Follow-ups', color: '#c92a2a' },
} as const;
export type SeriesKey = keyof typeof SERIES;
export interface Series {
  key: string;
  label: string;
  color: string;
}

/** The five kinds of activity, in the order the per-rep bars and the per-day columns stack them. */
export const ACTIVITY_SERIES: Series[] = (
  ['calls', 'visits', 'saves', 'strategies', 'followUps'] as const
).map((k) => ({ key: k, ...SERIES[k] }));

const axisText = { fontSize: 12, fill: '#343a40' };

/** Horizontal bars, one row per item (reps, outcomes, categories): readable on a phone at any count. */
export function RowBars({
  data,
  labelKey,
  series,
  stacked = false,
  percent = false,
}: {
  data: object[];
  labelKey: string;
  series: Series[];
  stacked?: boolean;
  percent?: boolean;
}) {
  const height = Math.max(120, data.length * (stacked ? 30 : 18 * series.length + 12) + 60);
  const ticks = percent ? percentTicks(data, series) : [];
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          tick={axisText}
          allowDecimals={percent}
          domain={percent ? [0, ticks.at(-1) ?? 1] : [0, 'auto']}
          ticks={percent ? ticks : undefined}
          tickFormatter={percent ? (v: number) => `${Math.round(v * 100)}%` : undefined}
        />
        <YAxis type="category" dataKey={labelKey} tick={axisText} width={110} interval={0} />
        <Tooltip formatter={percent ? (v) => `${Math.round(Number(v) * 100)}%` : undefined} />
        {series.length > 1 && <Legend />}
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={s.color}
            stackId={stacked ? 'all' : undefined}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Stacked columns per day. */
export function DayColumns({ data, series }: { data: object[]; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 4, right: 8, bottom: 4, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={axisText} interval="preserveStartEnd" minTickGap={8} />
        <YAxis tick={axisText} allowDecimals={false} />
        <Tooltip />
        <Legend />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={s.color}
            stackId="day"
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
