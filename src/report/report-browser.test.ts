/**
 * Opens written reports in headless Chromium (the npm package's build, or `CHROMIUM_PATH`;
 * driven by playwright-core, which never downloads a browser): no console error, nothing
 * fetched, every chart drawn.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Summary } from '../result/index.ts';
import { fixtureSummary, standardFixture } from '../result/testing/index.ts';
import { CHART_NAMES } from './charts/index.ts';
import { resolveChromium } from './testing/index.ts';
import { writeReport } from './write-report.ts';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let launched: Promise<Browser> | undefined;

async function launch(): Promise<Browser> {
  const { path } = await resolveChromium();
  try {
    return await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new Error(
      `Chromium at ${path} did not start (\`ldd ${path} | grep 'not found'\` names a missing system library; it needs libnss3 and libnspr4): ${(error as Error).message}`,
    );
  }
}

/** Launched once, by the first test; each test fails (none is skipped) when Chromium cannot start. */
function browser(): Promise<Browser> {
  launched ??= launch();
  return launched;
}

afterAll(async () => {
  if (launched) await (await launched).close();
});

interface OpenedReport {
  page: Page;
  dir: string;
  errors: string[];
  /** Every URL the page asked for besides itself. */
  fetched: string[];
}

async function openReport(summary: Summary): Promise<OpenedReport> {
  const dir = await writeReport(summary, { dir: join(mkdtempSync(join(tmpdir(), 'longrun-browser-')), 'report') });
  const url = pathToFileURL(join(dir, 'report.html')).href;
  const page = await (await browser()).newPage();
  const errors: string[] = [];
  const fetched: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('request', (request) => {
    if (request.url() !== url) fetched.push(request.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, dir, errors, fetched };
}

async function drawnMarks(page: Page, chart: string): Promise<number> {
  return page.locator(`svg[data-chart="${chart}"]`).locator('path, rect, circle').count();
}

describe('report.html in headless Chromium', () => {
  it('opens with no console error, fetches nothing, and draws every chart', async () => {
    const { page, errors, fetched } = await openReport(standardFixture());
    for (const chart of CHART_NAMES) {
      const svg = page.locator(`svg[data-chart="${chart}"]`);
      await expect(svg.count(), chart).resolves.toBe(1);
      expect(await drawnMarks(page, chart), chart).toBeGreaterThan(0);
      const box = await svg.boundingBox();
      expect(box?.width ?? 0, chart).toBeGreaterThan(300);
      expect(box?.height ?? 0, chart).toBeGreaterThan(100);
      const mark = await svg.locator('path, rect, circle').first().boundingBox();
      expect((mark?.width ?? 0) + (mark?.height ?? 0), chart).toBeGreaterThan(0);
    }
    expect(await page.locator('#partial').isVisible()).toBe(true);
    expect(await page.locator('#verdict').textContent()).toBe('FAILED');
    expect(errors).toEqual([]);
    expect(fetched).toEqual([]);
    await page.close();
  });

  it('filters the runs table to the failing runs', async () => {
    const { page, errors } = await openReport(standardFixture());
    const visibleRows = () => page.locator('#runs-table tbody tr:visible').count();
    expect(await visibleRows()).toBe(3);
    await page.locator('#only-failing').check();
    expect(await visibleRows()).toBe(1);
    expect(await page.locator('#runs-table tbody tr:visible code').first().textContent()).toBe('v0-0001');
    await page.locator('#only-failing').uncheck();
    expect(await visibleRows()).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('writes a junit.xml that a real XML parser accepts', async () => {
    const { page, dir } = await openReport(standardFixture());
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate(`(() => {
      const doc = new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml');
      return { errors: doc.getElementsByTagName('parsererror').length, testcases: doc.getElementsByTagName('testcase').length };
    })()`);
    expect(parsed).toEqual({ errors: 0, testcases: xml.match(/<testcase /g)?.length });
    await page.close();
  });

  it('shows "no data" for every chart of an empty summary, without errors', async () => {
    const { page, errors } = await openReport(fixtureSummary([]));
    for (const chart of CHART_NAMES) {
      expect(await drawnMarks(page, chart), chart).toBe(0);
      expect(await page.locator(`svg[data-chart="${chart}"]`).textContent(), chart).toMatch(/^No data: /);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('stays usable with hundreds of runs', async () => {
    const { page, errors } = await openReport(standardFixture({ extraRuns: 300, extraRunTurns: 300 }));
    expect(await page.locator('svg[data-chart="request-bytes"] path.series').count()).toBe(20);
    expect(await page.locator('svg[data-chart="request-bytes"] path.band').count()).toBe(1);
    expect(await page.locator('#runs-table tbody tr').count()).toBe(303);
    expect(errors).toEqual([]);
    await page.close();
  });
});
