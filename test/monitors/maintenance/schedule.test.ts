/**
 * When maintenance windows are open: one-off windows between their instants, weekly ones at a
 * local wall-clock time in an IANA zone, held across the daylight-saving weeks of 2026 (Berlin:
 * 29 March and 25 October; New York: 8 March), including the hour that does not exist and the
 * hour that happens twice.
 */
import { describe, expect, it } from 'vitest'
import { isTimeZone, type WeeklySchedule } from '../../../src/contract/monitoring.js'
import {
  currentOrNext,
  openAt,
  openings,
  wallToInstant,
  zoneOffset,
} from '../../../src/monitors/maintenance/index.js'

const t = (iso: string) => Date.parse(iso)
const iso = (ms: number) => new Date(ms).toISOString()
const weekly = (w: Partial<WeeklySchedule>, bounds: { starts_at?: string; ends_at?: string } = {}) => ({
  starts_at: bounds.starts_at ?? null,
  ends_at: bounds.ends_at ?? null,
  weekly: {
    days: ['sat', 'sun'],
    start: '02:30',
    duration_minutes: 60,
    timezone: 'Europe/Berlin',
    ...w,
  } as WeeklySchedule,
})
const starts = (w: ReturnType<typeof weekly>, from: string, to: string) =>
  openings(w, t(from), t(to)).map((o) => iso(o.start))

describe('time-zone math', () => {
  it('knows the offsets on each side of a change', () => {
    expect(zoneOffset(t('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toBe(3_600_000)
    expect(zoneOffset(t('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(7_200_000)
    expect(zoneOffset(t('2026-06-01T12:00:00Z'), 'Asia/Kolkata')).toBe(19_800_000)
    expect(zoneOffset(t('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(-5 * 3_600_000)
    expect(zoneOffset(t('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000)
  })

  it('maps wall time to the instant: skipped hour moves on, doubled hour takes the first', () => {
    expect(iso(wallToInstant(t('2026-03-28T02:30:00Z'), 'Europe/Berlin'))).toBe('2026-03-28T01:30:00.000Z')
    // 02:30 never happens on 29 March in Berlin: it opens at 03:30 CEST
    expect(iso(wallToInstant(t('2026-03-29T02:30:00Z'), 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z')
    // 02:30 happens twice on 25 October: the first (still CEST)
    expect(iso(wallToInstant(t('2026-10-25T02:30:00Z'), 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z')
    expect(iso(wallToInstant(t('2026-10-25T04:00:00Z'), 'Europe/Berlin'))).toBe('2026-10-25T03:00:00.000Z')
  })

  it('refuses unknown zones and offsets', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true)
    expect(isTimeZone('UTC')).toBe(true)
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false)
    expect(isTimeZone('+02:00')).toBe(false)
  })
})

describe('weekly windows across daylight-saving changes', () => {
  it('opens at 02:30 Berlin wall time every weekend of the spring change week', () => {
    expect(starts(weekly({}), '2026-03-23T00:00:00Z', '2026-04-06T00:00:00Z')).toEqual([
      '2026-03-28T01:30:00.000Z', // Sat, CET
      '2026-03-29T01:30:00.000Z', // Sun: 02:30 skipped, opens 03:30 CEST
      '2026-04-04T00:30:00.000Z', // Sat, CEST
      '2026-04-05T00:30:00.000Z',
    ])
  })

  it('holds the wall time through the autumn change, lasting real minutes', () => {
    const w = weekly({})
    const list = openings(w, t('2026-10-24T00:00:00Z'), t('2026-11-01T12:00:00Z'))
    expect(list.map((o) => iso(o.start))).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // the first 02:30 of the doubled hour
      '2026-10-31T01:30:00.000Z', // CET
      '2026-11-01T01:30:00.000Z',
    ])
    expect(list.every((o) => o.end - o.start === 3_600_000)).toBe(true)
  })

  it('keeps 09:00 on weekdays in New York across 8 March', () => {
    const w = weekly({ days: ['mon', 'fri'], start: '09:00', timezone: 'America/New_York' })
    expect(starts(w, '2026-03-05T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-06T14:00:00.000Z', // Fri, EST
      '2026-03-09T13:00:00.000Z', // Mon, EDT
    ])
  })

  it('is open inside an opening only, and names the current or next one', () => {
    const w = weekly({})
    expect(openAt(w, t('2026-03-29T01:29:59Z'))).toBeUndefined()
    expect(openAt(w, t('2026-03-29T01:30:00Z'))).toEqual({
      start: t('2026-03-29T01:30:00Z'),
      end: t('2026-03-29T02:30:00Z'),
    })
    expect(openAt(w, t('2026-03-29T02:30:00Z'))).toBeUndefined()
    expect(currentOrNext(w, t('2026-03-29T02:00:00Z'))?.start).toBe(t('2026-03-29T01:30:00Z'))
    expect(currentOrNext(w, t('2026-03-30T12:00:00Z'))?.start).toBe(t('2026-04-04T00:30:00Z'))
  })

  it('an opening that crosses midnight is open the next day', () => {
    const w = weekly({ days: ['fri'], start: '23:00', duration_minutes: 180, timezone: 'UTC' })
    expect(openAt(w, t('2026-03-07T01:00:00Z'))?.start).toBe(t('2026-03-06T23:00:00Z'))
  })

  it('keeps a recurrence within its bounds', () => {
    const w = weekly({}, { starts_at: '2026-04-01T00:00:00Z', ends_at: '2026-04-12T00:00:00Z' })
    expect(starts(w, '2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z')).toEqual([
      '2026-04-04T00:30:00.000Z',
      '2026-04-05T00:30:00.000Z',
      '2026-04-11T00:30:00.000Z',
    ])
    expect(currentOrNext(w, t('2026-03-01T00:00:00Z'))?.start).toBe(t('2026-04-04T00:30:00Z'))
    expect(currentOrNext(w, t('2026-04-12T00:00:00Z'))).toBeUndefined()
  })
})

describe('one-off windows', () => {
  const w = { starts_at: '2026-12-01T22:00:00Z', ends_at: '2026-12-01T23:00:00Z', weekly: null }
  it('is open from its start up to its end', () => {
    expect(openAt(w, t('2026-12-01T21:59:59Z'))).toBeUndefined()
    expect(openAt(w, t('2026-12-01T22:00:00Z'))).toBeDefined()
    expect(openAt(w, t('2026-12-01T22:59:59Z'))).toBeDefined()
    expect(openAt(w, t('2026-12-01T23:00:00Z'))).toBeUndefined()
    expect(currentOrNext(w, t('2026-11-01T00:00:00Z'))?.start).toBe(t('2026-12-01T22:00:00Z'))
    expect(currentOrNext(w, t('2026-12-02T00:00:00Z'))).toBeUndefined()
  })
})
