import { AxisBottom, AxisLeft, AxisRight } from '@visx/axis'
import { Group } from '@visx/group'
import { scaleBand, scaleLinear } from '@visx/scale'
import { Bar, BarStack } from '@visx/shape'

/*
 * The Analytics screen's charts, drawn by visx as SVG. Colours are the theme's CSS variables,
 * so light and dark follow the app; in right-to-left the time axis runs from the right and the
 * value axis stands on the right, as Arabic readers read a chart.
 */

const AXIS_COLOUR = 'var(--text-muted)'
const TICK_LABEL = { fill: 'var(--text-muted)', fontSize: 11, fontFamily: 'inherit' }

export interface TimeBarDatum {
  label: string
  completed: number
  failed: number
  other: number
}

type Series = 'completed' | 'failed' | 'other'
const SERIES: Series[] = ['completed', 'failed', 'other']
export const SERIES_COLOURS: Record<Series, string> = {
  completed: 'var(--ok)',
  failed: 'var(--bad)',
  other: 'var(--accent)',
}

interface TimeBarsProps {
  data: TimeBarDatum[]
  width: number
  height: number
  rtl: boolean
  /** The accessible summary of the chart (the table beside it has the figures). */
  title: string
  /** Every n-th label shown on the time axis. */
  tickLabel(label: string): string
}

/** Calls per time bucket, stacked by how they ended. */
export function TimeBars({ data, width, height, rtl, title, tickLabel }: TimeBarsProps) {
  const margin = { top: 8, bottom: 28, side: 36 }
  const innerWidth = Math.max(0, width - margin.side - 8)
  const innerHeight = Math.max(0, height - margin.top - margin.bottom)
  const labels = data.map((datum) => datum.label)
  const x = scaleBand<string>({ domain: rtl ? [...labels].reverse() : labels, range: [0, innerWidth], padding: 0.2 })
  const top = Math.max(1, ...data.map((datum) => datum.completed + datum.failed + datum.other))
  const y = scaleLinear<number>({ domain: [0, top], range: [innerHeight, 0], nice: true })
  const every = Math.max(1, Math.ceil(labels.length / 8))
  const shown = labels.filter((_, index) => index % every === 0)
  const left = rtl ? 8 : margin.side
  // Counts: whole numbers only on the value axis.
  const counts = y.ticks(4).filter((tick) => Number.isInteger(tick))
  return (
    <svg width={width} height={height} role="img" aria-label={title} data-testid="analytics-time-chart">
      <Group left={left} top={margin.top}>
        <BarStack<TimeBarDatum, Series>
          data={data}
          keys={SERIES}
          x={(datum) => datum.label}
          xScale={x}
          yScale={y}
          color={(key) => SERIES_COLOURS[key]}
        >
          {(stacks) =>
            stacks.map((stack) =>
              stack.bars.map((bar) =>
                bar.height > 0 ? (
                  <rect key={`${stack.index}-${bar.index}`} x={bar.x} y={bar.y} width={bar.width} height={bar.height} fill={bar.color} />
                ) : null,
              ),
            )
          }
        </BarStack>
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickValues={shown}
          tickFormat={tickLabel}
          stroke={AXIS_COLOUR}
          tickStroke={AXIS_COLOUR}
          tickLabelProps={() => ({ ...TICK_LABEL, textAnchor: 'middle' })}
        />
        {rtl ? (
          <AxisRight
            left={innerWidth}
            scale={y}
            tickValues={counts}
            tickFormat={(value) => String(value)}
            stroke={AXIS_COLOUR}
            tickStroke={AXIS_COLOUR}
            tickLabelProps={() => ({ ...TICK_LABEL, textAnchor: 'start', direction: 'ltr', dx: 4, dy: 4 })}
          />
        ) : (
          <AxisLeft
            scale={y}
            tickValues={counts}
            tickFormat={(value) => String(value)}
            stroke={AXIS_COLOUR}
            tickStroke={AXIS_COLOUR}
            tickLabelProps={() => ({ ...TICK_LABEL, textAnchor: 'end', direction: 'ltr', dx: -4, dy: 4 })}
          />
        )}
      </Group>
    </svg>
  )
}

export interface ShareDatum {
  label: string
  value: number
}

interface ShareBarsProps {
  data: ShareDatum[]
  width: number
  /** The bars' length scale's top (a count's largest value, or 1 for rates). */
  max: number
  rtl: boolean
  title: string
  format(value: number): string
  colour?: string
  /** The labels are data (outcome field names), written as they are: marked dir="auto". */
  dataLabels?: boolean
}

/** One horizontal bar per row, its label above it, its figure at its end: end reasons, durations, outcome fields. */
export function ShareBars({ data, width, max, rtl, title, format, colour = 'var(--accent)', dataLabels = false }: ShareBarsProps) {
  const row = 34
  const barHeight = 10
  const valueRoom = 56
  const length = scaleLinear<number>({ domain: [0, Math.max(max, 1e-9)], range: [0, Math.max(0, width - valueRoom)] })
  return (
    <svg width={width} height={data.length * row} role="img" aria-label={title}>
      {data.map((datum, index) => {
        const barLength = length(datum.value)
        const top = index * row
        return (
          <Group key={datum.label} top={top}>
            <text
              x={rtl ? width : 0}
              y={12}
              textAnchor="start"
              fontSize={12}
              fill="var(--text)"
              direction={rtl ? 'rtl' : 'ltr'}
              {...(dataLabels ? { dir: 'auto' } : {})}
            >
              {datum.label}
            </text>
            <Bar
              x={0}
              y={18}
              width={width - valueRoom}
              height={barHeight}
              rx={3}
              fill="var(--surface-2)"
              transform={rtl ? `translate(${valueRoom} 0)` : undefined}
            />
            <Bar x={rtl ? width - barLength : 0} y={18} width={barLength} height={barHeight} rx={3} fill={colour} />
            <text
              x={rtl ? width - barLength - 6 : barLength + 6}
              y={27}
              textAnchor="start"
              fontSize={11}
              fill="var(--text-muted)"
              direction={rtl ? 'rtl' : 'ltr'}
            >
              {format(datum.value)}
            </text>
          </Group>
        )
      })}
    </svg>
  )
}
