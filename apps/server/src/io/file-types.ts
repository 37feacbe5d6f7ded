import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/** A kind of file that may be uploaded: the type it is stored and served as, and the names it may have. */
export interface FileType {
  label: string;
  contentType: string;
  extensions: readonly string[];
}

const type = (label: string, contentType: string, ...extensions: string[]): FileType => ({
  label,
  contentType,
  extensions,
});

/**
 * The documents an investment team exchanges, and nothing else: no page a
 * browser would render (HTML, SVG), no script or program, whatever the name
 * or the type the client claims. A file is one of these by its bytes.
 */
const pdf = type('PDF', 'application/pdf', '.pdf');
const png = type('PNG image', 'image/png', '.png');
const jpeg = type('JPEG image', 'image/jpeg', '.jpg', '.jpeg');
const gif = type('GIF image', 'image/gif', '.gif');
const webp = type('WebP image', 'image/webp', '.webp');
const docx = type('Word document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '.docx');
const xlsx = type('Excel workbook', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '.xlsx');
const pptx = type(
  'PowerPoint presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.pptx',
);
const doc = type('Word 97-2003 document', 'application/msword', '.doc');
const xls = type('Excel 97-2003 workbook', 'application/vnd.ms-excel', '.xls');
const ppt = type('PowerPoint 97-2003 presentation', 'application/vnd.ms-powerpoint', '.ppt');
const zip = type('ZIP archive', 'application/zip', '.zip');
const csv = type('CSV', 'text/csv; charset=utf-8', '.csv');
const text = type('text', 'text/plain; charset=utf-8', '.txt', '.text', '.md', '.tsv', '.log');

export const acceptedFileTypes: readonly FileType[] = [
  pdf,
  png,
  jpeg,
  gif,
  webp,
  docx,
  xlsx,
  pptx,
  doc,
  xls,
  ppt,
  zip,
  csv,
  text,
];

export const acceptedExtensions = [...new Set(acceptedFileTypes.flatMap((t) => t.extensions))];

const startsWith = (head: Buffer, bytes: readonly number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The kinds whose signature the first bytes carry (Office files in a zip are told apart later). */
function byMagic(head: Buffer): readonly FileType[] | 'zip' | undefined {
  if (startsWith(head, ascii('%PDF-'))) return [pdf];
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return [png];
  if (startsWith(head, [0xff, 0xd8, 0xff])) return [jpeg];
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return [gif];
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return [webp];
  // OLE compound files hold the legacy Office formats; which one is told by the name.
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return [doc, xls, ppt];
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  return undefined;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const EOCD_SEARCH = 22 + 0xffff;

/**
 * The entry names of a zip file, from its central directory (nothing is
 * decompressed); undefined when the directory cannot be read.
 */
async function zipEntryNames(file: string, size: number): Promise<string[] | undefined> {
  const handle = await open(file, 'r');
  try {
    const tailLength = Math.min(size, EOCD_SEARCH);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        end = i;
        break;
      }
    }
    if (end < 0) return undefined;
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) return undefined;
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const names: string[] = [];
    for (let at = 0; at + 46 <= directorySize && directory.readUInt32LE(at) === CENTRAL_SIGNATURE; ) {
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      names.push(directory.toString('utf8', at + 46, Math.min(directorySize, at + 46 + nameLength)));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await handle.close();
  }
}

/** Office Open XML is a zip with a content types part and the main part of its kind. */
function ooxmlKind(names: readonly string[]): FileType | undefined {
  if (!names.includes('[Content_Types].xml')) return undefined;
  if (names.includes('word/document.xml')) return docx;
  if (names.includes('xl/workbook.xml')) return xlsx;
  if (names.includes('ppt/presentation.xml')) return pptx;
  return undefined;
}

/** C0 controls other than tab, line feed, form feed and carriage return: no text file holds them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const binaryControl = /[\0-\x08\x0b\x0e-\x1f]/;

/** True when the whole file is UTF-8 text without NUL or other binary control characters. */
async function isText(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) {
      if (binaryControl.test(decoder.decode(chunk as Buffer, { stream: true }))) return false;
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

export type FileTypeDecision = { type: FileType } | { refused: string };

const acceptedList = 'PDF, PNG, JPEG, GIF, WebP, Word, Excel, PowerPoint, ZIP, CSV or UTF-8 text';

/**
 * The type of an uploaded file, decided from its bytes (magic numbers, a
 * zip's directory, UTF-8 text) and checked against its name's extension, so
 * that what is stored is what a colleague's computer will open it as. Never
 * from the type the client claims.
 */
export async function decideFileType(file: string, size: number, name: string): Promise<FileTypeDecision> {
  const handle = await open(file, 'r');
  const head = Buffer.alloc(16);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  let candidates: readonly FileType[] = [];
  const magic = byMagic(head);
  if (magic === 'zip') {
    const names = await zipEntryNames(file, size);
    if (!names) return { refused: 'This file looks like a ZIP archive but cannot be read as one' };
    if (names.some((entry) => /(^|\/)vbaProject\.bin$/i.test(entry))) {
      return { refused: 'Office files with macros are not accepted; save it without macros (.docx, .xlsx, .pptx)' };
    }
    candidates = [ooxmlKind(names) ?? zip];
  } else if (magic) {
    candidates = magic;
  } else if (await isText(file)) {
    candidates = [csv, text];
  }
  if (candidates.length === 0) return { refused: `This kind of file is not accepted: send ${acceptedList}` };
  const extension = path.extname(name).toLowerCase();
  const found = candidates.find((candidate) => candidate.extensions.includes(extension));
  if (found) return { type: found };
  const expected = candidates.flatMap((candidate) => candidate.extensions).join(', ');
  return {
    refused: `This file holds ${candidates.length === 1 ? (candidates[0] as FileType).label : 'a document'}, so its name must end in ${expected}`,
  };
}

/**
 * The type a stored file is served as: its accepted type, or bytes for
 * anything else (rows from before types were decided here carry whatever
 * their client claimed, control characters included).
 */
export function servedFileType(stored: string): FileType | undefined {
  const essence = stored.split(';')[0]?.trim().toLowerCase();
  return acceptedFileTypes.find((t) => t.contentType.split(';')[0] === essence);
}
