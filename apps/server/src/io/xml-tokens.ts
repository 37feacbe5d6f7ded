/**
 * A streaming XML tokenizer for the parts of an XLSX workbook (sheets, shared
 * strings, styles, the workbook, relationships), in place of a general XML
 * parser, which spent most of an import's reading time building strings a
 * character at a time. It scans each chunk with `indexOf` and `charCodeAt`,
 * cuts names, values and texts out with `slice`, and hands an element or a
 * text on as soon as it is whole.
 *
 * Accepted: XML 1.0 as a workbook part holds it, in decoded string chunks cut
 * anywhere (even inside a tag, a reference or a line end). Elements, prefixed
 * or not, are handed on by their local name (`x:c` is `c`), as are their
 * attributes; a self-closing element opens and closes. Attribute values, in
 * single or double quotes, have their line ends and tabs read as spaces (XML's
 * attribute value normalization). Texts and values have the 5 predefined
 * entities and numeric character references (decimal and hex, astral code
 * points too) decoded; line ends are read as `\n`. A CDATA section is handed
 * on as text, as it is. Comments, processing instructions and the XML
 * declaration (at the very start only) are passed over; a byte order mark at
 * the start is dropped. Whitespace outside the root element is not handed on.
 *
 * Refused, with `XmlRefused`: anything not well-formed that a workbook reader
 * could stumble on: a tag left open, closed out of order or closing nothing, a
 * second root element, text or CDATA outside the root, `<` or a stray `&` in an
 * attribute value, a missing quote or space between attributes, a duplicate
 * attribute, an unknown entity or a malformed reference (or one to a character
 * XML forbids), characters XML forbids (controls, U+FFFE, U+FFFF), `]]>` in a
 * text, `--` inside a comment, a malformed XML declaration or one anywhere
 * but at the start, and any document type declaration (a workbook part never
 * has one; one could only bring entity tricks). A single token (a text, a tag
 * with its attributes, a comment, a CDATA section) longer than
 * `maxTokenChars` is refused while it is read (`tokenTooLong`): the tokenizer
 * holds at most that, plus the chunk it was given.
 *
 * Not done, as no workbook needs it: namespaces are not resolved (names are
 * read by their local part), a declared version of 1.1 is read as 1.0, and
 * the input is taken to be well-formed UTF-16 (as a fatal `TextDecoder` gives
 * it: no lone surrogate).
 */

/** Element handlers; names are local (without a namespace prefix), as are attribute names. */
export interface XmlHandlers {
  /** `attributes`, by local name, are own properties, to be read only: one frozen object serves every element without any. */
  open?(name: string, attributes: Readonly<Record<string, string>>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** Why a document is refused: not well-formed (`malformed`), or a token over the length allowed. */
export class XmlRefused extends Error {
  constructor(
    readonly code: 'malformed' | 'tokenTooLong',
    message: string,
  ) {
    super(message);
  }
}

const malformed = (why: string) => new XmlRefused('malformed', `Malformed XML: ${why}`);

/** A token's end when the chunk ends before it does. */
const MORE = -1;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const DQUOTE = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const SQUOTE = 0x27;
const SLASH = 0x2f;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const BANG = 0x21;
const CLOSE_BRACKET = 0x5d;
const LOWER_X = 0x78;

const NAME_START = 1;
const NAME = 2;
/** What each ASCII character may be: NAME_START and NAME (XML 1.0 fifth edition, productions 4 and 4a). */
const ascii = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a;
  const other = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
  ascii[c] = letter ? NAME_START | NAME : other ? NAME : 0;
}

/** A character past ASCII that may start a name (XML 1.0 fifth edition, production 4). */
function isWideNameStart(c: number): boolean {
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/**
 * Code units of the name character at `i`, past ASCII: 1, 2 for an astral
 * one (U+10000 to U+EFFFF may be in a name), 0 when it may not be there, MORE
 * when the chunk ends between the halves of a pair.
 */
function wideNameChar(buf: string, i: number, c: number, first: boolean): number {
  if (c >= 0xd800 && c <= 0xdb7f) {
    const low = buf.charCodeAt(i + 1);
    if (Number.isNaN(low)) return MORE;
    return low >= 0xdc00 && low <= 0xdfff ? 2 : 0;
  }
  if (isWideNameStart(c)) return 1;
  return !first && (c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040) ? 1 : 0;
}

/** Where the name at `start` ends (at `start` when no name starts there), or MORE when the chunk ends first. */
function nameEnd(buf: string, start: number): number {
  let i = start;
  for (;;) {
    const c = buf.charCodeAt(i);
    if (c < 0x80) {
      if (((ascii[c] as number) & (i === start ? NAME_START : NAME)) === 0) return i;
      i++;
    } else {
      if (Number.isNaN(c)) return MORE;
      const width = wideNameChar(buf, i, c, i === start);
      if (width === MORE) return MORE;
      if (width === 0) return i;
      i += width;
    }
  }
}

/** XML's white space (carriage returns are already line feeds here). */
const isSpace = (c: number) => c === SPACE || c === LF || c === TAB;

/** Past the white space from `i`. */
function skipSpaces(buf: string, i: number): number {
  while (isSpace(buf.charCodeAt(i))) i++;
  return i;
}

/** Whether `literal` is at `pos`; undefined when the chunk ends before it can tell. */
function literalAt(buf: string, pos: number, literal: string): boolean | undefined {
  for (let k = 0; k < literal.length; k++) {
    const c = buf.charCodeAt(pos + k);
    if (Number.isNaN(c)) return undefined;
    if (c !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/** Characters XML 1.0 allows (production 2), for what a numeric reference names. */
const isXmlChar = (c: number) =>
  c === TAB ||
  c === LF ||
  c === CR ||
  (c >= SPACE && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff);

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters XML forbids is its purpose.
const FORBIDDEN_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const LINE_ENDS = /\r\n?/g;
const ATTRIBUTE_SPACES = /[\t\n]/g;
/** The XML declaration as XML 1.0 writes it (production 23), carriage returns already read as line feeds. */
const XML_DECLARATION =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(?:"1\.[0-9]+"|'1\.[0-9]+')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"[A-Za-z][\w.-]*"|'[A-Za-z][\w.-]*'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\n]*\?>$/;

const entities = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** The character a reference (what is between `&` and `;`, from `start` to `end`) stands for. */
function referenced(raw: string, start: number, end: number): string {
  if (raw.charCodeAt(start) !== HASH) {
    const named = entities.get(raw.slice(start, end));
    if (named === undefined) throw malformed(`unknown entity &${raw.slice(start, end)};`);
    return named;
  }
  const hex = raw.charCodeAt(start + 1) === LOWER_X;
  let i = start + (hex ? 2 : 1);
  if (i === end) throw malformed('empty character reference');
  let code = 0;
  for (; i < end; i++) {
    const c = raw.charCodeAt(i);
    let digit = c - 0x30;
    if (hex && (digit < 0 || digit > 9)) {
      const lower = c | 0x20;
      digit = lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
    }
    if (digit < 0 || digit > (hex ? 15 : 9)) {
      throw malformed(`malformed character reference &${raw.slice(start, end)};`);
    }
    code = code * (hex ? 16 : 10) + digit;
    // Past the last code point already; leading zeros keep it at 0 however many they are.
    if (code > 0x10ffff) break;
  }
  if (!isXmlChar(code)) throw malformed(`a reference to a character XML forbids, &${raw.slice(start, end)};`);
  return String.fromCodePoint(code);
}

/** `raw` with its references decoded, from the first `&`, at `amp`. */
function decoded(raw: string, amp: number): string {
  let out = '';
  let from = 0;
  let at = amp;
  while (at >= 0) {
    const semicolon = raw.indexOf(';', at + 1);
    if (semicolon < 0) throw malformed('an & that starts no reference');
    out += raw.slice(from, at) + referenced(raw, at + 1, semicolon);
    from = semicolon + 1;
    at = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

/** The attributes of every element that has none: read-only, so one object serves them all. */
const noAttributes: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Sets an attribute on a plain object (much faster to fill and read than one
 * without a prototype), `__proto__` too: assigned, it would set the prototype.
 */
function setOwn(attributes: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') {
    Object.defineProperty(attributes, name, { value, enumerable: true, writable: true, configurable: true });
  } else attributes[name] = value;
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Feed it decoded chunks with `write`, then `close`; it calls the handlers as
 * elements and texts come and throws `XmlRefused` (or what a handler throws)
 * at the first thing it refuses, after which it is not to be used again.
 */
export class XmlTokenizer {
  /** The start of a token the last chunk ended inside. */
  private pending = '';
  /** A chunk ended with a carriage return: it may be half of a CR LF. */
  private carriedCr = false;
  /** A character has come: a byte order mark is dropped only before the first. */
  private begun = false;
  /** Nothing read yet: the only place an XML declaration may be. */
  private atStart = true;
  private sawRoot = false;
  private rootClosed = false;
  /** The open elements' names as written, and as handed on. */
  private readonly open: string[] = [];
  private readonly openLocal: string[] = [];

  constructor(
    private readonly handlers: XmlHandlers,
    private readonly maxTokenChars = Number.POSITIVE_INFINITY,
  ) {}

  write(chunk: string): void {
    const text = this.prepared(chunk);
    // Joined rather than added: `+` makes a rope, which every charCodeAt would then go through (a fifth slower).
    const buf = this.pending.length === 0 ? text : [this.pending, text].join('');
    let pos = 0;
    while (pos < buf.length) {
      const next = this.token(buf, pos);
      if (next === MORE) break;
      pos = next;
      this.atStart = false;
    }
    this.pending = pos === 0 ? buf : buf.slice(pos);
    if (this.pending.length > this.maxTokenChars) throw this.tooLong();
  }

  /** Ends the document: refuses it if a token, an element or the root is missing. */
  close(): void {
    if (this.carriedCr) {
      this.carriedCr = false;
      this.write('\n');
    }
    if (this.pending.length > 0) throw malformed('the document ends inside a token');
    if (this.open.length > 0) throw malformed(`unclosed tag: ${this.open[this.open.length - 1]}`);
    if (!this.sawRoot) throw malformed('no root element');
  }

  private tooLong(): XmlRefused {
    return new XmlRefused('tokenTooLong', `An XML token is longer than ${this.maxTokenChars} characters`);
  }

  /** The chunk with its line ends read as `\n` (XML 2.11), once its characters are known to be allowed. */
  private prepared(chunk: string): string {
    let text = chunk;
    if (this.carriedCr) {
      text = `\r${text}`;
      this.carriedCr = false;
    }
    if (!this.begun && text.length > 0) {
      this.begun = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.charCodeAt(text.length - 1) === CR) {
      this.carriedCr = true;
      text = text.slice(0, -1);
    }
    if (text.includes('\r')) text = text.replace(LINE_ENDS, '\n');
    if (FORBIDDEN_CHARS.test(text)) throw malformed('a character XML forbids');
    return text;
  }

  /** Reads the token at `pos`, handing it on; returns where it ends, or MORE. */
  private token(buf: string, pos: number): number {
    if (buf.charCodeAt(pos) !== LT) return this.open.length > 0 ? this.text(buf, pos) : this.spaceOutside(buf, pos);
    const nameStop = nameEnd(buf, pos + 1);
    if (nameStop === MORE) return MORE;
    if (nameStop > pos + 1) return this.openTag(buf, pos, nameStop);
    switch (buf.charCodeAt(pos + 1)) {
      case SLASH:
        return this.closeTag(buf, pos);
      case BANG:
        return this.markup(buf, pos);
      case QUESTION:
        return this.instruction(buf, pos);
      default:
        if (Number.isNaN(buf.charCodeAt(pos + 1))) return MORE;
        throw malformed('a < that starts no tag');
    }
  }

  /** A text inside the root, up to the next `<`. */
  private text(buf: string, pos: number): number {
    let amp = -1;
    let i = pos;
    for (;;) {
      const c = buf.charCodeAt(i);
      if (c === LT) break;
      if (c === AMP) {
        if (amp < 0) amp = i - pos;
      } else if (c === CLOSE_BRACKET) {
        if (buf.charCodeAt(i + 1) === CLOSE_BRACKET && buf.charCodeAt(i + 2) === GT) throw malformed(']]> in a text');
      } else if (Number.isNaN(c)) return MORE;
      i++;
    }
    if (i - pos > this.maxTokenChars) throw this.tooLong();
    const raw = buf.slice(pos, i);
    this.handlers.text?.(amp < 0 ? raw : decoded(raw, amp));
    return i;
  }

  /** White space outside the root, passed over as it comes (nothing else may be there). */
  private spaceOutside(buf: string, pos: number): number {
    let i = pos;
    for (;;) {
      const c = buf.charCodeAt(i);
      if (c === LT || Number.isNaN(c)) return i;
      if (!isSpace(c)) throw malformed('text outside the root element');
      i++;
    }
  }

  /** `<name attributes>` or `<name attributes/>`; the name ends at `nameStop`. */
  private openTag(buf: string, pos: number, nameStop: number): number {
    if (this.rootClosed) throw malformed('a second root element');
    let attributes: Record<string, string> | undefined;
    let prefixed = false;
    let selfClosing = false;
    let i = nameStop;
    for (;;) {
      let c = buf.charCodeAt(i);
      if (c === GT) {
        i += 1;
        break;
      }
      if (c === SLASH) {
        const next = buf.charCodeAt(i + 1);
        if (next === GT) {
          selfClosing = true;
          i += 2;
          break;
        }
        if (Number.isNaN(next)) return MORE;
        throw malformed('a / in a tag not followed by >');
      }
      if (!isSpace(c)) {
        if (Number.isNaN(c)) return MORE;
        throw malformed('no space before an attribute');
      }
      i = skipSpaces(buf, i + 1);
      c = buf.charCodeAt(i);
      if (c === GT || c === SLASH) continue;
      const nameStart = i;
      i = nameEnd(buf, i);
      if (i === MORE) return MORE;
      if (i === nameStart) {
        if (Number.isNaN(c)) return MORE;
        throw malformed('a tag with a character that starts no attribute');
      }
      const name = buf.slice(nameStart, i);
      i = skipSpaces(buf, i);
      c = buf.charCodeAt(i);
      if (c !== EQUALS) {
        if (Number.isNaN(c)) return MORE;
        throw malformed(`attribute ${name} without a value`);
      }
      i = skipSpaces(buf, i + 1);
      const quote = buf.charCodeAt(i);
      if (quote !== DQUOTE && quote !== SQUOTE) {
        if (Number.isNaN(quote)) return MORE;
        throw malformed(`attribute ${name} with an unquoted value`);
      }
      const valueStart = i + 1;
      let amp = -1;
      let spaces = false;
      for (i = valueStart; ; i++) {
        c = buf.charCodeAt(i);
        if (c === quote) break;
        if (c <= LT) {
          if (c === LT) throw malformed(`a < in attribute ${name}`);
          if (c === AMP) {
            if (amp < 0) amp = i - valueStart;
          } else if (c === LF || c === TAB) spaces = true;
        } else if (Number.isNaN(c)) return MORE;
      }
      let value = buf.slice(valueStart, i);
      i += 1;
      if (spaces) value = value.replace(ATTRIBUTE_SPACES, ' ');
      if (amp >= 0) value = decoded(value, amp);
      if (attributes === undefined) attributes = {};
      else if (attributes[name] !== undefined && Object.hasOwn(attributes, name)) {
        throw malformed(`duplicate attribute ${name}`);
      }
      setOwn(attributes, name, value);
      if (!prefixed && name.includes(':')) prefixed = true;
    }
    if (i - pos > this.maxTokenChars) throw this.tooLong();
    const qualified = buf.slice(pos + 1, nameStop);
    const name = localName(qualified);
    this.sawRoot = true;
    this.handlers.open?.(
      name,
      attributes === undefined ? noAttributes : prefixed ? byLocalName(attributes) : attributes,
    );
    if (selfClosing) {
      this.handlers.close?.(name);
      if (this.open.length === 0) this.rootClosed = true;
    } else {
      this.open.push(qualified);
      this.openLocal.push(name);
    }
    return i;
  }

  /** `</name>`, which must close the element open last. */
  private closeTag(buf: string, pos: number): number {
    const nameStart = pos + 2;
    const nameStop = nameEnd(buf, nameStart);
    if (nameStop === MORE) return MORE;
    const i = skipSpaces(buf, nameStop);
    const c = buf.charCodeAt(i);
    if (c !== GT) {
      if (Number.isNaN(c)) return MORE;
      throw malformed('a closing tag without a name or a >');
    }
    const depth = this.open.length;
    const expected = this.open[depth - 1];
    if (expected === undefined) throw malformed('a closing tag that closes nothing');
    if (nameStop - nameStart !== expected.length || !buf.startsWith(expected, nameStart)) {
      throw malformed(`</${buf.slice(nameStart, nameStop)}> closing <${expected}>`);
    }
    if (i + 1 - pos > this.maxTokenChars) throw this.tooLong();
    this.open.pop();
    const name = this.openLocal.pop() as string;
    if (depth === 1) this.rootClosed = true;
    this.handlers.close?.(name);
    return i + 1;
  }

  /** `<!`: a comment, a CDATA section, or a document type declaration, which is refused. */
  private markup(buf: string, pos: number): number {
    const comment = literalAt(buf, pos, '<!--');
    if (comment) {
      // A comment ends at the first `--`, which must be followed by `>`.
      const dashes = buf.indexOf('--', pos + 4);
      if (dashes < 0) return MORE;
      const after = buf.charCodeAt(dashes + 2);
      if (after !== GT) {
        if (Number.isNaN(after)) return MORE;
        throw malformed('-- inside a comment');
      }
      return this.bounded(pos, dashes + 3);
    }
    const cdata = literalAt(buf, pos, '<![CDATA[');
    if (cdata) {
      if (this.open.length === 0) throw malformed('a CDATA section outside the root element');
      const end = buf.indexOf(']]>', pos + 9);
      if (end < 0) return MORE;
      this.bounded(pos, end + 3);
      if (end > pos + 9) this.handlers.text?.(buf.slice(pos + 9, end));
      return end + 3;
    }
    const doctype = literalAt(buf, pos, '<!DOCTYPE');
    if (comment === undefined || cdata === undefined || doctype === undefined) return MORE;
    throw malformed(doctype ? 'a document type declaration' : 'a <! that starts no comment or CDATA section');
  }

  /** `<?target ...?>`: passed over, the XML declaration too once it is known to be well-formed and first. */
  private instruction(buf: string, pos: number): number {
    const targetStart = pos + 2;
    const targetStop = nameEnd(buf, targetStart);
    if (targetStop === MORE) return MORE;
    if (targetStop === targetStart) {
      if (Number.isNaN(buf.charCodeAt(targetStart))) return MORE;
      throw malformed('a processing instruction without a target');
    }
    const after = buf.charCodeAt(targetStop);
    if (after !== QUESTION && !isSpace(after)) throw malformed('a processing instruction with a malformed target');
    const end = buf.indexOf('?>', targetStop);
    if (end < 0) return MORE;
    this.bounded(pos, end + 2);
    if (targetStop - targetStart === 3 && buf.slice(targetStart, targetStop).toLowerCase() === 'xml') {
      const declaration = buf.slice(pos, end + 2);
      if (!this.atStart || !declaration.startsWith('<?xml') || !XML_DECLARATION.test(declaration)) {
        throw malformed('an XML declaration that is malformed or not at the start');
      }
    }
    return end + 2;
  }

  /** `end`, once the token from `pos` to it is known to be within the bound. */
  private bounded(pos: number, end: number): number {
    if (end - pos > this.maxTokenChars) throw this.tooLong();
    return end;
  }
}

/** Attributes by local name (the last wins when two share one), for an element with a prefixed attribute. */
function byLocalName(attributes: Record<string, string>): Record<string, string> {
  const local: Record<string, string> = {};
  for (const name of Object.keys(attributes)) setOwn(local, localName(name), attributes[name] as string);
  return local;
}
