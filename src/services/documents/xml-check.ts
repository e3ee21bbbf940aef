/**
 * What an uploaded XML document must be before it is stored: well-formed XML (fast-xml-parser's
 * validator), without a DOCTYPE (entity definitions are how XML bombs and external-entity reads are
 * carried; e-invoice documents never need one) and without anything a browser or viewer would run:
 * a `script` element in any namespace, an `on…` event-handler attribute, a `javascript:` or
 * `data:text/html` link, or an `xml-stylesheet` instruction. Pure.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlCheck = { ok: true } | { ok: false; kind: 'malformed' | 'active'; detail: string };

const ATTRS = '@_';

function activeContent(node: unknown, stack: unknown[] = []): string | undefined {
  const work: unknown[] = [node, ...stack];
  while (work.length) {
    const n = work.pop();
    if (Array.isArray(n)) {
      work.push(...n);
      continue;
    }
    if (n === null || typeof n !== 'object') continue;
    for (const [key, value] of Object.entries(n as Record<string, unknown>)) {
      if (key === ':@' && value && typeof value === 'object') {
        for (const [attr, attrValue] of Object.entries(value as Record<string, unknown>)) {
          const name = attr.slice(ATTRS.length).split(':').pop()!.toLowerCase();
          if (name.startsWith('on')) return `an event-handler attribute (${attr.slice(ATTRS.length)})`;
          const text = String(attrValue).replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
          if (text.startsWith('javascript:') || text.startsWith('vbscript:') || text.startsWith('data:text/html')) return `a script link in ${attr.slice(ATTRS.length)}`;
        }
        continue;
      }
      const local = key.split(':').pop()!.toLowerCase();
      if (local === 'script') return 'a script element';
      if (key === '?xml-stylesheet') return 'an xml-stylesheet instruction';
      work.push(value);
    }
  }
  return undefined;
}

export function checkXml(content: Buffer): XmlCheck {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(text)) return { ok: false, kind: 'active', detail: 'must not have a DOCTYPE (entity definitions are not accepted)' };
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) return { ok: false, kind: 'malformed', detail: `is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  const tree = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: ATTRS, processEntities: false, ignoreDeclaration: false, ignorePiTags: false }).parse(text) as unknown;
  const active = activeContent(tree);
  if (active) return { ok: false, kind: 'active', detail: `must not contain ${active}` };
  return { ok: true };
}
