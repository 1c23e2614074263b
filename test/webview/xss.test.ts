// Hostile model output, rendered in the real view under its real CSP, final and streamed in
// pieces: no script runs (a sentinel replaces alert/prompt/confirm), the live view holds no
// handler, script URL or active element, nothing loads from anywhere, the view never navigates.
// CSP reports are collected, but only reports from the live page count: Chromium also reports
// markup parsed into a detached document, which never ran.
//
// Our own corpus (test/fixtures/xss/payloads.json) always runs. DOMPurify's 223 regression
// payloads run in addition when the shared test data sits next to the checkout
// (../shared/testdata/xss, or SEXTANT_XSS_PAYLOADS); a clone without it says so and skips them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, message, snapshot, snapshotMessage } from './fixtures';

interface Payload {
  id: number;
  title: string;
  payload: string;
  family?: string;
}

const OWN_CORPUS = join(process.cwd(), 'test', 'fixtures', 'xss', 'payloads.json');
const own = (JSON.parse(readFileSync(OWN_CORPUS, 'utf8')) as { payloads: Payload[] }).payloads;

const SHARED_CORPUS =
  process.env.SEXTANT_XSS_PAYLOADS ?? join(process.cwd(), '..', 'shared', 'testdata', 'xss', 'dompurify-payloads.json');
const shared: Payload[] | undefined = existsSync(SHARED_CORPUS)
  ? (JSON.parse(readFileSync(SHARED_CORPUS, 'utf8')) as Payload[])
  : undefined;
const sharedNote = shared
  ? `DOMPurify corpus: ${shared.length} payloads from ${SHARED_CORPUS}`
  : `DOMPurify corpus not found at ${SHARED_CORPUS} (it lives in the shared test data next to the checkout): skipped`;
console.log(`# xss: own corpus ${own.length} payloads; ${sharedNote}`);

/** The payload, made to set a sentinel global wherever it would call alert/prompt/confirm. */
function withSentinel(payload: string): string {
  return payload.replace(/\b(alert|prompt|confirm|print|msgbox)\s*\(/g, 'window.__xss=1;$1(');
}

const env = useViewEnvironment();

interface Findings {
  sentinel: unknown;
  dangerous: string[];
  liveViolations: Array<{ directive: string; blocked: string }>;
}

async function inspect(view: ViewHarness): Promise<Findings> {
  return view.page.evaluate(() => {
    const dangerous: string[] = [];
    const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background'];
    const ACTIVE = ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FORM', 'STYLE', 'LINK', 'META', 'BASE', 'SVG', 'MATH'];
    const INTERACTIVE = ['INPUT', 'TEXTAREA', 'BUTTON', 'SELECT', 'VIDEO', 'AUDIO', 'TEMPLATE', 'NOSCRIPT'];
    for (const el of document.querySelectorAll('sx-markdown *')) {
      const tag = el.tagName.toUpperCase();
      // The copy button on code blocks is ours, added after sanitising.
      if (
        tag === 'BUTTON' &&
        el.classList.contains('copy-code') &&
        el.parentElement?.classList.contains('code-block')
      ) {
        continue;
      }
      for (const attr of el.attributes) {
        const v = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (attr.name.startsWith('on')) dangerous.push(`${tag} ${attr.name}`);
        if (URL_ATTRS.includes(attr.name) && /^(?:javascript|vbscript|data:text\/html)/.test(v)) {
          dangerous.push(`${tag} ${attr.name}=${attr.value.slice(0, 40)}`);
        }
        if (['style', 'srcset', 'action', 'formaction', 'xlink:href', 'background', 'poster'].includes(attr.name)) {
          dangerous.push(`${tag} ${attr.name}`);
        }
      }
      // Typeset math is ours (math-render.ts: KaTeX's MathML through DOMPurify's MathML profile): a <math> whose
      // every element is MathML; the attribute checks above still run on each of them.
      const MATHML = 'http://www.w3.org/1998/Math/MathML';
      const typeset = tag === 'MATH' && [el, ...el.querySelectorAll('*')].every((d) => d.namespaceURI === MATHML);
      if ((ACTIVE.includes(tag) && !typeset) || INTERACTIVE.includes(tag)) dangerous.push(tag);
      if (tag === 'IMG' && !/^data:image\/(?:png|gif|jpe?g|webp);/i.test(el.getAttribute('src') ?? '')) {
        dangerous.push(`IMG src=${el.getAttribute('src')}`);
      }
      // Classes come only from our renderer: code languages, image links, math and charts (rich-blocks.ts).
      for (const cls of el.classList) {
        const ours = /^(?:math-inline|rich-(?:block|math|chart|error|error-message|error-inline)|report-chart)$/;
        if (!/^(?:language-[\w+#.-]+|image-link|code-block|copy-code|md-chunk)$/.test(cls) && !ours.test(cls)) {
          dangerous.push(`${tag} class=${cls}`);
        }
      }
    }
    if (document.baseURI !== `${location.origin}/`) dangerous.push(`base URI changed to ${document.baseURI}`);
    const w = window as unknown as {
      __xss?: unknown;
      __violations: Array<{ directive: string; blocked: string; live: boolean }>;
    };
    const liveViolations = w.__violations
      .filter((v) => v.live)
      .map(({ directive, blocked }) => ({ directive, blocked }));
    return { sentinel: w.__xss, dangerous, liveViolations };
  });
}

function assertClean(view: ViewHarness, f: Findings, label: string, navigationsBefore: number): void {
  assert.equal(f.sentinel, undefined, `${label}: a script ran`);
  assert.deepEqual(view.dialogs, [], `${label}: a dialog opened`);
  assert.deepEqual(f.dangerous, [], `${label}: dangerous markup reached the live view`);
  assert.deepEqual(f.liveViolations, [], `${label}: the CSP had to refuse something in the live view`);
  assert.deepEqual(view.foreignRequests, [], `${label}: a request left the view`);
  assert.equal(view.navigations.length, navigationsBefore, `${label}: the view navigated`);
  assert.deepEqual(view.pageErrors, [], `${label}: page error`);
}

async function finalRenders(payloads: Payload[]): Promise<void> {
  const view = await env.open();
  try {
    const navigations = view.navigations.length;
    for (const p of payloads) {
      const messages = [message('user', 'q'), message('assistant', withSentinel(p.payload))];
      await deliver(view, snapshotMessage(snapshot({ messages })));
      await view.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      assertClean(view, await inspect(view), `payload ${p.id} (${p.title})`, navigations);
    }
    // Late events (image errors, timers) get a moment to fire.
    await view.page.waitForTimeout(300);
    assertClean(view, await inspect(view), 'after all payloads', navigations);
  } finally {
    await view.close();
  }
}

async function streamedRenders(payloads: Payload[]): Promise<void> {
  const view = await env.open();
  try {
    await deliver(view, snapshotMessage(snapshot()));
    const navigations = view.navigations.length;
    for (const [i, p] of payloads.entries()) {
      const text = withSentinel(p.payload);
      const r = new RequestScript(`x-${p.id}-${i}`);
      const third = Math.ceil(text.length / 3);
      await deliver(view, r.events(r.started('render this'), { type: 'text_delta', text: text.slice(0, third) }));
      assertClean(view, await inspect(view), `payload ${p.id} streamed, first third`, navigations);
      await deliver(view, r.events({ type: 'text_delta', text: text.slice(third, 2 * third) }));
      await deliver(view, r.events({ type: 'text_delta', text: `${text.slice(2 * third)}\n\n` }));
      await deliver(view, r.events({ type: 'complete' }));
      assertClean(view, await inspect(view), `payload ${p.id} streamed`, navigations);
      // Keep the page small: start over every so often.
      if (i % 40 === 39) await deliver(view, snapshotMessage(snapshot()));
    }
    await view.page.waitForTimeout(300);
    assertClean(view, await inspect(view), 'after all streamed payloads', navigations);
  } finally {
    await view.close();
  }
}

describe(`XSS: our own corpus (${own.length} payloads) as model output`, () => {
  it('covers every family: handlers, script URLs, SVG/MathML, mXSS, unclosed containers, remote images', () => {
    const families = new Set(own.map((p) => p.family));
    for (const f of ['handler', 'url', 'namespace', 'mxss', 'unclosed', 'image']) assert.ok(families.has(f), f);
  });
  it('final render: nothing runs, loads, navigates or reaches the live view', () => finalRenders(own));
  it('streamed render: every partial is clean too', () => streamedRenders(own));
});

describe('XSS: DOMPurify regression corpus as model output', { skip: shared ? false : sharedNote }, () => {
  it('final render: nothing runs, loads, navigates or reaches the live view', () => finalRenders(shared ?? []));
  it('streamed render: every partial is clean too', () => streamedRenders(shared ?? []));
});

describe('XSS detectors', () => {
  it('catch unsanitised markup injected into the live page, and ignore detached parses', async () => {
    const view = await env.open();
    try {
      await deliver(view, snapshotMessage(snapshot({ messages: [message('assistant', 'hello')] })));
      await view.page.evaluate(() => {
        // A detached parse with a handler: reported by some Chromium versions, never run.
        new DOMParser().parseFromString('<input onclick="window.__xss=1">', 'text/html');
        const md = document.querySelector('sx-markdown');
        md?.insertAdjacentHTML(
          'beforeend',
          '<img src="x" onerror="window.__xss=1"><img src="https://evil.example/p.png">',
        );
      });
      await view.page.waitForFunction(
        () =>
          (window as unknown as { __violations: Array<{ live: boolean }> }).__violations.filter((v) => v.live).length >=
          2,
      );
      const f = await inspect(view);
      assert.equal(f.sentinel, undefined, 'the CSP stops an inline handler');
      assert.ok(f.dangerous.some((d) => d.includes('onerror')));
      assert.ok(f.liveViolations.some((v) => v.directive.startsWith('script-src')));
      assert.ok(f.liveViolations.some((v) => v.directive.startsWith('img-src') && v.blocked.includes('evil.example')));
      const all = await view.violations();
      assert.ok(
        all.filter((v) => !v.live).every((v) => v.blocked === 'inline'),
        'a detached report is never counted as live',
      );
    } finally {
      await view.close();
    }
  });
});
