/**
 * Heartbeat monitors and maintenance windows in the dashboard, in a browser, in-process (the
 * ports as `serve` wires them): a heartbeat made with its form shows its push URL once, the URL
 * records a beat, and the monitor's page then shows the last beat and only the shape of the URL;
 * maintenance windows are created one-off (times read in the chosen time zone) or weekly, refused
 * with the field named, shown on the monitor they cover, deleted after a confirmation; another
 * user's window is 404; axe on each page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectAccessible, expectFits, haveChromium, noticeIfMissing, screenshot } from './browser.js'
import { startDashboard, type Dashboard } from './harness.js'

noticeIfMissing()

describe.runIf(haveChromium || process.env.CI)('heartbeats and maintenance', { timeout: 120_000 }, () => {
  let d: Dashboard
  let url: string
  let signedIn: Dashboard['signedIn']

  beforeAll(async () => {
    d = await startDashboard(['mo@example.com', 'other@example.com'])
    ;({ url, signedIn } = d)
  })

  afterAll(async () => d?.close())

  it('creates a heartbeat monitor: the push URL once, then the last beat and only a hint', async () => {
    const page = await signedIn('mo@example.com')
    await page.getByRole('link', { name: 'Monitors', exact: true }).click()
    await page.getByLabel('Job').fill('nightly backup')
    await page.getByLabel('Expected').selectOption('3600')
    await page.getByLabel('Grace (minutes)').fill('10')
    await page.getByRole('button', { name: 'Create heartbeat monitor' }).click()
    await page.getByRole('heading', { name: 'nightly backup', level: 1 }).waitFor()
    const pushUrl = await page.getByLabel(/Push URL, shown this once/).inputValue()
    expect(pushUrl).toMatch(new RegExp(`^${url}/api/push/hb_[0-9a-f]{32}[A-Za-z0-9_-]+$`))
    expect(await page.getByRole('button', { name: 'Run now' }).count()).toBe(0)
    expect(await page.getByText('a beat every 60 min, 10 min grace').count()).toBe(1)
    await expectAccessible(page, 'heartbeat created')
    await page.setViewportSize({ width: 390, height: 800 })
    await expectFits(page, 'heartbeat created at 390 px')
    await page.setViewportSize({ width: 1280, height: 800 })
    const mo = d.users.get('mo@example.com')!
    const id = (await d.monitoring.service.monitors.listMonitors(mo, { limit: 10 })).items[0].id
    const token = `hb_${id.replace(/-/g, '')}`
    expect(pushUrl).toContain(token)

    expect(await page.getByText('No beat yet.').count()).toBe(1)
    expect((await fetch(pushUrl, { method: 'POST' })).status).toBe(200)
    await page.goto(`${url}/monitors/${id}`)
    expect(await page.getByLabel(/Push URL/).count()).toBe(0)
    const body = (await page.content()).replace(/&amp;/g, '&')
    expect(body).not.toContain(pushUrl)
    expect(body).toContain(`${url}/api/push/${token}…`)
    await page.getByRole('heading', { name: 'Last beat' }).waitFor()
    expect(await page.locator('.card', { hasText: 'Last beat' }).textContent()).toMatch(
      /beat\s+\d{4}-\d\d-\d\d/,
    )
    await expectAccessible(page, 'heartbeat monitor')
    await screenshot(page, 'heartbeat') // checks it fits at 1280 and 390 px

    // its edit form changes the interval and the grace (no URL field)
    await page.goto(`${url}/monitors/${id}/edit`)
    expect(await page.getByLabel('URL', { exact: true }).count()).toBe(0)
    expect(await page.getByLabel('Grace (minutes)').inputValue()).toBe('10')
    await expectAccessible(page, 'heartbeat edit')
    await page.getByLabel('How often').selectOption('86400')
    await page.getByLabel('Grace (minutes)').fill('45')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('a beat every 1440 min, 45 min grace').waitFor()
    const saved = (await d.monitoring.service.monitors.listMonitors(mo, { limit: 10 })).items[0]
    expect(saved).toMatchObject({ interval_seconds: 86_400, grace_seconds: 2700 })
  })

  it('creates, refuses, shows and deletes maintenance windows', async () => {
    const mo = d.users.get('mo@example.com')!
    const { monitor } = await d.monitoring.service.create(mo, {
      url: 'http://127.0.0.1:9/',
      name: 'Shop',
      interval_seconds: 3600,
    })
    await d.monitoring.service.update(mo, monitor.id, { paused: true })
    const page = await signedIn('mo@example.com')
    await page.getByRole('link', { name: 'Maintenance', exact: true }).click()
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor()
    expect(await page.getByText('No maintenance windows yet.').count()).toBe(1)
    await expectAccessible(page, 'maintenance (empty)')

    // one-off, in Berlin time (UTC+1 in January), for the monitor ticked
    await page.getByLabel('Name').fill('Release 4.2')
    await page.getByLabel('Only those ticked below').check()
    await page.getByLabel('Shop').check()
    await page.getByLabel('From', { exact: true }).fill('2030-01-10T22:00')
    await page.getByLabel('To', { exact: true }).fill('2030-01-10T23:30')
    await page.getByLabel('Time zone').fill('Europe/Berlin')
    await page.getByRole('button', { name: 'Create maintenance window' }).click()
    await page.getByRole('cell', { name: 'Release 4.2', exact: true }).waitFor()
    const [made] = await d.monitoring.service.maintenance.list(mo)
    expect(made).toMatchObject({
      name: 'Release 4.2',
      monitor_ids: [monitor.id],
      starts_at: '2030-01-10T21:00:00Z',
      ends_at: '2030-01-10T22:30:00Z',
      weekly: null,
    })

    // weekly without a day: refused naming the field, what was typed kept
    await page.getByLabel('Name').fill('Backups')
    await page.getByLabel('Every week, on the days ticked').check()
    await page.getByLabel('Starting at').fill('03:00')
    await page.getByLabel('Duration (minutes)').fill('90')
    await page.getByRole('button', { name: 'Create maintenance window' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/weekly\.days/)
    expect(await page.getByLabel('Name').inputValue()).toBe('Backups')
    await expectAccessible(page, 'maintenance (refused)')
    await page.getByLabel('Saturday').check()
    await page.getByLabel('Time zone').fill('Mars/Base')
    await page.getByRole('button', { name: 'Create maintenance window' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/timezone.*IANA/)
    await page.getByLabel('Time zone').fill('UTC')
    await page.getByRole('button', { name: 'Create maintenance window' }).click()
    await page.getByRole('cell', { name: 'every sat at 03:00 for 90 min (UTC)', exact: true }).waitFor()
    expect(await page.getByRole('cell', { name: 'all monitors', exact: true }).count()).toBe(1)
    await expectAccessible(page, 'maintenance (two windows)')
    await screenshot(page, 'maintenance') // checks it fits at 1280 and 390 px

    // edit: the one-off window's form is prefilled (times in UTC); made weekly for all monitors
    await page.getByRole('link', { name: 'Edit Release 4.2' }).click()
    await page.getByRole('heading', { name: /Edit the maintenance window “Release 4.2”/ }).waitFor()
    expect(await page.getByLabel('Name').inputValue()).toBe('Release 4.2')
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('2030-01-10T21:00')
    expect(await page.getByLabel('Shop').isChecked()).toBe(true)
    expect(await page.getByLabel('Time zone').inputValue()).toBe('UTC')
    await expectAccessible(page, 'maintenance edit')
    await page.getByLabel('Time zone').fill('Mars/Base')
    await page.getByRole('button', { name: 'Save changes' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/timezone.*IANA/)
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Mars/Base')
    expect((await d.monitoring.service.maintenance.get(mo, made.id)).starts_at).toBe('2030-01-10T21:00:00Z')
    await page.getByLabel('Name').fill('Release 4.3')
    await page.getByLabel('To', { exact: true }).fill('2030-01-11T01:00')
    await page.getByLabel('Time zone').fill('Europe/Berlin')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: 'Release 4.3', exact: true }).waitFor()
    expect(await d.monitoring.service.maintenance.get(mo, made.id)).toMatchObject({
      name: 'Release 4.3',
      monitor_ids: [monitor.id],
      starts_at: '2030-01-10T20:00:00Z',
      ends_at: '2030-01-11T00:00:00Z',
    })
    await page.getByRole('link', { name: 'Edit Release 4.3' }).click()
    await page.getByLabel('All monitors, also ones created later').check()
    await page.getByLabel('Every week, on the days ticked').check()
    await page.getByLabel('Sunday').check()
    await page.getByLabel('Starting at').fill('04:00')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: 'every sun at 04:00 for 60 min (UTC)', exact: true }).waitFor()
    expect(await d.monitoring.service.maintenance.get(mo, made.id)).toMatchObject({
      monitor_ids: 'all',
      starts_at: null,
      ends_at: null,
      weekly: { days: ['sun'], start: '04:00', duration_minutes: 60, timezone: 'UTC' },
    })
    await page.getByRole('link', { name: 'Edit Release 4.3' }).click()
    await page.getByLabel('Name').fill('Release 4.2')
    await page.getByLabel('Only those ticked below').check()
    await page.getByLabel('Shop').check()
    await page.getByLabel('Once, from … to …').check()
    await page.getByLabel('From', { exact: true }).fill('2030-01-10T22:00')
    await page.getByLabel('To', { exact: true }).fill('2030-01-10T23:30')
    await page.getByLabel('Time zone').fill('Europe/Berlin')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: 'Release 4.2', exact: true }).waitFor()
    expect(await d.monitoring.service.maintenance.get(mo, made.id)).toMatchObject({
      monitor_ids: [monitor.id],
      starts_at: '2030-01-10T21:00:00Z',
      weekly: null,
    })

    // the monitor's page lists the windows that cover it
    await page.goto(`${url}/monitors/${monitor.id}`)
    expect(await page.getByText('Release 4.2').count()).toBe(1)
    expect(await page.getByText('Backups').count()).toBe(1)

    const other = await signedIn('other@example.com')
    expect((await other.goto(`${url}/maintenance/${made.id}/delete`))?.status()).toBe(404)
    expect((await other.goto(`${url}/maintenance/${made.id}/edit`))?.status()).toBe(404)
    await other.goto(`${url}/maintenance`)
    expect(await other.getByText('No maintenance windows yet.').count()).toBe(1)

    await page.goto(`${url}/maintenance`)
    await page.getByRole('link', { name: 'Delete Release 4.2' }).click()
    await page.getByRole('heading', { name: /Delete the maintenance window “Release 4.2”/ }).waitFor()
    await expectAccessible(page, 'maintenance delete confirmation')
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor()
    expect(await page.getByRole('cell', { name: 'Release 4.2', exact: true }).count()).toBe(0)
    expect((await d.monitoring.service.maintenance.list(mo)).map((w) => w.name)).toEqual(['Backups'])
  })

  it('refuses forms without the CSRF token, and bad input with the field named', async () => {
    const page = await signedIn('mo@example.com')
    await page.goto(`${url}/maintenance`)
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue()
    const post = async (path: string, form: Record<string, string | string[]>) => {
      const body = new URLSearchParams()
      for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) body.append(k, x)
      const res = await page.request.post(`${url}${path}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
        data: body.toString(),
        maxRedirects: 0,
      })
      return { status: res.status(), text: await res.text() }
    }
    const before = await d.monitoring.service.maintenance.list(d.users.get('mo@example.com')!)
    const once = { name: 'x', scope: 'all', kind: 'once', timezone: 'UTC' }
    const times = { starts_local: '2030-05-01T10:00', ends_local: '2030-05-01T11:00' }
    expect((await post('/maintenance', { ...once, ...times })).status).toBe(403)
    const [mine] = before
    expect((await post(`/maintenance/${mine.id}/edit`, { ...once, ...times, name: 'renamed' })).status).toBe(
      403,
    )
    const badZone = await post(`/maintenance/${mine.id}/edit`, {
      ...once,
      ...times,
      timezone: 'Nowhere/X',
      _csrf: csrf,
    })
    expect(badZone.status).toBe(400)
    expect(badZone.text).toMatch(/timezone/)
    expect(
      (await post('/monitors/heartbeat', { name: 'x', interval_seconds: '3600', grace_minutes: '5' })).status,
    ).toBe(403)

    const none = await post('/maintenance', { ...once, ...times, scope: 'selected', _csrf: csrf })
    expect(none.status).toBe(400)
    expect(none.text).toMatch(/tick at least one monitor/)
    const backwards = await post('/maintenance', {
      ...once,
      starts_local: '2030-05-01T11:00',
      ends_local: '2030-05-01T10:00',
      _csrf: csrf,
    })
    expect(backwards.status).toBe(400)
    expect(backwards.text).toMatch(/ends_at/)
    const foreign = await d.monitoring.service.create(d.users.get('other@example.com')!, {
      type: 'heartbeat',
      name: 'theirs',
      interval_seconds: 3600,
    })
    const theirs = await post('/maintenance', {
      ...once,
      ...times,
      scope: 'selected',
      monitor_ids: foreign.monitor.id,
      _csrf: csrf,
    })
    expect(theirs.status).toBe(400)
    expect(await d.monitoring.service.maintenance.list(d.users.get('mo@example.com')!)).toEqual(before)

    const grace = await post('/monitors/heartbeat', {
      name: 'x',
      interval_seconds: '3600',
      grace_minutes: '99999',
      _csrf: csrf,
    })
    expect(grace.status).toBe(400)
    expect(grace.text).toMatch(/grace_seconds/)
    const [beat] = (
      await d.monitoring.service.monitors.listMonitors(d.users.get('mo@example.com')!, { limit: 10 })
    ).items.filter((m) => m.type === 'heartbeat')
    const edit = { name: 'x', interval_seconds: '3600', down_after: '2', grace_minutes: '99999' }
    expect((await post(`/monitors/${beat.id}/edit`, edit)).status).toBe(403)
    const longGrace = await post(`/monitors/${beat.id}/edit`, { ...edit, _csrf: csrf })
    expect(longGrace.status).toBe(400)
    expect(longGrace.text).toMatch(/grace_seconds/)
    const blank = await post(`/monitors/${beat.id}/edit`, { ...edit, grace_minutes: '', _csrf: csrf })
    expect(blank.status).toBe(400)
    expect(blank.text).toMatch(/grace_seconds/)
    expect(
      (await d.monitoring.service.monitors.listMonitors(d.users.get('mo@example.com')!, { limit: 10 })).items,
    ).toContainEqual(
      expect.objectContaining({ id: beat.id, name: beat.name, grace_seconds: beat.grace_seconds }),
    )
    const unnamed = await post('/monitors/heartbeat', {
      name: '',
      interval_seconds: '3600',
      grace_minutes: '5',
      _csrf: csrf,
    })
    expect(unnamed.status).toBe(400)
    expect(unnamed.text).toMatch(/name/)
  })
})
