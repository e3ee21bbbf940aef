/**
 * What an uploaded XML document must be before it is stored: an e-invoice, that is a UBL 2.1
 * `Invoice`, `CreditNote` or `DebitNote` root in its UBL namespace (what LHDN MyInvois exchanges, and
 * the only XML the service has a use for), well-formed (fast-xml-parser's validator), at most
 * XML_MAX_BYTES and XML_MAX_DEPTH levels deep, without a DOCTYPE (entity definitions carry XML bombs
 * and external-entity reads; e-invoices never need one), and without anything a browser or viewer
 * would run, checked on the decoded values (character references undone): a `script` element in any
 * namespace, any element in the XHTML or SVG namespace, an `on…` event-handler or
 * `srcdoc` attribute, a `javascript:`, `vbscript:` or `data:` link in any attribute value (each item
 * of a `values` list included), or an `xml-stylesheet` instruction. Any other XML (SVG, XHTML, a
 * UBL-looking root in no namespace) is not an accepted type.
 *
 * Pure and synchronous; the request path runs it in a worker thread with a time bound
 * (xml-check-thread.ts), since parsing a large document takes long enough to stall the event loop.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlCheck =
  | { ok: true }
  /** `malformed`: not well-formed; `foreign`: well-formed but not an e-invoice; `active`: script or entity definitions; `limit`: too large, too deep, or too long to check. */
  | { ok: false; kind: 'malformed' | 'foreign' | 'active' | 'limit'; detail: string };

/** The largest XML document taken: MyInvois itself accepts at most 300 KB per document. */
export const XML_MAX_BYTES = 512 * 1024;
/** The deepest element nesting taken (a signed UBL invoice nests about 12 levels). */
export const XML_MAX_DEPTH = 64;

/** The e-invoice roots and the UBL 2.1 namespace each must be in. */
const UBL_ROOTS: Record<string, string> = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  DebitNote: 'urn:oasis:names:specification:ubl:schema:xsd:DebitNote-2',
};

const ATTRS = '@_';
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An attribute value as a reader sees it: character and predefined entity references undone; undefined for an undefined entity. */
function decodeReferences(raw: string): string | undefined {
  let bad = false;
  const text = raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);?/g, (_m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const named = NAMED_ENTITIES[ref];
    if (named === undefined) bad = true;
    return named ?? '';
  });
  return bad ? undefined : text;
}

/** Whether a (decoded) attribute value is, or lists, a link that runs script or carries a document. */
function scriptLink(value: string): boolean {
  return value.split(/[;,]/).some((item) => {
    // Browsers skip whitespace and control characters anywhere in a scheme (`java\tscript:`).
    const text = item.replace(/[\s\u0000-\u001f\u007f]/g, '').toLowerCase();
    return text.startsWith('javascript:') || text.startsWith('vbscript:') || text.startsWith('data:');
  });
}

type Node = Record<string, unknown>;
type Scope = Record<string, string>;
const isElementKey = (key: string) => key !== ':@' && key !== '#text' && !key.startsWith('?');

/** The vocabularies a browser renders (and runs) inside any XML document; an e-invoice uses neither. */
const RENDERED_NAMESPACES: Record<string, string> = { 'http://www.w3.org/1999/xhtml': 'an XHTML element', 'http://www.w3.org/2000/svg': 'an SVG element' };

function activeAttribute(attrs: Node): XmlCheck | undefined {
  for (const [attr, attrValue] of Object.entries(attrs)) {
    const qualified = attr.slice(ATTRS.length);
    const name = qualified.split(':').pop()!.toLowerCase();
    if (name.startsWith('on')) return { ok: false, kind: 'active', detail: `must not contain an event-handler attribute (${qualified})` };
    if (name === 'srcdoc') return { ok: false, kind: 'active', detail: `must not contain a script-capable srcdoc attribute (${qualified})` };
    const decoded = decodeReferences(String(attrValue));
    if (decoded === undefined) return { ok: false, kind: 'malformed', detail: `is not well-formed XML (an undefined entity in ${qualified})` };
    if (scriptLink(decoded)) return { ok: false, kind: 'active', detail: `must not contain a script link in ${qualified}` };
  }
  return undefined;
}

/** The first thing in the document a browser would run, each element read in its namespace. */
function activeContent(tree: unknown): XmlCheck | undefined {
  const work: { nodes: unknown; scope: Scope }[] = [{ nodes: tree, scope: {} }];
  while (work.length) {
    const { nodes, scope } = work.pop()!;
    for (const n of Array.isArray(nodes) ? (nodes as Node[]) : []) {
      if (n === null || typeof n !== 'object') continue;
      const attrs = (n[':@'] ?? {}) as Node;
      const refused = activeAttribute(attrs);
      if (refused) return refused;
      for (const [key, value] of Object.entries(n)) {
        if (key === '?xml-stylesheet') return { ok: false, kind: 'active', detail: 'must not contain an xml-stylesheet instruction' };
        if (!isElementKey(key)) continue;
        const own: Scope = { ...scope };
        for (const [attr, v] of Object.entries(attrs)) {
          if (attr === `${ATTRS}xmlns`) own[''] = String(v);
          else if (attr.startsWith(`${ATTRS}xmlns:`)) own[attr.slice(ATTRS.length + 'xmlns:'.length)] = String(v);
        }
        const [prefix, local] = key.includes(':') ? key.split(':', 2) : ['', key];
        if (local!.toLowerCase() === 'script') return { ok: false, kind: 'active', detail: `must not contain a script element (${key})` };
        const rendered = RENDERED_NAMESPACES[own[prefix!] ?? ''];
        if (rendered) return { ok: false, kind: 'active', detail: `must not contain ${rendered}, which a browser would render and could script (${key})` };
        work.push({ nodes: value, scope: own });
      }
    }
  }
  return undefined;
}

/** The document's root, when it is a UBL e-invoice root in its namespace; otherwise why not. */
function eInvoiceRoot(tree: unknown): XmlCheck {
  const nodes = (Array.isArray(tree) ? tree : []) as Node[];
  const roots = nodes.flatMap((n) => Object.keys(n).filter(isElementKey).map((key) => ({ key, attrs: (n[':@'] ?? {}) as Node })));
  const expected = `a UBL e-invoice (an Invoice, CreditNote or DebitNote root in its UBL 2.1 namespace)`;
  if (roots.length !== 1) return { ok: false, kind: 'foreign', detail: `is not ${expected}` };
  const { key, attrs } = roots[0]!;
  const [prefix, local] = key.includes(':') ? key.split(':', 2) : [undefined, key];
  const namespace = attrs[prefix === undefined ? `${ATTRS}xmlns` : `${ATTRS}xmlns:${prefix}`];
  if (!local || UBL_ROOTS[local] === undefined || namespace !== UBL_ROOTS[local]) {
    return { ok: false, kind: 'foreign', detail: `is not ${expected}; its root is ${key}${typeof namespace === 'string' ? ` in ${namespace}` : ' in no namespace'}` };
  }
  return { ok: true };
}

export function checkXml(content: Buffer): XmlCheck {
  if (content.length > XML_MAX_BYTES) return { ok: false, kind: 'limit', detail: `is larger than ${XML_MAX_BYTES} bytes, the most an e-invoice XML may be` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content).replace(/^\uFEFF/, '');
  } catch {
    return { ok: false, kind: 'malformed', detail: 'is not well-formed XML (it is not UTF-8)' };
  }
  if (/<!DOCTYPE/i.test(text)) return { ok: false, kind: 'active', detail: 'must not have a DOCTYPE (entity definitions are not accepted)' };
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) return { ok: false, kind: 'malformed', detail: `is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  let tree: unknown;
  try {
    tree = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: ATTRS,
      processEntities: false,
      ignoreDeclaration: false,
      ignorePiTags: false,
      maxNestedTags: XML_MAX_DEPTH,
    }).parse(text) as unknown;
  } catch (e) {
    // The parser refuses, by throwing, nesting past the bound and names that are reserved words of
    // JavaScript (`__proto__`, `constructor`): neither is in an e-invoice.
    const message = e instanceof Error ? e.message : String(e);
    if (/nested/i.test(message)) return { ok: false, kind: 'limit', detail: `nests elements deeper than ${XML_MAX_DEPTH} levels` };
    return { ok: false, kind: 'foreign', detail: 'is not a UBL e-invoice (it uses a reserved name)' };
  }
  return activeContent(tree) ?? eInvoiceRoot(tree);
}
