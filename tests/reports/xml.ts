/**
 * Test support: a strict, small XML 1.0 parser (elements, attributes, text, CDATA, comments,
 * predefined and numeric entities). It throws on anything not well-formed, so a JUnit file that
 * parses here parses in any CI system's XML reader. No DTDs: junit.xml never has one.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][\w.:-]*/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  return s.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & near offset ${at}`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const num = /^#x([0-9a-fA-F]+)$/.exec(ref) ?? /^#([0-9]+)$/.exec(ref);
    if (num) return String.fromCodePoint(parseInt(num[1]!, m.startsWith('&#x') ? 16 : 10));
    throw new Error(`unknown entity &${ref}; near offset ${at}`);
  });
}

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const rest = () => xml.slice(i);
  const skipWs = () => {
    while (/\s/.test(xml[i] ?? '')) i++;
  };
  if (rest().startsWith('<?xml')) {
    const end = xml.indexOf('?>', i);
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  for (;;) {
    if (stack.length === 0) skipWs();
    if (i >= xml.length) break;
    if (rest().startsWith('<!--')) {
      const end = xml.indexOf('-->', i);
      if (end < 0) throw new Error('unterminated comment');
      i = end + 3;
    } else if (rest().startsWith('<![CDATA[')) {
      const end = xml.indexOf(']]>', i);
      if (end < 0 || stack.length === 0) throw new Error(`bad CDATA at ${i}`);
      stack.at(-1)!.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (rest().startsWith('</')) {
      i += 2;
      const name = NAME.exec(rest())?.[0];
      const open = stack.pop();
      if (!name || !open || open.name !== name) throw new Error(`mismatched </${name}> at ${i}`);
      i += name.length;
      skipWs();
      if (xml[i++] !== '>') throw new Error(`bad end tag at ${i}`);
      if (stack.length === 0) root = open;
    } else if (xml[i] === '<') {
      if (root) throw new Error('content after the root element');
      i++;
      const name = NAME.exec(rest())?.[0];
      if (!name) throw new Error(`bad tag name at ${i}`);
      i += name.length;
      const el: XmlElement = { name, attrs: {}, children: [], text: '' };
      for (;;) {
        skipWs();
        if (rest().startsWith('/>') || xml[i] === '>') break;
        const attr = NAME.exec(rest())?.[0];
        if (!attr) throw new Error(`bad attribute at ${i}`);
        i += attr.length;
        skipWs();
        if (xml[i++] !== '=') throw new Error(`expected = at ${i}`);
        skipWs();
        const quote = xml[i++];
        if (quote !== '"' && quote !== "'") throw new Error(`unquoted attribute at ${i}`);
        const end = xml.indexOf(quote, i);
        const raw = xml.slice(i, end);
        if (end < 0 || raw.includes('<')) throw new Error(`bad attribute value at ${i}`);
        if (attr in el.attrs) throw new Error(`duplicate attribute ${attr}`);
        el.attrs[attr] = decode(raw, i);
        i = end + 1;
      }
      stack.at(-1)?.children.push(el);
      if (rest().startsWith('/>')) {
        i += 2;
        if (stack.length === 0) root = el;
      } else {
        i++;
        stack.push(el);
      }
    } else {
      if (stack.length === 0) throw new Error(`text outside the root at ${i}`);
      const end = xml.indexOf('<', i);
      const raw = xml.slice(i, end < 0 ? xml.length : end);
      if (raw.includes(']]>')) throw new Error(']]> in text');
      stack.at(-1)!.text += decode(raw, i);
      i += raw.length;
    }
  }
  if (!root || stack.length > 0) throw new Error('unclosed elements');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml)) throw new Error('control character not allowed in XML 1.0');
  return root;
}

export function findAll(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}
