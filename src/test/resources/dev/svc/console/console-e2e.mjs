// Drives the dev console (svc start --ui) in Debian's headless Chromium with playwright-core:
// DevConsoleIT runs it against a live svc. Arguments come in the environment:
//   SVC_URL          the server, e.g. http://127.0.0.1:8080
//   PLAYWRIGHT_DIR   where scripts/test-tools.sh put playwright-core
//   CHROMIUM         the browser (default /usr/bin/chromium); never a downloaded one
//   PROJECT          the project directory, whose files the reload step edits
//   SCREENSHOT       where to save the screenshot
//   SCENARIO         `tour` (default: every section, then reloads), `token` (a server with
//                    server.auth: the page asks for a token and sends it) or `hostile` (a
//                    project full of markup and large results: nothing runs, the page stays small)
// Each step prints "step: <name>"; a failure prints its reason and exits 1.
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(join(process.env.PLAYWRIGHT_DIR, 'package.json'));
const { chromium } = require('playwright-core');

const base = process.env.SVC_URL;
const project = process.env.PROJECT;
const profile = mkdtempSync(join(tmpdir(), 'svc-console-chromium-'));
const step = (name) => console.log('step: ' + name);

// a new empty profile each run (Playwright passes it as --user-data-dir)
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1366, height: 768 },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const problems = [];
const page = browser.pages()[0] ?? (await browser.newPage());
page.setDefaultTimeout(20000);
page.on('pageerror', (e) => problems.push('page error: ' + e.message));
page.on('console', (m) => {
  // the browser reports each refused request (401) as an error: expected in the token scenario
  // DOMPurify parses an answer's hostile markup in an inert document, where Chromium reports (and
  // blocks) the inline handler it holds as a CSP violation: expected, nothing ran
  const sanitizing =
    (m.location().url || '').endsWith('/ui/vendor/purify.js') && m.text().includes('Content Security Policy');
  if (m.type() === 'error' && !m.text().includes('401') && !sanitizing) {
    problems.push('console error: ' + m.text() + ' at ' + (m.location().url || '?'));
  }
});

/** A server with server.auth: the page asks for a token, and sends it on /mcp. */
async function token() {
  const sent = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/mcp') sent.push(r.headers()['authorization'] || '');
  });
  await page.goto(base + '/ui/');
  const field = page.getByLabel('Access token');
  await field.waitFor();
  await page.getByRole('status').filter({ hasText: 'needs an access token' }).waitFor();
  step('token asked');
  await field.fill('not-a-real-token');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('The server refused this token').waitFor();
  if (!sent.includes('Bearer not-a-real-token')) {
    throw new Error('the token was not sent on /mcp: ' + JSON.stringify(sent));
  }
  step('token sent');
}

/** Every section, then a refused and an accepted reload. */
async function tour() {
  await page.goto(base + '/ui/');
  await page.getByRole('status').filter({ hasText: 'connected' }).waitFor();
  step('opened');

  // keyboard: the sections are a tab list; the layout fits a laptop screen
  await page.getByRole('tab', { name: /Tools/ }).focus();
  await page.keyboard.press('ArrowDown');
  if ((await page.getByRole('tab', { name: /Prompts/ }).getAttribute('aria-selected')) !== 'true') {
    throw new Error('ArrowDown did not move to the next section');
  }
  await page.keyboard.press('Home');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error('the page scrolls sideways at 1366x768 by ' + overflow + ' px');
  step('keyboard and layout');

  // a tool: fill its generated form, call it, see the row
  await page.getByRole('tab', { name: /Tools/ }).click();
  await page.getByRole('button', { name: /^find_pet/ }).click();
  // descriptions are markdown
  await page.locator('.description code', { hasText: 'name' }).waitFor();
  await page.getByLabel('name', { exact: true }).fill('Rex');
  await page.getByRole('button', { name: 'Call' }).click();
  const call = page.locator('#calls li').first();
  await call.getByRole('cell', { name: 'dog' }).waitFor();
  await call.locator('.status', { hasText: 'ok' }).waitFor();
  step('tool called');

  // a prompt with an argument
  await page.getByRole('tab', { name: /Prompts/ }).click();
  await page.getByRole('button', { name: /^greet/ }).click();
  await page.getByLabel('who').fill('Ada');
  await page.getByRole('button', { name: 'Render' }).click();
  await page.locator('#prompt-output').getByText('Say hello to Ada.').waitFor();
  step('prompt rendered');

  // a resource
  await page.getByRole('tab', { name: /Resources/ }).click();
  await page.getByRole('button', { name: /^pets:\/\/guide/ }).click();
  await page.locator('#resource-output').getByText('Pets are friends.').waitFor();
  step('resource read');
  await page.getByRole('button', { name: /^pets:\/\/card\/\{name\}/ }).click();
  await page.locator('#resource-detail').getByLabel('name', { exact: true }).fill('Rex');
  await page.locator('#resource-detail').getByRole('button', { name: 'Read' }).click();
  await page.locator('#resource-output').getByText('Card of Rex').waitFor();
  step('template read');

  // the agent, streamed over A2A
  await page.getByRole('tab', { name: /Agents/ }).click();
  await page.getByRole('button', { name: /^helper/ }).click();
  await page.getByLabel('Message').fill('Which pets are there?');
  await page.getByLabel('Message').press('Enter');
  const answer = page.locator('#chat .bubble.agent').last();
  await answer.getByText('Rex is a dog.').waitFor();
  await answer.locator('.state', { hasText: 'completed' }).waitFor();
  // the answer is markdown, sanitised: no script, no handler, no javascript: link survives
  await answer.locator('strong', { hasText: 'dog' }).waitFor();
  const unsafe = await answer.evaluate((node) => ({
    scripts: node.querySelectorAll('script').length,
    handlers: node.querySelectorAll('[onclick]').length,
    links: [...node.querySelectorAll('a')].map((a) => a.getAttribute('href')).filter((h) => h && h.startsWith('javascript')),
    hacked: window.hacked,
  }));
  if (unsafe.scripts || unsafe.handlers || unsafe.links.length || unsafe.hacked !== undefined) {
    throw new Error('markdown from the agent ran or kept something unsafe: ' + JSON.stringify(unsafe));
  }
  step('agent answered');
  await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });

  // a reload under --watch: a new tool appears without a page refresh
  const marker = await page.evaluate(() => (window.__svcMarker = Math.random()));
  await page.getByRole('tab', { name: /Tools/ }).click();
  mkdirSync(join(project, 'app/tools/count_pets'), { recursive: true });
  // first a mistake: the page shows the diagnostic, the previous version still serves
  writeFileSync(
    join(project, 'app/tools/count_pets/config.terse'),
    'description: How many pets there are.\nuse: nowhere\nstatement: SELECT 3 AS pets\n',
  );
  const problems = page.getByRole('alert').filter({ hasText: 'not reloaded' });
  await problems.getByText(/count_pets\/config\.terse:2:\d+: error/).waitFor();
  step('reload refusal shown');
  writeFileSync(
    join(project, 'app/tools/count_pets/config.terse'),
    'description: How many pets there are.\nuse: db\nstatement: SELECT 3 AS pets\n',
  );
  await page.getByRole('button', { name: /^count_pets/ }).waitFor();
  await problems.waitFor({ state: 'hidden' });
  await page.getByRole('status').filter({ hasText: 'Reloaded' }).waitFor();
  if ((await page.evaluate(() => window.__svcMarker)) !== marker) {
    throw new Error('the page was loaded again instead of updated');
  }
  step('reload shown');

  // the log tail shows the reload
  await page.getByRole('tab', { name: 'Log' }).click();
  await page.locator('#log').getByText('reloaded').first().waitFor();
  // lines written before the page opened are there too
  await page.locator('#log').getByText('adapter ready').first().waitFor();
  step('log tailed');

}

/**
 * A project whose descriptions, rows, names and resource hold what an attacker could put there:
 * shown as text, nothing runs, nothing takes the place of the page's own elements, and a large
 * result or many calls leave the page a bounded size.
 */
async function hostile() {
  const foreign = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) foreign.push(r.url());
  });
  await page.goto(base + '/ui/');
  await page.getByRole('status').filter({ hasText: 'connected' }).waitFor();
  // the title takes the service's name when the event stream describes it, which may come after
  // the status says connected
  await page.waitForFunction(() => document.title.includes('·'));
  const title = await page.title();
  const untouched = async (where) => {
    const seen = await page.evaluate(() => ({ hacked: window.hacked, title: document.title }));
    if (seen.hacked !== undefined || seen.title !== title || foreign.length) {
      throw new Error(where + ': a payload ran: ' + JSON.stringify({ ...seen, foreign }));
    }
  };

  // a description's markup keeps what markdown makes: no form, no style, no id of the page's own
  await page.getByRole('button', { name: /^rows/ }).click();
  const description = page.locator('#tool-detail .description');
  await description.waitFor();
  const kept = await description.evaluate((node) =>
    [...node.querySelectorAll('*')]
      .filter((e) => !['P', 'A', 'B', 'CODE', 'EM', 'STRONG'].includes(e.tagName) || e.id || e.hasAttribute('class') || e.hasAttribute('style'))
      .map((e) => e.outerHTML),
  );
  if (kept.length) throw new Error('the description kept markup of its own: ' + kept.join(' '));
  step('description sanitised');

  // rows from a table anyone could write to: text in cells, in the page's own call list
  await page.locator('#tool-detail').getByRole('button', { name: 'Call' }).click();
  const row = page.locator('ol.calls > li').first();
  await row.getByText('<img src=x onerror=').waitFor();
  const longest = await row.locator('td').evaluateAll((cells) => Math.max(...cells.map((c) => c.textContent.length)));
  if (longest > 2000) throw new Error('a cell shows all of its ' + longest + ' characters');
  await untouched('rows');
  step('rows shown as text');

  // 5000 rows: the first 200 are drawn, and the page says so
  await page.getByRole('button', { name: /^many/ }).click();
  await page.locator('#tool-detail').getByRole('button', { name: 'Call' }).click();
  const many = page.locator('ol.calls > li').first();
  await many.getByText('the first 200 of 5,000 rows').waitFor();
  const drawn = await many.locator('tbody tr').count();
  if (drawn !== 200) throw new Error(drawn + ' rows drawn of 5000');
  step('large result bounded');

  // calls keep coming: the oldest rows go; a description of one long word wraps
  await page.getByRole('button', { name: /^one/ }).click();
  await page.locator('#tool-detail .description').getByText('One row').waitFor();
  const widths = await page.locator('#tool-detail').evaluate((node) => [node.scrollWidth, node.clientWidth]);
  if (widths[0] > widths[1]) throw new Error('a long word widens the form to ' + widths[0] + ' px (of ' + widths[1] + ')');
  for (let i = 0; i < 55; i++) {
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/mcp') && r.request().postData().includes('tools/call')),
      page.locator('#tool-detail').getByRole('button', { name: 'Call' }).click(),
    ]);
    await page.waitForFunction(() => !document.querySelector('#tool-detail button[type=submit]').disabled);
  }
  const rows = await page.locator('ol.calls > li').count();
  if (rows !== 50) throw new Error(rows + ' call rows kept');
  step('call rows bounded, long words wrapped');

  // an input named __proto__ is sent like any other
  await page.getByRole('button', { name: /^proto/ }).click();
  await page.locator('#tool-detail').getByLabel('__proto__', { exact: true }).fill('kept');
  await page.locator('#tool-detail').getByRole('button', { name: 'Call' }).click();
  await page.locator('ol.calls > li').first().locator('td', { hasText: 'kept' }).waitFor();
  step('input named __proto__ sent');

  // a prompt named like a part of the page renders into the output, not over its own form
  await page.getByRole('tab', { name: 'Prompts' }).click();
  await page.getByRole('button', { name: /^output/ }).click();
  await page.locator('#prompt-detail').getByRole('button', { name: 'Render' }).click();
  await page.locator('div#prompt-output').getByText('<script>window.hacked = 5</script>').waitFor();
  await page.locator('#prompt-detail').getByRole('button', { name: 'Render' }).waitFor();
  step('prompt rendered in its place');

  // a resource of HTML is text
  await page.getByRole('tab', { name: 'Resources' }).click();
  await page.getByRole('button', { name: /^evil:\/\/page/ }).click();
  await page.locator('#resource-output').getByText('<script>window.hacked = 6</script>').waitFor();
  await untouched('resource');
  step('resource shown as text');

  // markdown marked cannot parse (quotes 6,000 deep), or not in reasonable time (20,000
  // characters of `**a `), is shown as written, and the tool's form is there
  await page.getByRole('tab', { name: /Tools/ }).click();
  await page.getByRole('button', { name: /^quotes/ }).click();
  await page.locator('#tool-detail .description').getByText('>>> deep').waitFor();
  await page.locator('#tool-detail').getByRole('button', { name: 'Call' }).waitFor();
  await page.getByRole('button', { name: /^stars/ }).click();
  await page.locator('#tool-detail .description').getByText('**a **a **a').waitFor();
  await page.locator('#tool-detail').getByRole('button', { name: 'Call' }).waitFor();
  step('markdown marked cannot parse shown as text');

  await page.getByRole('tab', { name: /Agents/ }).click();
  await page.getByRole('button', { name: /^echo/ }).click();
  await page.getByLabel('Message').fill('Say it.');
  await page.getByLabel('Message').press('Enter');
  const answer = page.locator('#chat .bubble.agent').last();
  await answer.locator('.state', { hasText: /completed|failed/ }).waitFor();
  if (!(await answer.locator('.text').textContent()).endsWith('>>> deep')) {
    throw new Error('the answer is not shown: ' + (await answer.innerText()).slice(-200));
  }
  await untouched('answer');
  step('answer marked cannot parse shown as text');
}

const scenarios = { token, tour, hostile };

try {
  await scenarios[process.env.SCENARIO || 'tour']();
  if (problems.length) throw new Error(problems.join('\n'));
  console.log('all steps passed');
} catch (e) {
  console.log('FAILED: ' + e.message + (problems.length ? '\n' + problems.join('\n') : ''));
  process.exitCode = 1;
  await page.screenshot({ path: process.env.SCREENSHOT.replace(/\.png$/, '-failed.png') }).catch(() => {});
} finally {
  await browser.close();
}
