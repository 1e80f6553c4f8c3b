// One snapshot (or the mean of a bucket of them) as charts, sparklines and trends draw it.
// Times are ms since epoch (charts compute with them); reliability is already on 0–100.
import { z } from 'zod'

export const ChartPointSchema = z.object({
  /** The snapshot's time; for a bucket, the mean time of its snapshots. */
  takenAt: z.number(),
  viewersCount: z.number(),
  /** On Eventwatch's 0–100 scale, whatever scale the service reports. */
  reliability: z.number(),
  cdnTraffic: z.number(),
  ecdnTraffic: z.number(),
  /** For a bucket: its lowest reliability, highest audience and how many snapshots it averages. */
  minReliability: z.number(),
  maxViewersCount: z.number(),
  samples: z.number()
})
export type ChartPoint = z.infer<typeof ChartPointSchema>
