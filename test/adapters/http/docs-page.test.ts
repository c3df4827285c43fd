/**
 * The docs page in a real browser: Debian's chromium driven by playwright-core. It lists every tool
 * version, sends a request from the page and shows the response, loads nothing from another host,
 * and leaves a screenshot in the OS temp dir. Without chromium the test is skipped, except in CI.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { Expects, Exposes, Field, SemanticHints, Tool, ToolVersion } from 'toolwright';
import { HttpApiHandle, serveHttpApi } from 'toolwright/http';
import { chromiumFor, CHROMIUM_LAUNCH } from '../../helpers/chromium';

const available = chromiumFor('the docs page browser test');

class EchoInput {
  @Field({ description: 'Text to echo' }) text!: string;
}

@Tool('http', { description: 'Echoes text back' })
@ToolVersion(1)
@Expects(EchoInput)
@Exposes({ echoed: String })
class EchoV1 {
  call(input: EchoInput) {
    return { echoed: input.text };
  }
}

@Tool('http', { description: 'Echoes text back, shouting' })
@ToolVersion(2)
@Expects(EchoInput)
@Exposes({ echoed: String })
class EchoV2 {
  call(input: EchoInput) {
    return { echoed: input.text.toUpperCase() };
  }
}

@Tool('http', { name: 'clock', description: 'The server time' })
@SemanticHints('readOnly')
@Exposes({ now: String })
class Clock {
  call() {
    return { now: new Date(0).toISOString() };
  }
}

(available ? describe : describe.skip)('the docs page in headless chromium', () => {
  let api: HttpApiHandle;
  let context: BrowserContext;
  let profile: string;
  beforeAll(async () => {
    api = await serveHttpApi({ tools: [EchoV1, EchoV2, Clock], prefix: '/api', info: { title: 'Echo desk' } }, { port: 0 });
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-chromium-'));
    context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH, viewport: { width: 1280, height: 1400 } });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await api?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  it('lists every tool version, sends a request from the page and shows the response', async () => {
    const page = await context.newPage();
    const origin = new URL(api.url).origin;
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${api.url}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    await expect(page.locator('.info .title').innerText()).resolves.toContain('Echo desk');
    const listed = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(listed.map((text) => text.replace(/\u200b/g, '').trim()).sort()).toEqual([
      '/api/clock/v1',
      '/api/clock/v1',
      '/api/echo/v1',
      '/api/echo/v2',
    ]);

    const operation = page.locator('#operations-echo-echo_v2');
    await operation.locator('.opblock-summary').click();
    const body = operation.locator('textarea.body-param__text');
    await body.fill('{"text":"sent from the docs page"}');
    await operation.locator('button.execute').click();
    const response = operation.locator('.live-responses-table .response');
    await response.waitFor({ timeout: 20_000 });
    await expect(response.locator('.response-col_status').innerText()).resolves.toContain('200');
    await expect(response.locator('.response-col_description').innerText()).resolves.toContain('SENT FROM THE DOCS PAGE');

    const screenshot = path.join(os.tmpdir(), 'toolwright-http-docs.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(fs.statSync(screenshot).size).toBeGreaterThan(10_000);
    expect(elsewhere).toEqual([]); // the page's assets come from the package, not a CDN
  }, 60_000);
});
