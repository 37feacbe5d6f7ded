import { mulberry32 } from '@data-platform/shared/random';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { describe, expect, it } from 'vitest';
import { type XmlHandlers, XmlRefused, XmlTokenizer } from './xml-tokens.ts';

/**
 * The workbook parts' XML tokenizer: what it hands on from well-formed XML,
 * whatever the chunks it comes in, and what it refuses; then the same as
 * saxes (the general parser it replaced, set up as the XLSX reader had it) on
 * a few thousand generated documents, some of them corrupted.
 */

type XmlEvent = ['open', string, Record<string, string>] | ['close', string] | ['text', string];

/** The events of a document, texts merged as a reader gathering them sees them, empty ones left out. */
function recorder(): { handlers: XmlHandlers; events: XmlEvent[] } {
  const events: XmlEvent[] = [];
  const handlers: XmlHandlers = {
    open: (name, attributes) => events.push(['open', name, { ...attributes }]),
    close: (name) => events.push(['close', name]),
    text(text) {
      const last = events[events.length - 1];
      if (last?.[0] === 'text') last[1] += text;
      else if (text !== '') events.push(['text', text]);
    },
  };
  return { handlers, events };
}

function eventsOf(chunks: string | string[], maxTokenChars?: number): XmlEvent[] {
  const { handlers, events } = recorder();
  const tokens = new XmlTokenizer(handlers, maxTokenChars);
  for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) tokens.write(chunk);
  tokens.close();
  return events;
}

function refusalOf(chunks: string | string[], maxTokenChars?: number): XmlRefused {
  try {
    eventsOf(chunks, maxTokenChars);
  } catch (error) {
    if (error instanceof XmlRefused) return error;
    throw error;
  }
  throw new Error(`Expected a refusal of ${JSON.stringify(chunks)}`);
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The events saxes gives, as the XLSX reader handed them on before (white space outside the root left out), or null when it refuses. */
function saxesEventsOf(chunks: string[]): XmlEvent[] | null {
  const { handlers, events } = recorder();
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let depth = 0;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const attributes: Record<string, string> = Object.create(null);
    for (const [name, value] of Object.entries(tag.attributes)) attributes[local(name)] = value;
    handlers.open?.(local(tag.name), attributes);
    if (tag.isSelfClosing) handlers.close?.(local(tag.name));
    else depth += 1;
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (tag.isSelfClosing) return;
    depth -= 1;
    handlers.close?.(local(tag.name));
  });
  parser.on('text', (text) => {
    if (depth > 0) handlers.text?.(text);
  });
  parser.on('cdata', (text) => handlers.text?.(text));
  parser.on('doctype', () => {
    throw new Error('a document type declaration');
  });
  try {
    for (const chunk of chunks) parser.write(chunk);
    parser.close();
  } catch {
    return null;
  }
  return events;
}

describe('XmlTokenizer', () => {
  const sheet =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<x:worksheet xmlns:x="urn:main"><x:sheetData>' +
    '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r=\'B1\'/></x:row>' +
    '</x:sheetData></x:worksheet>\n';
  const sheetEvents: XmlEvent[] = [
    ['open', 'worksheet', { x: 'urn:main' }],
    ['open', 'sheetData', {}],
    ['open', 'row', { r: '1' }],
    ['open', 'c', { r: 'A1', t: 's' }],
    ['open', 'v', {}],
    ['text', '0'],
    ['close', 'v'],
    ['close', 'c'],
    ['open', 'c', { r: 'B1' }],
    ['close', 'c'],
    ['close', 'row'],
    ['close', 'sheetData'],
    ['close', 'worksheet'],
  ];

  it('hands on elements by local name, attributes in either quotes, a self-closing element as opened and closed', () => {
    expect(eventsOf(sheet)).toEqual(sheetEvents);
  });

  it('gives the same events however the document is cut into chunks, even inside a tag or a character', () => {
    const document = sheet.slice(0, -1).replace('<x:v>0</x:v>', '<x:v>&#x1F600; &amp;\r\n😀</x:v>');
    const whole = eventsOf(document);
    for (let cut = 0; cut <= document.length; cut++) {
      expect(eventsOf([document.slice(0, cut), document.slice(cut)])).toEqual(whole);
    }
    expect(eventsOf([...document])).toEqual(whole);
    expect(whole[5]).toEqual(['text', '😀 &\n😀']);
  });

  it('reads attributes by local name, the last of two that share one, and normalizes their white space', () => {
    expect(eventsOf('<a x:r="1" y:r="2" s="a\tb\r\nc&#10;d"/>')).toEqual([
      ['open', 'a', { r: '2', s: 'a b c\nd' }],
      ['close', 'a'],
    ]);
  });

  it('decodes the predefined entities and numeric references, astral ones too', () => {
    expect(
      eventsOf(
        `<t a="&lt;&gt;&amp;&quot;&apos;">&lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#x00063; &#128512;&#x1f600;</t>`,
      ),
    ).toEqual([
      ['open', 't', { a: `<>&"'` }],
      ['text', `<>&"' ABc 😀😀`],
      ['close', 't'],
    ]);
  });

  it.each([
    ['an unknown entity', '<t>&nbsp;</t>'],
    ['an & without a reference', '<t>fish & chips</t>'],
    ['an unterminated reference', '<t>&amp</t>'],
    ['an empty reference', '<t>&;</t>'],
    ['an empty numeric reference', '<t>&#;</t>'],
    ['an empty hex reference', '<t>&#x;</t>'],
    ['a hex reference with an upper-case X', '<t>&#X41;</t>'],
    ['a reference with a non-digit', '<t>&#4a;</t>'],
    ['a reference to NUL', '<t>&#0;</t>'],
    ['a reference to a surrogate', '<t>&#xD800;</t>'],
    ['a reference past the last code point', '<t>&#x110000;</t>'],
    ['a bad reference in an attribute', '<t a="&bogus;"/>'],
  ])('refuses %s', (_, document) => {
    expect(refusalOf(document).code).toBe('malformed');
  });

  it('hands on CDATA as text, passes over comments, processing instructions and the XML declaration', () => {
    expect(
      eventsOf(
        `<?xml version='1.0'?><!-- before --><?pi before?><t>a<![CDATA[<b>&amp;]]>c<!-- - -->d<?pi ?>e</t><!--after-->`,
      ),
    ).toEqual([
      ['open', 't', {}],
      ['text', 'a<b>&amp;cde'],
      ['close', 't'],
    ]);
  });

  it.each([
    ['a document type', '<!DOCTYPE t [<!ENTITY x "y">]><t>&x;</t>'],
    ['an XML declaration after white space', ' <?xml version="1.0"?><t/>'],
    ['an XML declaration inside the root', '<t><?xml version="1.0"?></t>'],
    ['an XML declaration without a version', '<?xml encoding="UTF-8"?><t/>'],
    ['a malformed XML declaration', '<?xml version="1.0"standalone="yes"?><t/>'],
    ['a processing instruction named xml in capitals', '<t><?XML x?></t>'],
    ['a processing instruction without a target', '<t><? x?></t>'],
    ['-- inside a comment', '<t><!-- a -- b --></t>'],
    ['a comment ending in --->', '<t><!-- a ---></t>'],
    ['a <! that is neither a comment nor CDATA', '<t><!ELEMENT t></t>'],
    ['a mismatched closing tag', '<a><b></a></b>'],
    ['a closing tag with another prefix', '<x:a></y:a>'],
    ['an unclosed tag', '<a><b></b>'],
    ['a closing tag that closes nothing', '<a></a></b>'],
    ['text before the root', 'x<a/>'],
    ['text after the root', '<a/>x'],
    ['a reference outside the root', '<a/>&amp;'],
    ['CDATA outside the root', '<a/><![CDATA[x]]>'],
    ['a second root element', '<a/><b/>'],
    ['no root element', '<!-- only a comment -->'],
    ['an empty document', ''],
    ['a < inside an attribute value', '<a b="<"/>'],
    ['an unquoted attribute value', '<a b=c/>'],
    ['an attribute without a value', '<a b/>'],
    ['attributes without a space between them', '<a b="1"c="2"/>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['an unterminated attribute value', '<a b="1/>'],
    ['a / not followed by >', '<a / >'],
    ['a < that starts no tag', '<a>< b</a>'],
    ['a name that starts with a digit', '<1a/>'],
    [']]> in a text', '<a>x]]>y</a>'],
    ['a control character', '<a>\u0001</a>'],
    ['U+FFFF', '<a>\uffff</a>'],
    ['a document that ends inside a tag', '<a></a'],
  ])('refuses %s', (_, document) => {
    expect(refusalOf(document).code).toBe('malformed');
  });

  it("lets a handler's error through as it is (the XLSX reader's own refusals)", () => {
    const error = new Error('from a handler');
    const tokens = new XmlTokenizer({
      open() {
        throw error;
      },
    });
    expect(() => tokens.write('<a/>')).toThrow(error);
  });

  it('refuses a token longer than the bound while it is read, never holding much more', () => {
    for (const start of ['<t>', '<t a="', '<t><!--', '<t><![CDATA[', '<t><?pi ']) {
      const tokens = new XmlTokenizer({}, 10_000);
      tokens.write(start);
      let written = 0;
      const endless = () => {
        for (;;) {
          tokens.write('x'.repeat(1000));
          written += 1000;
        }
      };
      expect(endless).toThrow(expect.objectContaining({ code: 'tokenTooLong' }));
      expect(written).toBeLessThanOrEqual(10_000);
    }
    // Whole in one chunk, one over the bound; at the bound, read.
    expect(refusalOf(`<t>${'x'.repeat(10_001)}</t>`, 10_000).code).toBe('tokenTooLong');
    expect(eventsOf(`<t>${'x'.repeat(10_000)}</t>`, 10_000)[1]).toEqual(['text', 'x'.repeat(10_000)]);
    expect(refusalOf(`<t a="${'x'.repeat(10_000)}"/>`, 10_000).code).toBe('tokenTooLong');
  });

  it('gives the events saxes gave, or refuses what it refused, on thousands of generated documents cut anywhere', () => {
    const seed = 20_260_514;
    const random = mulberry32(seed);
    const agreed = { read: 0, refused: 0 };
    for (let n = 0; n < 4000; n++) {
      const document = generatedDocument(random);
      const chunks = cut(document, random);
      const expected = saxesEventsOf(chunks);
      let actual: XmlEvent[] | null;
      try {
        actual = eventsOf(chunks);
      } catch (error) {
        if (!(error instanceof XmlRefused)) throw error;
        actual = null;
      }
      const context = `document ${n} of seed ${seed}: ${JSON.stringify(chunks)}`;
      expect(actual, context).toEqual(expected);
      if (expected === null) agreed.refused += 1;
      else agreed.read += 1;
    }
    // Both kinds well represented, so that neither half of the comparison is empty.
    expect(agreed.read).toBeGreaterThan(1000);
    expect(agreed.refused).toBeGreaterThan(1000);
  });
});

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const elementNames = [
  'a',
  'row',
  'c',
  'v',
  'x:c',
  'x:row',
  'main:sheetData',
  '_b',
  'a-b.c',
  'é',
  'n:é1',
  'a:b:c',
  '𝒳',
  'x·y',
  ':a',
];
const attributeNames = [
  'r',
  's',
  't',
  'x:r',
  'y:r',
  'xml:space',
  'Id',
  'b-c',
  'é',
  'xmlns:x',
  'constructor',
  '__proto__',
];
const textPieces = [
  ...['x', 'Globex', '1.5', ' ', '  ', '\n', '\r\n', '\r', '\t', '>', ']', ']]', '"', "'", '?', '/', '=', ';', '#'],
  ...[
    'é',
    '😀',
    '\u0085',
    '\u2028',
    '\ufeff',
    '&amp;',
    '&lt;',
    '&gt;',
    '&quot;',
    '&apos;',
    '&#65;',
    '&#x41;',
    '&#x4f;',
  ],
  ...['&#x1F600;', '&#128512;', '&#10;', '&#13;', '&#9;', '&#x0000041;', '&#xFFFD;'],
];
const declarations = [
  '<?xml version="1.0"?>',
  "<?xml version='1.0' encoding='UTF-8'?>",
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
  '<?xml version = "1.0"  standalone="no" ?>',
  '<?xml\tversion="1.0"\r\n?>',
];
const badDeclarations = [
  '<?xml?>',
  '<?xml encoding="UTF-8"?>',
  '<?xml version="2.0"?>',
  '<?xml version="1.0"standalone="yes"?>',
  '<?xml version="1.0" standalone="maybe"?>',
  '<?xml version="1.0" encoding="8bit"?>',
  ' <?xml version="1.0"?>',
];
const corruptions = [
  ...['<', '>', '&', ';', '/', '=', '"', "'", '!', '?', '[', ']', '-', ' ', 'x', ':', '\r'],
  ...['</a>', '<a>', '<b/>', '&bogus;', '&#0;', '&#xD800;', '&#x110000;', '&#;', '&#X41;', '&#12a;', ']]>', '--'],
  ...[
    '<!DOCTYPE r>',
    '<!-- - -->',
    '\u0001',
    '\ufffe',
    '<?xml version="1.0"?>',
    '<![CDATA[x]]>',
    '<!--x-->',
    '<?pi x?>',
  ],
];

function repeat(random: () => number, most: number, piece: () => string): string {
  let out = '';
  const count = Math.floor(random() * (most + 1));
  for (let i = 0; i < count; i++) out += piece();
  return out;
}

function attributeValue(random: () => number, quote: string): string {
  return repeat(random, 4, () => {
    const piece = pick(random, textPieces);
    if (piece === quote && random() < 0.9) return quote === '"' ? '&quot;' : '&apos;';
    return piece;
  });
}

function element(random: () => number, depth: number): string {
  const name = pick(random, elementNames);
  let tag = `<${name}`;
  const used = new Set<string>();
  const attributes = Math.floor(random() * 4);
  for (let i = 0; i < attributes; i++) {
    const attribute = pick(random, attributeNames);
    // A duplicate now and then; most would only make a refusal.
    if (used.has(attribute) && random() < 0.9) continue;
    used.add(attribute);
    const quote = random() < 0.5 ? '"' : "'";
    tag += `${pick(random, [' ', '\n', '  ', '\t'])}${attribute}${random() < 0.1 ? ' = ' : '='}${quote}${attributeValue(random, quote)}${quote}`;
  }
  tag += random() < 0.1 ? ' ' : '';
  if (random() < 0.25 || depth > 3) return `${tag}/>`;
  const content = repeat(random, 5, () => {
    const r = random();
    if (r < 0.35) return repeat(random, 5, () => pick(random, textPieces));
    if (r < 0.75) return element(random, depth + 1);
    if (r < 0.85)
      return `<![CDATA[${repeat(random, 4, () => pick(random, ['x', '<', '>', '&', ']', ' ', '\r\n', '<!--']))}]]>`;
    if (r < 0.93) return `<!--${repeat(random, 4, () => pick(random, ['x', ' ', '<', '>', '&', 'x-y', '-']))}-->`;
    return `<?${pick(random, ['pi', 'xml-stylesheet', 'a:b', 'XmL', 'é'])}${pick(random, ['', ' body', ' a="1"', ' ?', ' >'])}?>`;
  });
  return `${tag}>${content}</${name}${random() < 0.1 ? ' ' : ''}>`;
}

/** Outside the root: white space, comments, processing instructions. */
function misc(random: () => number): string {
  return repeat(random, 2, () => pick(random, [' ', '\r\n', '\n\t', '<!-- note -->', '<?pi x?>', '<!---->']));
}

/** A document as a workbook part might be, now and then a DOCTYPE; about a third corrupted once or twice. */
function generatedDocument(random: () => number): string {
  const prolog = random() < 0.6 ? pick(random, random() < 0.1 ? badDeclarations : declarations) : '';
  const doctype = random() < 0.03 ? '<!DOCTYPE a>' : '';
  const document = `${prolog}${misc(random)}${doctype}${element(random, 0)}${misc(random)}`;
  if (random() < 0.65) return document;
  // Cut by code points, so that no corruption leaves half a surrogate pair (a TextDecoder never gives one).
  const characters = Array.from(document);
  const changes = 1 + Math.floor(random() * 2);
  for (let i = 0; i < changes; i++) {
    const at = Math.floor(random() * characters.length);
    const r = random();
    if (r < 0.3) characters.splice(at, 1);
    else if (r < 0.8) characters.splice(at, 0, pick(random, corruptions));
    else if (r < 0.9) characters.splice(at, 2, ...characters.slice(at, at + 2).reverse());
    else characters.length = at;
  }
  return characters.join('');
}

/** The document in random chunks, cut anywhere (between the halves of a surrogate pair too). */
function cut(document: string, random: () => number): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < document.length) {
    const size = 1 + Math.floor(random() * (random() < 0.5 ? 4 : document.length));
    chunks.push(document.slice(at, at + size));
    at += size;
  }
  return chunks;
}
