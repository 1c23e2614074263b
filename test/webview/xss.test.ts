// Every payload of DOMPurify's own XSS corpus, rendered as model output (final and streamed in
// pieces), must run no script, navigate nowhere and request nothing. The checks do not lean on
// the CSP alone: a handler or script the sanitiser let through would be refused by the CSP and
// show up as a violation, and the DOM of the rendered answer is searched for handlers and
// javascript: URLs directly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, message, snapshot, snapshotMessage } from './fixtures';

// The shared test data sits next to the checkout (../shared); the runner starts in the repository root.
const PAYLOADS_PATH =
  process.env.SEXTANT_XSS_PAYLOADS ??
  [
    join(process.cwd(), '..', 'shared', 'testdata', 'xss', 'dompurify-payloads.json'),
    '/work/shared/testdata/xss/dompurify-payloads.json',
  ].find((p) => existsSync(p)) ??
  join(process.cwd(), '..', 'shared', 'testdata', 'xss', 'dompurify-payloads.json');
const payloads = JSON.parse(readFileSync(PAYLOADS_PATH, 'utf8')) as Array<{
  id: number;
  title: string;
  payload: string;
}>;

/** The payload, made to set a sentinel global wherever it would call alert/prompt/confirm. */
function withSentinel(payload: string): string {
  return payload.replace(/\b(alert|prompt|confirm|print)\s*\(/g, 'window.__xss=1;$1(');
}

const env = useViewEnvironment();

interface Findings {
  sentinel: unknown;
  dangerous: string[];
  violations: Array<{ directive: string; blocked: string }>;
}

async function inspect(view: ViewHarness): Promise<Findings> {
  return view.page.evaluate(() => {
    const dangerous: string[] = [];
    for (const el of document.querySelectorAll('sx-markdown *')) {
      for (const attr of el.attributes) {
        const v = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (attr.name.startsWith('on')) dangerous.push(`${el.tagName} ${attr.name}`);
        const urlAttr = [
          'href',
          'src',
          'action',
          'formaction',
          'xlink:href',
          'data',
          'codebase',
          'cite',
          'background',
          'poster',
          'dynsrc',
          'lowsrc',
        ].includes(attr.name);
        if (urlAttr && /^(?:javascript|vbscript|data:text\/html)/.test(v))
          dangerous.push(`${el.tagName} ${attr.name}=${attr.value.slice(0, 40)}`);
        if (['style', 'srcset', 'action', 'formaction', 'xlink:href', 'background', 'poster'].includes(attr.name))
          dangerous.push(`${el.tagName} ${attr.name}`);
      }
      if (
        [
          'SCRIPT',
          'IFRAME',
          'OBJECT',
          'EMBED',
          'FORM',
          'STYLE',
          'LINK',
          'META',
          'BASE',
          'SVG',
          'MATH',
          'INPUT',
          'TEXTAREA',
        ].includes(el.tagName.toUpperCase())
      )
        dangerous.push(el.tagName);
      if (el.tagName === 'IMG' && !/^data:image\/(?:png|gif|jpe?g|webp);/i.test(el.getAttribute('src') ?? ''))
        dangerous.push(`IMG src=${el.getAttribute('src')}`);
    }
    const w = window as unknown as { __xss?: unknown; __violations: Array<{ directive: string; blocked: string }> };
    // Chromium reports an inline style (attribute or <style>) and a <base> as soon as any parser
    // in the page meets one, including the inert document DOMPurify parses into before removing
    // them; so those reports say nothing about what survived. The DOM check above catches a
    // surviving style or base, and the document's base URL is checked below.
    if (document.baseURI !== `${location.origin}/`) dangerous.push(`base URI changed to ${document.baseURI}`);
    const parserNoise = (v: { directive: string; blocked: string }): boolean =>
      (v.directive.startsWith('style-src') && v.blocked === 'inline') || v.directive === 'base-uri';
    return { sentinel: w.__xss, dangerous, violations: w.__violations.filter((v) => !parserNoise(v)) };
  });
}

function assertClean(view: ViewHarness, f: Findings, label: string, navigationsBefore: number): void {
  assert.equal(f.sentinel, undefined, `${label}: a script ran`);
  assert.deepEqual(view.dialogs, [], `${label}: a dialog opened`);
  assert.deepEqual(f.dangerous, [], `${label}: dangerous markup survived`);
  assert.deepEqual(f.violations, [], `${label}: the CSP had to refuse something the sanitiser let through`);
  assert.deepEqual(view.foreignRequests, [], `${label}: a remote request was made`);
  assert.equal(view.navigations.length, navigationsBefore, `${label}: the view navigated`);
  assert.deepEqual(view.pageErrors, [], `${label}: page error`);
}

describe(`XSS corpus (${payloads.length} payloads) as model output`, () => {
  it('the corpus is the expected one', () => {
    assert.equal(payloads.length, 223);
  });

  it('final render: no payload runs script, loads anything or navigates', async () => {
    const view = await env.open();
    try {
      const navigations = view.navigations.length;
      for (const p of payloads) {
        await deliver(
          view,
          snapshotMessage(
            snapshot({ messages: [message('user', 'q'), message('assistant', withSentinel(p.payload))] }),
          ),
        );
        await view.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
        assertClean(view, await inspect(view), `payload ${p.id} (${p.title})`, navigations);
      }
      // Late events (image errors, timers) get a moment to fire.
      await view.page.waitForTimeout(300);
      assertClean(view, await inspect(view), 'after all payloads', navigations);
    } finally {
      await view.close();
    }
  });

  it('streamed render: every partial of every payload is clean too', async () => {
    const view = await env.open();
    try {
      await deliver(view, snapshotMessage(snapshot()));
      const navigations = view.navigations.length;
      for (const p of payloads) {
        const text = withSentinel(p.payload);
        const r = new RequestScript(`x-${p.id}`);
        const third = Math.ceil(text.length / 3);
        await deliver(view, r.events(r.started('render this'), { type: 'text_delta', text: text.slice(0, third) }));
        await deliver(view, r.events({ type: 'text_delta', text: text.slice(third, 2 * third) }));
        await deliver(view, r.events({ type: 'text_delta', text: `${text.slice(2 * third)}\n\n` }));
        await deliver(view, r.events({ type: 'complete' }));
        assertClean(view, await inspect(view), `payload ${p.id} streamed`, navigations);
        // Keep the page small: start over every so often.
        if (p.id % 40 === 39) await deliver(view, snapshotMessage(snapshot()));
      }
      await view.page.waitForTimeout(300);
      assertClean(view, await inspect(view), 'after all streamed payloads', navigations);
    } finally {
      await view.close();
    }
  });

  it('the detectors work: unsanitised markup injected into the page is caught', async () => {
    const view = await env.open();
    try {
      await deliver(view, snapshotMessage(snapshot({ messages: [message('assistant', 'hello')] })));
      await view.page.evaluate(() => {
        const md = document.querySelector('sx-markdown')!;
        md.insertAdjacentHTML(
          'beforeend',
          '<img src="x" onerror="window.__xss=1"><img src="https://evil.example/p.png">',
        );
      });
      await view.page.waitForFunction(
        () => (window as unknown as { __violations: unknown[] }).__violations.length >= 2,
      );
      const f = await inspect(view);
      assert.equal(f.sentinel, undefined, 'the CSP stops an inline handler');
      assert.ok(f.dangerous.some((d) => d.includes('onerror')));
      assert.ok(f.violations.some((v) => v.directive.startsWith('script-src')));
      assert.ok(f.violations.some((v) => v.directive.startsWith('img-src') && v.blocked.includes('evil.example')));
    } finally {
      await view.close();
    }
  });
});
